import BoardConfig
import Foundation
import Logging
import Synchronization
/// The clock tests move by hand is TouchCore's `ManualClock`: TouchCore is re-exported so a test
/// file need not import it.
@_exported import TouchCore
import XCTest

/// The repository root, found from this file's path.
package let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A temporary directory removed when the test ends.
package func makeTemporaryDirectory(_ test: XCTestCase) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchwire-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
}

/// A logger that drops everything (tests assert on behaviour, not log lines).
package let quietLogger: Logger = {
    var l = Logger(label: "touchwire-tests", factory: { _ in SwiftLogNoOpLogHandler() })
    l.logLevel = .critical
    return l
}()

/// A trace with one tap at (400, 240): down at 100 ms, lifted at 150 ms.
package let tapTrace = """
    {"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"test"}
    {"t_us":100000,"contacts":[{"id":0,"x":400,"y":240}]}
    {"t_us":120000,"contacts":[{"id":0,"x":401,"y":240}]}
    {"t_us":150000,"contacts":[]}

    """

/// The text of a simulated FT6x36 board playing `script`, with one "screen" region, a
/// recognizer per name (its kind is the name: "tap" or "pan"), and `extra` (outputs,
/// bindings) appended.
package func simulatedBoardText(script: String, recognizers: [String], extra: String = "") -> String {
    var text = """
        [panel]
        width = 800
        height = 480

        [controller]
        chip = "ft6x36"
        bus = "sim"

        [simulation]
        script = "\(script)"
        report_rate_hz = 100

        [[region]]
        name = "screen"
        frame = [0, 0, 800, 480]

        """
    for name in recognizers {
        text += """

            [[recognizer]]
            name = "\(name)"
            kind = "\(name)"
            region = "screen"

            """
    }
    return text + "\n" + extra + "\n"
}

/// A simulated board playing `script` (a file name in `directory`) with one single-tap recognizer.
package func tapBoard(script: String, directory: URL) throws -> BoardDescription {
    do throws(BoardFileError) {
        return try BoardLoader.parse(
            simulatedBoardText(script: script, recognizers: ["tap"]), file: "test.toml", directory: directory.path)
    } catch {
        throw error
    }
}

/// The sd_notify(3) messages a supervised service sent, as a test's `notify` closure collects them.
package final class NotifyMessages: Sendable {
    private let list = Mutex<[String]>([])
    package init() {}
    package func append(_ message: String) { list.withLock { $0.append(message) } }
    /// How many messages contain `text` (e.g. "READY=1").
    package func count(_ text: String) -> Int { list.withLock { $0.filter { $0.contains(text) }.count } }
}

/// Polls `condition` every 10 ms for up to `seconds` of wall time; false when it never held.
package func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(10_000)
    }
    return true
}
