import BoardConfig
import Foundation
import Synchronization
import TouchComposition
import TouchLinux
import TouchOutputs
import TouchService
import XCTest

/// Reloading a board leaves memory flat (docs/RELIABILITY.md, class 4). Every SIGHUP parses the
/// board again; TOMLKit 0.6.0, the parser before `TOMLParser`, leaked the whole parsed tree on
/// each parse (about 12 KB per load of a 60-line board, refused loads too), so a service that was
/// reloaded often grew without bound.
final class ReloadMemoryTests: XCTestCase {
    /// Drops every line: a sink that keeps nothing, so the soak measures the service, not the test.
    final class DiscardingSink: LineSink, @unchecked Sendable {
        func write(_ line: UnsafeRawBufferPointer) {}
    }

    private var demoText: String {
        get throws {
            try String(
                contentsOfFile: repositoryRoot.appendingPathComponent("boards/sim-demo.toml").path, encoding: .utf8)
        }
    }

    /// What a reload does before the swap, 500 times over, accepted and refused: the allocated
    /// heap stays within 1 MB (the old parser grew it by 20 KB a load, about 20 MB here; the bound
    /// leaves room for whatever other tests' threads still do in this process).
    func testFiveHundredBoardLoadsLeaveAllocatedBytesFlat() throws {
        let text = try demoText
        let refused = text.replacingOccurrences(of: "kind = \"tap\"", with: "kind = \"tapp\"")
        let directory = repositoryRoot.appendingPathComponent("boards").path
        func loadBoth() {
            do throws(BoardFileError) {
                let board = try BoardLoader.parse(text, file: "boards/sim-demo.toml", directory: directory)
                _ = try? EngineBuilder.build(board)
            } catch {
                XCTFail("the demo board is refused: \(error)")
            }
            do throws(BoardFileError) {
                _ = try BoardLoader.parse(refused, file: "boards/sim-demo.toml", directory: directory)
                XCTFail("the misspelt board was accepted")
            } catch {}
        }
        for _ in 0..<50 { loadBoth() }  // warm up: metadata, lazily built tables
        let before = RealTime.allocatedHeapBytes()
        for _ in 0..<500 { loadBoth() }
        let grown = RealTime.allocatedHeapBytes() - before
        XCTAssertLessThan(grown, 1 << 20, "500 loads and 500 refusals left \(grown) bytes allocated")
    }

    /// The reload soak (`tools/soak --reloads N`; `TOUCHWIRE_RELOAD_SOAK`, 100 in the suite): the
    /// supervisor of a running demo service reloads its board N times, every other reload a
    /// misspelt board that is refused, the accepted ones alternating two valid boards, each swapped
    /// in. From the end of the warm-up (a tenth of the run, at least 10 reloads) to the end, the
    /// allocated heap grows less than 512 KB and the resident set less than 4 MB, whatever N (the old
    /// parser leaked 20 KB a reload: 1.8 MB over the suite's 90 measured reloads).
    func testReloadSoakLeavesMemoryFlat() throws {
        let reloads =
            ProcessInfo.processInfo.environment["TOUCHWIRE_RELOAD_SOAK"].flatMap { Int($0) }.map { max($0, 20) } ?? 100
        let dir = try makeTemporaryDirectory(self)
        let file = dir.appendingPathComponent("board.toml")
        let text = try demoText
        let variants = [text, text.replacingOccurrences(of: "pulse_ms = 200", with: "pulse_ms = 150")]
        XCTAssertNotEqual(variants[0], variants[1], "the demo board no longer has pulse_ms = 200")
        let refused = text.replacingOccurrences(of: "kind = \"tap\"", with: "kind = \"tapp\"")
        try variants[0].write(to: file, atomically: true, encoding: .utf8)
        let supervisor = try ServiceSupervisor(
            board: try BoardLoader.load(path: file.path), boardPath: file.path, logger: quietLogger,
            make: { board, _ throws(ServiceError) in
                try Service(board: board, logger: quietLogger, stdout: DiscardingSink())
            })
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            _ = supervisor.run()
            finished.signal()
        }
        thread.start()
        let warmUp = max(10, reloads / 10)
        var baseline = (heap: 0, rss: 0)
        var accepted = 0
        var refusals = 0
        for n in 0..<reloads {
            if n % 2 == 1 {
                try refused.write(to: file, atomically: true, encoding: .utf8)
                guard case .refused = supervisor.reload() else { return XCTFail("reload \(n): a misspelt board") }
                refusals += 1
            } else {
                try variants[(n / 2) % 2].write(to: file, atomically: true, encoding: .utf8)
                guard case .accepted = supervisor.reload() else { return XCTFail("reload \(n): a valid board") }
                accepted += 1
                guard waitFor(30, { supervisor.reloads == accepted }) else {
                    return XCTFail("reload \(n) was not swapped in")
                }
            }
            if n + 1 == warmUp { baseline = (RealTime.allocatedHeapBytes(), RealTime.residentBytes()) }
        }
        let heap = RealTime.allocatedHeapBytes() - baseline.heap
        let rss = RealTime.residentBytes() - baseline.rss
        supervisor.stop()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "run() did not return after stop()")
        print(
            "reload soak: \(reloads) reloads (\(accepted) swapped in, \(refusals) refused), after \(warmUp): "
                + "heap \(heap >= 0 ? "+" : "")\(heap) bytes, rss \(rss >= 0 ? "+" : "")\(rss / 1024) kB")
        XCTAssertLessThan(heap, 512 * 1024, "the allocated heap grew by \(heap) bytes over \(reloads) reloads")
        XCTAssertLessThan(rss, 4 << 20, "the resident set grew by \(rss / 1024) kB over \(reloads) reloads")
    }
}
