import BoardConfig
import Foundation
import TouchCore
import TouchLinux
import XCTest

/// Kiosk setups that must not start (issue 14's bad-input list), each with one clear error that
/// names what and where, checked where no kernel device is needed; the kernel VM
/// (`tools/vm/tests.sh`) covers the same cases on real /dev/input and /dev/uinput nodes.
extension CommandLineTests {
    /// `[passthrough]` on a passive evdev input: the UI would get every touch twice (once from the
    /// kernel's device, once from touchwire's virtual one). validate and run refuse it, naming both keys.
    func testPassthroughOnAPassiveEvdevInputIsRefused() throws {
        let dir = try makeTemporaryDirectory(self)
        let board = dir.appendingPathComponent("k.toml").path
        try (TestBoardText.evdev(device: "/dev/input/event0") + "\n[passthrough]\nname = \"ui\"\n")
            .write(toFile: board, atomically: true, encoding: .utf8)
        for command in [["validate", board], ["run", "--board", board]] {
            let result = try run(command)
            XCTAssertNotEqual(result.status, 0, "\(command)")
            XCTAssertEqual(result.stdout, "")
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, result.stderr)
            let line = String(lines.first ?? "")
            XCTAssertTrue(line.contains("k.toml"), line)
            XCTAssertTrue(line.contains("[passthrough]") && line.contains("controller.grab = true"), line)
            XCTAssertTrue(line.contains("every touch twice"), line)
        }
        // With grab = true the same board passes validate.
        try
            (TestBoardText.evdev(device: "/dev/input/event0").replacingOccurrences(
                of: "device = ", with: "grab = true\ndevice = ") + "\n[passthrough]\nname = \"ui\"\n")
            .write(toFile: board, atomically: true, encoding: .utf8)
        let grabbed = try run(["validate", board])
        XCTAssertEqual(grabbed.status, 0, grabbed.stderr)
    }

    /// A key binding without /dev/uinput: one line naming the board, the binding and the fix; no event runs.
    func testKeyBindingWithoutUInputDoesNotStart() throws {
        guard !FileManager.default.fileExists(atPath: "/dev/uinput") else {
            throw XCTSkip("/dev/uinput exists here; the VM tests cover the device")
        }
        let dir = try makeTemporaryDirectory(self)
        let board = dir.appendingPathComponent("k.toml").path
        let binding = "[[binding]]\nrecognizer = \"tap\"\naction = \"key\"\nkeys = [\"KEY_F5\"]\n"
        try simulatedBoardText(script: "demo", recognizers: ["tap"], extra: binding)
            .write(toFile: board, atomically: true, encoding: .utf8)
        let result = try run(["run", "--board", board])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "", "nothing ran")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("uinput") }
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(
            lines.first?.contains("k.toml: key binding: /dev/uinput does not exist (load the uinput module") ?? false,
            result.stderr)
    }
}

final class KioskErrorTextTests: XCTestCase {
    /// Permission problems say which group to join, for the input device and for /dev/uinput:
    /// uinput belongs to touchwire's own group, never to a login user's group such as input.
    func testPermissionDeniedNamesGroupInput() {
        let input = "\(InputDeviceError.permissionDenied(path: "/dev/input/event3"))"
        XCTAssertTrue(input.hasPrefix("permission denied opening /dev/input/event3"), input)
        XCTAssertTrue(input.contains("group input"), input)
        let uinput = "\(UInputError.permissionDenied(path: "/dev/uinput"))"
        XCTAssertTrue(uinput.contains("/dev/uinput") && uinput.contains("GROUP=\"touchwire-uinput\""), uinput)
        XCTAssertFalse(uinput.contains("GROUP=\"input\""), uinput)
    }

    /// A uinput node that is missing: `.missing` naming the node, nothing created.
    func testMissingUInputNodeIsMissing() {
        func error(_ make: () throws(UInputError) -> UInputDevice) -> UInputError? {
            do throws(UInputError) {
                _ = try make()
                return nil
            } catch {
                return error
            }
        }
        let path = "/nonexistent/uinput"
        XCTAssertEqual(
            error { () throws(UInputError) in
                try UInputDevice.touchscreen(name: "ui", width: 800, height: 480, slots: 5, path: path)
            }, .missing(path: path))
        let keyboard = error { () throws(UInputError) in try UInputDevice.keyboard(name: "kb", keys: [63], path: path) }
        XCTAssertEqual(
            keyboard.map { "\($0)" }, "\(path) does not exist (load the uinput module: sudo modprobe uinput)")
    }
}
