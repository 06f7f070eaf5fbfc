import BoardConfig
import XCTest

/// `[controller] chip = "evdev"`: device or name, grab, defaults.
final class EvdevKeyTests: XCTestCase {
    func controller(_ body: String) throws -> ControllerDescription? {
        try TestBoards.load(TestBoards.text(hardware: "[controller]\nchip = \"evdev\"\n" + body + "\n")).controller
    }

    func testDeviceOrNameAndPassiveByDefault() throws {
        let byPath = try XCTUnwrap(try controller("device = \"/dev/input/by-path/platform-ts-event\""))
        XCTAssertEqual(byPath.bus, .input(.path("/dev/input/by-path/platform-ts-event")))
        XCTAssertFalse(byPath.grab, "passive by default: the UI keeps every touch")
        XCTAssertEqual(byPath.releaseTimeoutMilliseconds, 0, "the kernel reports lifts: no watchdog by default")
        XCTAssertEqual(byPath.input, .evdev)
        XCTAssertEqual(byPath.input.maxContacts, 10)
        XCTAssertNil(byPath.chip, "an input device is no I2C chip")
        XCTAssertNil(byPath.address, "an input device has no I2C address")

        let byName = try XCTUnwrap(try controller("name = \"ft5x06\"\ngrab = true\nrotation = 90"))
        XCTAssertEqual(byName.bus, .input(.name("ft5x06")))
        XCTAssertTrue(byName.grab)
        XCTAssertEqual(byName.rotation, .degrees90)
    }

    func testErrorsNameTheKey() {
        func paths(_ body: String) -> [String] {
            TestBoards.issues(TestBoards.text(hardware: "[controller]\nchip = \"evdev\"\n" + body + "\n")).map(
                \.keyPath)
        }
        XCTAssertEqual(paths(""), ["controller.device"])
        XCTAssertEqual(paths("device = \"event3\""), ["controller.device"])
        XCTAssertEqual(paths("device = \"/dev/input/event3\"\nname = \"x\""), ["controller.device"])
        XCTAssertEqual(paths("bus = \"/dev/i2c-1\""), ["controller.bus"])
        XCTAssertEqual(paths("device = \"/dev/input/event3\"\ngrab = 1"), ["controller.grab"])
        let missing = TestBoards.issues(TestBoards.text(hardware: "[controller]\nchip = \"evdev\"\n"))
        XCTAssertTrue(missing.first?.message.contains("touchwire probe") ?? false, "\(missing)")
    }

    func testGrabIsNotAnI2CKey() {
        let issues = TestBoards.issues(TestBoards.text(hardware: TestBoards.hardware + "grab = true\n"))
        XCTAssertEqual(issues.map(\.keyPath), ["controller.grab"])
    }

    func testSimulatedEvdevBoard() throws {
        let text = TestBoards.text(
            hardware: "[controller]\nchip = \"evdev\"\nbus = \"sim\"\n", extra: "[simulation]\nscript = \"demo\"\n")
        XCTAssertEqual(try TestBoards.load(text).controller?.bus, .simulated)
    }
}

extension EvdevKeyTests {
    /// `[passthrough]` needs the device grabbed on a real evdev input (else the UI gets every touch
    /// twice); grabbed, or on the simulated evdev board (no UI reads it), it is accepted.
    func testPassthroughNeedsGrabOnAnEvdevInput() throws {
        let controller = "[controller]\nchip = \"evdev\"\ndevice = \"/dev/input/event3\"\n"
        let passive = TestBoards.issues(TestBoards.text(hardware: controller, extra: "[passthrough]\n"))
        XCTAssertEqual(passive.map(\.keyPath), ["passthrough"])
        XCTAssertTrue(passive.first?.message.contains("controller.grab = true") ?? false, "\(passive)")
        let grabbed = try TestBoards.load(
            TestBoards.text(hardware: controller + "grab = true\n", extra: "[passthrough]\n"))
        XCTAssertNotNil(grabbed.passthrough)
        let sim = TestBoards.text(
            hardware: "[controller]\nchip = \"evdev\"\nbus = \"sim\"\n",
            extra: "[simulation]\nscript = \"demo\"\n[passthrough]\n")
        XCTAssertNotNil(try TestBoards.load(sim).passthrough)
        XCTAssertNoThrow(try TestBoards.load(TestBoards.text(extra: "[passthrough]\n")), "I2C chips own the panel")
    }

    /// `[passthrough] held_ends`: "on_time" (the default) or "delivered"; anything else is one
    /// error naming the key and the choices.
    func testPassthroughHeldEnds() throws {
        XCTAssertEqual(try TestBoards.load(TestBoards.text(extra: "[passthrough]\n")).passthrough?.heldEnds, .onTime)
        let delivered = TestBoards.text(extra: "[passthrough]\nheld_ends = \"delivered\"\n")
        XCTAssertEqual(try TestBoards.load(delivered).passthrough?.heldEnds, .delivered)
        let bad = TestBoards.issues(TestBoards.text(extra: "[passthrough]\nheld_ends = \"late\"\n"))
        XCTAssertEqual(bad.map(\.keyPath), ["passthrough.held_ends"])
        XCTAssertEqual(bad.first?.message, "must be \"on_time\" or \"delivered\", got \"late\"")
    }
}
