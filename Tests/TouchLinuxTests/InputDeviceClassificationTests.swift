import CLinux
import Foundation
import TouchCore
import XCTest

@testable import TouchLinux

/// Which input devices are touchscreens, decided as udev's `input_id` builtin tags
/// `ID_INPUT_TOUCHSCREEN` (what libinput then reads as touch), on real panels' evemu
/// descriptions (`data/evemu/`, from whot/evemu-devices).
final class InputDeviceClassificationTests: XCTestCase {
    /// The capabilities an evemu description declares: `P:` properties, `B: 00/01/03` event
    /// types, keys and absolute axes (8 bytes per line, lines of one type concatenated).
    func capabilities(_ file: String) throws -> InputDeviceCapabilities {
        let root = repositoryRoot
        let text = try String(
            contentsOf: root.appendingPathComponent("data/evemu/\(file)"), encoding: .utf8)
        var name = ""
        var bits: [String: [UInt8]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let tag = fields.first else { continue }
            if tag == "N:" { name = String(line.dropFirst(3)) }
            if tag == "P:" { bits["P", default: []] += fields.dropFirst().compactMap { UInt8($0, radix: 16) } }
            if tag == "B:", fields.count > 2 {
                bits[String(fields[1]), default: []] += fields.dropFirst(2).compactMap { UInt8($0, radix: 16) }
            }
        }
        func test(_ key: String, _ bit: Int32) -> Bool {
            let b = bits[key] ?? []
            return Int(bit) / 8 < b.count && b[Int(bit) / 8] & (1 << UInt8(bit % 8)) != 0
        }
        return InputDeviceCapabilities(
            name: name, isDirect: test("P", INPUT_PROP_DIRECT), hasSlots: test("03", ABS_MT_SLOT),
            hasMultiTouchPosition: test("03", ABS_MT_POSITION_X) && test("03", ABS_MT_POSITION_Y),
            hasPosition: test("03", ABS_X) && test("03", ABS_Y), hasTouchButton: test("01", BTN_TOUCH),
            hasPen: test("01", BTN_TOOL_PEN) || test("01", BTN_STYLUS), hasFingerTool: test("01", BTN_TOOL_FINGER),
            hasMouseButton: test("01", BTN_LEFT), hasZ: test("03", ABS_Z), hasKeys: test("00", EV_KEY),
            isAccelerometer: test("P", INPUT_PROP_ACCELEROMETER), claimsEveryAxis: test("03", ABS_MT_SLOT - 1))
    }

    /// N-Trig (USB HID, protocol A, BTN_TOUCH, no INPUT_PROP_DIRECT): udev tags it a touchscreen
    /// (BTN_TOUCH is enough), so touchwire reads it — before, it was refused as having "no absolute X/Y axes".
    func testUSBPanelWithoutDirectPropertyIsATouchscreenOfProtocolA() throws {
        let caps = try capabilities("ntrig-multitouch.desc")
        XCTAssertFalse(caps.isDirect)
        XCTAssertNil(caps.refusal)
        XCTAssertTrue(caps.isTouchscreen)
        XCTAssertTrue(caps.isProtocolA)
    }

    /// Protocol B panels with INPUT_PROP_DIRECT (an EDT Polytouch on edt-ft5x06, a Wacom ISDv4
    /// touch sensor) are touchscreens, not protocol A.
    func testProtocolBPanelsAreTouchscreens() throws {
        for file in ["edt-ep0430m09.desc", "wacom-isdv4-e6-finger.desc"] {
            let caps = try capabilities(file)
            XCTAssertNil(caps.refusal, file)
            XCTAssertFalse(caps.isProtocolA, file)
        }
    }

    /// A pen (BTN_TOOL_PEN — the Wacom's pen node, and eGalax HID panels that map "in range" to
    /// BTN_TOOL_PEN beside their touch axes) is a tablet for udev and libinput: refused with that
    /// reason, never "no absolute X/Y axes", which it has.
    func testPenDeviceIsRefusedAsATabletWithTheTrueReason() throws {
        let wacomPen = try capabilities("wacom-isdv4-e6-pen.desc")
        let eGalaxLike = InputDeviceCapabilities(
            name: "eGalax Inc. USB TouchInputSource", isDirect: false, hasSlots: false, hasMultiTouchPosition: false,
            hasPosition: true, hasTouchButton: true, hasPen: true)
        for caps in [wacomPen, eGalaxLike] {
            let reason = try XCTUnwrap(caps.refusal, caps.name)
            XCTAssertTrue(reason.contains("pen (BTN_TOOL_PEN"), reason)
            XCTAssertTrue(reason.contains("ID_INPUT_TABLET"), reason)
            XCTAssertFalse(reason.contains("no absolute"), reason)
        }
        let error = InputDeviceError.notATouchscreen(
            path: "/dev/input/event4", name: eGalaxLike.name, reason: eGalaxLike.refusal ?? "")
        XCTAssertEqual(
            "\(error)",
            "input device /dev/input/event4 (\"eGalax Inc. USB TouchInputSource\") is not a touchscreen: it reports a "
                + "pen (BTN_TOOL_PEN or BTN_STYLUS): udev tags it a tablet (ID_INPUT_TABLET), and the UI reads it as "
                + "a pen, not as touches")
    }

    /// The other refusals each say what the device is.
    func testTouchpadMouseAndKeyboardAreRefusedForWhatTheyAre() {
        let touchpad = InputDeviceCapabilities(
            name: "pad", isDirect: false, hasSlots: true, hasMultiTouchPosition: true, hasPosition: true,
            hasTouchButton: true, hasFingerTool: true)
        XCTAssertTrue(touchpad.refusal?.contains("touchpad") ?? false)
        let vmTablet = InputDeviceCapabilities(
            name: "QEMU USB Tablet", isDirect: false, hasSlots: false, hasMultiTouchPosition: false,
            hasPosition: true, hasTouchButton: false, hasMouseButton: true)
        XCTAssertTrue(vmTablet.refusal?.contains("absolute mouse") ?? false)
        let keyboard = InputDeviceCapabilities(
            name: "kbd", isDirect: false, hasSlots: false, hasMultiTouchPosition: false, hasPosition: false,
            hasTouchButton: false)
        XCTAssertTrue(keyboard.refusal?.contains("no absolute X/Y axes") ?? false)
        let direct = InputDeviceCapabilities(
            name: "direct", isDirect: true, hasSlots: false, hasMultiTouchPosition: false, hasPosition: true,
            hasTouchButton: false)
        XCTAssertTrue(direct.refusal?.contains("no BTN_TOUCH") ?? false, "udev's touchscreen, but unreadable")
    }
}
