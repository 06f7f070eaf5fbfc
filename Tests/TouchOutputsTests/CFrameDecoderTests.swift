import Foundation
import Gestures
import TouchCore
import TouchOutputs
import XCTest

/// `tools/mcu/touchwire_frame.h`, compiled with the system's C compiler, decodes what the Swift
/// encoder wrote — through line noise, a truncated frame and a corrupted one.
final class CFrameDecoderTests: XCTestCase {
    func testCDecoderDecodesFramesTheSwiftEncoderWrote() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tw-c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("decode").path
        guard let cc = findTool("cc") else {
            throw XCTSkip("no C compiler (cc) on this machine; the MCU header was not tested")
        }
        let compile = try runProcess(
            cc,
            [
                "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", repositoryRoot.path + "/tools/mcu", "-o",
                binary, repositoryRoot.path + "/tools/mcu/touchwire_frame_test.c",
            ])
        XCTAssertEqual(compile.status, 0, "cc failed:\n\(compile.output)\(compile.stderr)")
        guard compile.status == 0 else { return }

        let encoder = BinaryFrameEncoder(names: frameNames)
        var swipe = GestureEvent(
            time: Instant(microseconds: 5_000_000_123), recognizer: 4, kind: .swipe, state: .recognized, region: 0,
            location: Point(x: 10, y: 20.5), touches: 1)
        swipe.direction = .left
        var pinch = GestureEvent(
            time: Instant(microseconds: 900_000), recognizer: 5, kind: .pinch, state: .ended, region: 1,
            location: Point(x: 300, y: 200), touches: 2)
        pinch.value = 1.25
        pinch.scalarVelocity = -0.5
        let control = GestureEvent(
            time: Instant(microseconds: 950_000), recognizer: 2, kind: .control, state: .recognized, region: 2,
            location: Point(x: 40, y: 410), touches: 1)
        let events = [doubleTapEvent(), panEvent(.began), panEvent(), swipe, pinch, control]
        var stream: [UInt8] = [0x00, 0xA5, 0x13]  // noise, including a lone sync byte
        var frames: [[UInt8]] = []
        for (i, e) in events.enumerated() { frames.append(encoder.frame(for: e, sequence: UInt16(i))) }
        stream += frames[0] + frames[1]
        stream += frames[2].prefix(9)  // truncated: the peer was reset mid-frame
        stream += frames[2]
        var corrupt = frames[3]
        corrupt[20] ^= 0x40
        stream += corrupt  // fails its CRC and is skipped
        stream += frames[3] + frames[4] + frames[5]
        let input = dir.appendingPathComponent("frames.bin")
        try Data(stream).write(to: input)

        let run = try runProcess(binary, [input.path])
        XCTAssertEqual(run.status, 0, run.output + run.stderr)
        XCTAssertEqual(
            run.output.split(separator: "\n").map(String.init),
            [
                "seq=0 t=130000 name=double-tap rec=1 region=0 kind=0 state=6 "
                    + "touches=1 taps=2 dir=0 x=40150 y=23300 tx=0 ty=0 vx=0 vy=0 value=0 vv=0",
                "seq=1 t=250000 name=pan rec=3 region=1 kind=2 state=1 touches=1 taps=0 "
                    + "dir=0 x=42025 y=24000 tx=2025 ty=-350 vx=81250 vy=-14000 value=0 vv=0",
                "seq=2 t=250000 name=pan rec=3 region=1 kind=2 state=2 touches=1 taps=0 "
                    + "dir=0 x=42025 y=24000 tx=2025 ty=-350 vx=81250 vy=-14000 value=0 vv=0",
                // 5 000 000 123 µs modulo 2^32
                "seq=3 t=705032827 name=swipe rec=4 region=0 kind=3 state=6 "
                    + "touches=1 taps=0 dir=2 x=1000 y=2050 tx=0 ty=0 vx=0 vy=0 value=0 vv=0",
                "seq=4 t=900000 name=pinch rec=5 region=1 kind=4 state=3 touches=2 "
                    + "taps=0 dir=0 x=30000 y=20000 tx=0 ty=0 vx=0 vy=0 value=12500 vv=-5000",
                "seq=5 t=950000 name=button rec=2 region=2 kind=7 state=6 touches=1 "
                    + "taps=0 dir=0 x=4000 y=41000 tx=0 ty=0 vx=0 vy=0 value=0 vv=0",
                "frames=6 crc_errors=2 bad_version=0",
            ])
    }
}
