import TouchCore
import TouchDrivers
import XCTest

/// "Never crash on any bytes": every decoder on pseudo-random images of every length.
final class FuzzTests: XCTestCase {
    func testDecodersNeverTrapAndNeverReportOffPanel() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        for length in 0..<64 {
            for _ in 0..<200 {
                let bytes = (0..<length).map { _ in next() }
                bytes.withUnsafeBytes { raw in
                    let f = FocalTechDecoder.decode(raw, at: .zero, maxPoints: 5, panelWidth: 800, panelHeight: 480)
                    let g = GT911Decoder.decode(raw, at: .zero, maxPoints: 5, panelWidth: 800, panelHeight: 480)
                    let c = CST816Decoder.decode(raw, at: .zero, panelWidth: 240, panelHeight: 240)
                    // ICN8318: random bytes almost never pass its soft-button and count checks, so
                    // half the images get a clear soft-button byte and a count of 0…5.
                    var icn = bytes
                    if icn.count > 1 && length % 2 == 0 {
                        icn[0] = 0
                        icn[1] %= 6
                    }
                    let n = icn.withUnsafeBytes {
                        ICN8318Decoder.decode($0, at: .zero, panelWidth: 800, panelHeight: 480)
                    }
                    for frame in [f.frame, g.frame, n.frame] {
                        XCTAssertLessThanOrEqual(frame.count, 5)
                        for contact in frame.contacts {
                            XCTAssertTrue(contact.position.x < 800 && contact.position.y < 480)
                        }
                    }
                    XCTAssertLessThanOrEqual(c.frame.count, 1)
                }
            }
        }
    }
}
