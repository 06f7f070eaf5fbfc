import Logging

/// A swift-log `Logger` whose messages (at `notice` and above) go to a closure, one string each:
/// for commands that run the pipeline on their own thread and show its log lines their way
/// (`calibrate` prints them on stderr, `monitor` under its figures).
package enum ForwardingLogger {
    /// `forward` is called on the logging thread. Only the command's thread may log through it:
    /// the service's own threads never run under these commands.
    package static func make(label: String, _ forward: @escaping (String) -> Void) -> Logger {
        let box = Box(forward)
        return Logger(label: label) { _ in Handler(box: box) }
    }

    /// @unchecked Sendable: only the command's thread logs (see `make`).
    private final class Box: @unchecked Sendable {
        let forward: (String) -> Void
        init(_ forward: @escaping (String) -> Void) { self.forward = forward }
    }

    private struct Handler: LogHandler {
        let box: Box
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .notice
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { box.forward("\(event.message)") }
    }
}
