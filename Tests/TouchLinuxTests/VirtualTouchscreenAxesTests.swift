import CLinux
import XCTest

@testable import TouchLinux

/// The virtual touchscreen of `[passthrough]`: the axes it declares (no /dev/uinput needed).
final class VirtualTouchscreenAxesTests: XCTestCase {
    /// The passthrough touchscreen's X/Y axes carry the panel's resolution (units per mm) from
    /// the board's `width_mm`/`height_mm` — libinput reports millimetres from it — and it declares
    /// ABS_MT_TOOL_TYPE up to MT_TOOL_PALM, so a cancelled touch can reach the UI as a cancel.
    func testVirtualTouchscreenAxesHaveThePanelsResolutionAndAPalmTool() {
        let axes = UInputDevice.touchscreenAxes(
            width: 800, height: 480, slots: 5, widthMillimetres: 154.08, heightMillimetres: 85.92)
        func axis(_ code: Int32) -> UInputDevice.Axis? { axes.first { $0.code == UInt16(code) } }
        XCTAssertEqual(axis(ABS_MT_POSITION_X)?.resolution, 5)  // 800 px / 154.08 mm = 5.19
        XCTAssertEqual(axis(ABS_MT_POSITION_Y)?.resolution, 6)  // 480 px / 85.92 mm = 5.59
        XCTAssertEqual(axis(ABS_X)?.resolution, 5)
        XCTAssertEqual(axis(ABS_Y)?.resolution, 6)
        XCTAssertEqual(axis(ABS_MT_POSITION_X)?.maximum, 799)
        XCTAssertEqual(axis(ABS_MT_SLOT)?.maximum, 4)
        XCTAssertEqual(axis(ABS_MT_TOOL_TYPE)?.maximum, Int32(MT_TOOL_PALM))
        let unsized = UInputDevice.touchscreenAxes(width: 800, height: 480, slots: 5)
        XCTAssertEqual(unsized.first { $0.code == UInt16(ABS_MT_POSITION_X) }?.resolution, 0, "no size, no resolution")
    }
}
