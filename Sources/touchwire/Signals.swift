import Dispatch
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The signals whose default action would end the process: each is caught and handled like
/// SIGTERM (stop, cancel touches in progress, drive every GPIO line inactive, remove the status
/// file), so no signal a user or init system can send leaves a line held or a stale status file.
///
/// Not here: SIGKILL and SIGSTOP (cannot be caught); SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
/// SIGTRAP, SIGSYS (faults: the process state cannot be trusted any more); SIGPIPE (ignored: a
/// closed stdout is handled by the stdout sink); SIGUSR1 (prints the status block).
enum TerminatingSignals {
    /// Caught and handled as SIGTERM.
    static let stopping: [(number: Int32, name: String)] =
        [
            (SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGQUIT, "SIGQUIT"), (SIGUSR2, "SIGUSR2"), (SIGALRM, "SIGALRM"),
            (SIGVTALRM, "SIGVTALRM"), (SIGPROF, "SIGPROF"), (SIGXCPU, "SIGXCPU"), (SIGXFSZ, "SIGXFSZ"),
            (SIGIO, "SIGIO"), (SIGPWR, "SIGPWR"), (SIGSTKFLT, "SIGSTKFLT"),
        ] + hangUp

    /// SIGHUP: handled as SIGTERM here, and only here, until `run` gives it its systemd meaning
    /// (reload the board file). A command that gives SIGHUP a meaning of its own drops it from this list.
    static let hangUp: [(number: Int32, name: String)] = [(SIGHUP, "SIGHUP")]

    /// Ignores the default action of every stopping signal (and SIGPIPE) and calls `stop` with
    /// the signal's name, on a dispatch queue, when one arrives. Keep the returned sources alive
    /// while the command runs; cancel them afterwards.
    static func install(except: Set<Int32> = [], _ stop: @escaping @Sendable (String) -> Void)
        -> [any DispatchSourceSignal]
    {
        signal(SIGPIPE, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in stopping where !except.contains(number) {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop(name) }
            source.resume()
            sources.append(source)
        }
        return sources
    }
}
