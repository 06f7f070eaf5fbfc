import BoardConfig
import XCTest

/// `[display]` (docs/formats.md §4, issue 27): idle times, how the screen is switched, the wake guard.
final class DisplayKeyTests: XCTestCase {
    func testBacklightBoardLoadsWithDefaults() throws {
        XCTAssertNil(try TestBoards.load(TestBoards.text()).display)
        let board = try TestBoards.load(
            TestBoards.text(extra: "[display]\nidle_off_s = 300\nbacklight = \"10-0045\"\n"))
        XCTAssertEqual(
            board.display,
            DisplayDescription(idleOffSeconds: 300, wakeGuardMilliseconds: 300, switching: .backlight(name: "10-0045")))
    }

    func testDimmingAndCommandsAndGPIO() throws {
        let dimmed = try TestBoards.load(
            TestBoards.text(
                extra: """
                    [display]
                    idle_off_s = 600
                    idle_dim_s = 60
                    dim_brightness = 20
                    wake_guard_ms = 500
                    backlight = "rpi_backlight"
                    gpio = { chip = "sim", line = 5 }
                    """))
        XCTAssertEqual(dimmed.display?.idleDimSeconds, 60)
        XCTAssertEqual(dimmed.display?.dimBrightnessPercent, 20)
        XCTAssertEqual(dimmed.display?.wakeGuardMilliseconds, 500)
        XCTAssertEqual(dimmed.display?.gpio, GPIOLineDescription(chip: "sim", line: 5))
        let commands = try TestBoards.load(
            TestBoards.text(
                extra: """
                    [display]
                    idle_off_s = 0
                    on_command = ["/usr/bin/wlopm", "--on", "*"]
                    off_command = ["/usr/bin/wlopm", "--off", "*"]
                    """))
        guard case .commands(let on, let off)? = commands.display?.switching else {
            return XCTFail("\(String(describing: commands.display))")
        }
        XCTAssertEqual(on.argv, ["/usr/bin/wlopm", "--on", "*"])
        XCTAssertEqual(off.argv, ["/usr/bin/wlopm", "--off", "*"])
    }

    /// Issue 30, class 6: `session = true` hands the commands to `touchwire agent`, which reads
    /// the screen's changes from the event socket: it needs both commands and a socket output,
    /// else one error naming `display.session`.
    func testSessionNeedsCommandsAndASocketOutput() throws {
        let socket = "[[output]]\ntype = \"socket\"\npath = \"/run/touchwire/events.sock\"\n\n"
        let commands =
            "on_command = [\"/usr/bin/wlopm\", \"--on\", \"*\"]\n"
            + "off_command = [\"/usr/bin/wlopm\", \"--off\", \"*\"]"
        let board = try TestBoards.load(
            TestBoards.text(extra: socket + "[display]\nidle_off_s = 60\nsession = true\n" + commands + "\n"))
        XCTAssertEqual(board.display?.runsInSession, true)
        let plain = try TestBoards.load(
            TestBoards.text(extra: socket + "[display]\nidle_off_s = 60\n" + commands + "\n"))
        XCTAssertEqual(plain.display?.runsInSession, false)
        let cases: [(String, String)] = [
            (socket + "[display]\nidle_off_s = 60\nsession = true\nbacklight = \"x\"", "give both"),
            (socket + "[display]\nidle_off_s = 60\nsession = true", "give both"),
            ("[display]\nidle_off_s = 60\nsession = true\n" + commands, "type = \"socket\""),
            (socket + "[display]\nidle_off_s = 60\nsession = 1\n" + commands, "true or false"),
        ]
        for (body, message) in cases {
            let issues = TestBoards.issues(TestBoards.text(extra: body + "\n"))
            XCTAssertEqual(issues.count, 1, "\(body): \(issues)")
            XCTAssertEqual(issues.first?.keyPath, "display.session", "\(body): \(issues)")
            XCTAssertTrue(issues.first?.message.contains(message) ?? false, "\(body): \(issues)")
        }
    }

    func testBadDisplaySectionsAreOneErrorNamingFileAndKey() {
        let cases: [(String, String, String)] = [
            ("backlight = \"x\"", "display.idle_off_s", "missing required key"),
            ("idle_off_s = 30", "display.backlight", "needs backlight"),
            ("idle_off_s = -1\nbacklight = \"x\"", "display.idle_off_s", "0"),
            ("idle_off_s = 30\nbacklight = \"/sys/class/backlight/x\"", "display.backlight", "not a path"),
            (
                "idle_off_s = 30\nbacklight = \"x\"\non_command = [\"/bin/true\"]\noff_command = [\"/bin/true\"]",
                "display.backlight", "not both"
            ),
            ("idle_off_s = 30\non_command = [\"/bin/true\"]", "display.off_command", "go together"),
            (
                "idle_off_s = 30\non_command = [\"wlopm\", \"--on\"]\noff_command = [\"/bin/true\"]",
                "display.on_command", "absolute path"
            ),
            ("idle_off_s = 30\nidle_dim_s = 10\nbacklight = \"x\"", "display.dim_brightness", "missing"),
            ("idle_off_s = 30\nidle_dim_s = 30\ndim_brightness = 10\nbacklight = \"x\"", "display.idle_dim_s", "less"),
            ("idle_off_s = 30\ndim_brightness = 10\nbacklight = \"x\"", "display.dim_brightness", "idle_dim_s"),
            ("idle_off_s = 30\nidle_dim_s = 5\ndim_brightness = 0\nbacklight = \"x\"", "display.dim_brightness", "1"),
            (
                "idle_off_s = 30\nidle_dim_s = 5\ndim_brightness = 10\non_command = [\"/bin/true\"]\n"
                    + "off_command = [\"/bin/true\"]",
                "display.idle_dim_s", "needs backlight"
            ),
            ("idle_off_s = 30\nbacklight = \"x\"\nwake_guard_ms = 20000", "display.wake_guard_ms", "10000"),
            ("idle_off_s = 30\nbacklight = \"x\"\nidle = 5", "display.idle", "unknown key"),
        ]
        for (body, key, message) in cases {
            let issues = TestBoards.issues(TestBoards.text(extra: "[display]\n\(body)\n"))
            XCTAssertEqual(issues.count, 1, "\(body): \(issues)")
            XCTAssertEqual(issues.first?.keyPath, key, "\(body): \(issues)")
            XCTAssertTrue(issues.first?.description.contains("boards/x.toml") ?? false, "\(issues)")
            XCTAssertTrue(issues.first?.message.contains(message) ?? false, "\(body): \(issues)")
        }
    }

    func testTheDisplayLineIsNoOtherBindingsLine() {
        let binding = "[[binding]]\nrecognizer = \"tap\"\naction = \"pulse\"\ngpio = { chip = \"sim\", line = 5 }\n"
        let issues = TestBoards.issues(
            TestBoards.text(
                extra: binding + "[display]\nidle_off_s = 60\nbacklight = \"x\"\ngpio = { chip = \"sim\", line = 5 }\n")
        )
        XCTAssertEqual(issues.map(\.keyPath), ["display.gpio"], "\(issues)")
    }

    /// A passive evdev reader cannot hide the wake touch from the UI: said, not refused.
    func testPassiveEvdevGetsTheWakeTouchWarning() throws {
        let evdev = """
            [controller]
            chip = "evdev"
            device = "/dev/input/event0"

            """
        let display = "[display]\nidle_off_s = 60\nbacklight = \"x\"\n"
        let passive = try TestBoards.load(TestBoards.text(hardware: evdev, extra: display))
        let warning = try XCTUnwrap(DisplayDescription.wakeTouchWarning(passive))
        XCTAssertTrue(warning.contains("boards/x.toml") && warning.contains("grab"), warning)
        let grabbed = try TestBoards.load(TestBoards.text(hardware: evdev + "grab = true\n", extra: display))
        XCTAssertNil(DisplayDescription.wakeTouchWarning(grabbed))
        XCTAssertNil(DisplayDescription.wakeTouchWarning(try TestBoards.load(TestBoards.text(extra: display))))
    }
}
