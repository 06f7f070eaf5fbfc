/// What the service asks of the operating system beyond its seams for input, outputs and time:
/// threads, its own resource figures, and the status files it publishes. The composition root
/// hands in the real one (TouchComposition's `LinuxServiceHost`, over `TouchLinux`), so the
/// pipeline module makes no system call of its own.
package protocol ServiceHost: Sendable {
    /// Starts a named thread running `body`; the error says why none started.
    func startThread(name: String, _ body: @escaping @Sendable () -> Void) throws(ServiceHostError)
    /// CPU time used by the process so far, in µs.
    func processCPUMicroseconds() -> Int64
    /// CPU time used by the calling thread so far, in µs.
    func currentThreadCPUMicroseconds() -> Int64
    /// The process's resident memory, in bytes.
    func residentBytes() -> Int
    /// Gives back the pages of start-up code the process no longer runs; returns the bytes released.
    func releaseStartupPages() -> Int
    /// Replaces `path` with `bytes` atomically (temporary file and rename, never through a
    /// symlink), with file mode `mode`. Remembers the file it created, for `removeCreatedFile`.
    func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32) throws(ServiceHostError)
    /// Removes `path` only if it is still the regular file the last `writeAtomically` to it
    /// created (never a directory, a device, or a file another process has put there since).
    func removeCreatedFile(_ path: String)
}

/// A system call of `ServiceHost` failed: what and why, as the host words it.
package struct ServiceHostError: Error, CustomStringConvertible, Equatable, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The pipeline threads that real-time settings apply to.
package enum PipelineThread: String, Sendable, CaseIterable {
    case driver, recognizer, output
}

/// One line of the real-time report logged at start.
package struct RealTimeMessage: Sendable, Equatable {
    package var text: String
    package var isWarning: Bool
    package init(text: String, isWarning: Bool) {
        self.text = text
        self.isWarning = isWarning
    }
}

/// The `[display]` screen switch as the output stage drives it: TouchComposition's
/// `DisplaySwitch` (sysfs backlight, commands, a GPIO line) on its own thread.
package protocol ScreenSwitch: AnyObject, Sendable {
    /// Asks for `state`; applied on the switch's own thread. Never blocks.
    func request(_ state: DisplayState)
    /// Starts the switch's thread (`Service.run()` does, before its own threads).
    func start()
    /// Stops it, leaving the screen on.
    func stop()
    /// Gives back what it holds (its GPIO line). Idempotent.
    func close()
}
