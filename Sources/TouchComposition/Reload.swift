import BoardConfig
import FoundationEssentials
import Logging
import Synchronization
import TouchCore
import TouchLinux
import TouchService

/// `touchwire run` as a supervised service: runs a `Service`, tells the service manager when it
/// is ready, feeds its watchdog while the pipeline advances, and swaps boards on SIGHUP.
///
/// - **READY**: `READY=1` is sent once the controller answers (the outputs were opened by the
///   `Service` initializer, so a started service has them), and again after each reload.
/// - **Watchdog**: with `watchdogMicroseconds` (`$WATCHDOG_USEC`), `WATCHDOG=1` is sent every
///   `WatchdogFeeder.checkInterval` while `ServiceHealth.recognizerTicks` advances, never
///   otherwise: a stuck recognizer loop is killed by systemd and restarted (`Restart=`).
/// - **Reload** (`reload()`): the board file is read and checked again (`BoardLoader`,
///   `EngineBuilder`). A board with errors is refused: each problem is logged with file and key
///   and the running service is not touched. A valid board is swapped in at a frame boundary:
///   the running pipeline stops after its current frame, touches still down are cancelled (every
///   gesture ends), every GPIO line goes inactive and is released, the outputs are flushed; then
///   the old service is closed (`Service.close()`: its socket listener and file, UART ports, GPIO
///   lines, controller INT/reset lines, evdev grab and uinput devices are given back), and only
///   then does a new `Service` open the new board's controller (re-initialising the driver),
///   outputs and lines — so a board that keeps the same socket path, line or device can take it
///   over. Should the new board fail to open (a line busy, a device missing), the refusal is
///   logged (and shown in STATUS=) and the previous board is opened again; if even that fails,
///   `run()` returns false (the service exits; systemd restarts it). Either way no half-opened
///   service is left: a failed `make` has released what it had opened.
package final class ServiceSupervisor: @unchecked Sendable {
    // @unchecked Sendable: mutable state is behind `state`; `notify` is a Sendable closure.

    /// Builds (and opens) a service for a board, given how many boards were swapped in before it
    /// (for `ServiceSettings.reloads`); `touchwire run` passes `Service.init` plus its command-line
    /// settings, tests pass simulated GPIO and an injected clock.
    package typealias Factory = (BoardDescription, _ reloads: Int) throws(ServiceError) -> Service

    package let boardPath: String
    package let logger: Logger
    /// `$WATCHDOG_USEC` (nil: no watchdog).
    package let watchdogMicroseconds: Int64?
    private let make: Factory
    private let notify: @Sendable (String) -> Void
    private let clock: any TouchClock
    private let wake = Wakeup()

    private struct State {
        var service: Service
        /// The board `service` was built from.
        var board: BoardDescription
        var pending: BoardDescription?
        var stopping = false
        var reloads = 0
    }
    private let state: Mutex<State>

    /// Opens the first service for `board` (loaded from `boardPath`). `notify` sends one
    /// sd_notify message (no-op outside systemd).
    package init(
        board: BoardDescription, boardPath: String, logger: Logger, watchdogMicroseconds: Int64? = nil,
        notify: @escaping @Sendable (String) -> Void = { _ in },
        clock: any TouchClock = SystemClock.shared,
        make: @escaping Factory
    ) throws(ServiceError) {
        self.boardPath = boardPath
        self.logger = logger
        self.watchdogMicroseconds = watchdogMicroseconds
        self.make = make
        self.notify = notify
        self.clock = clock
        state = Mutex(State(service: try make(board, 0), board: board))
    }

    /// The service running now (changes on a successful reload).
    package var current: Service { state.withLock { $0.service } }

    /// Boards swapped in so far.
    package var reloads: Int { state.withLock { $0.reloads } }

    /// Watchdog checks made so far (each either sent `WATCHDOG=1` or logged that it did not).
    package var watchdogChecks: Int { checks.load(ordering: .relaxed) }
    private let checks = Atomic<Int>(0)

    /// The outcome of `reload()`.
    package enum ReloadOutcome: Equatable, Sendable {
        /// The board is valid; the swap happens at the next frame boundary.
        case accepted(board: String)
        /// The board has errors (each logged); nothing changed.
        case refused([String])
    }

    /// Re-reads `boardPath` (SIGHUP). See the type's documentation.
    @discardableResult
    package func reload() -> ReloadOutcome {
        logger.notice("reload: reading \(boardPath)")
        let board: BoardDescription
        do throws(BoardFileError) {
            board = try BoardLoader.load(path: boardPath)
        } catch {
            let problems = error.issues.map(\.description)
            for p in problems { logger.error("reload refused: \(p)") }
            return refuse(problems)
        }
        do throws(ServiceError) {
            _ = try EngineBuilder.build(board)
        } catch {
            logger.error("reload refused: \(error)")
            return refuse(["\(error)"])
        }
        notify("RELOADING=1\nSTATUS=reloading \(boardPath)")
        let running = state.withLock { s in
            s.pending = board
            return s.service
        }
        running.stop()
        wake.signal()
        return .accepted(board: board.name)
    }

    /// Logs the summary of a refused reload and shows it in `systemctl status` (STATUS=).
    private func refuse(_ problems: [String]) -> ReloadOutcome {
        let summary = "reload refused: \(problems.count) problem(s) in \(boardPath); the running board is unchanged"
        logger.error("\(summary)")
        notify("STATUS=\(summary)")
        return .refused(problems)
    }

    /// Stops the running service; `run()` returns once it has finished (SIGINT, SIGTERM).
    package func stop() {
        let running = state.withLock { s in
            s.stopping = true
            return s.service
        }
        running.stop()
        wake.signal()
    }

    /// Runs services until `stop()`: the first, then one per accepted reload. Returns false if
    /// neither a reloaded board nor the previous one could be opened again (the error is logged).
    package func run() -> Bool {
        while true {
            let service = current
            let watcher = startWatcher(for: service)
            service.run()
            watcher.finish()
            let (stopping, pending) = state.withLock { s in
                let p = s.pending
                s.pending = nil
                return (s.stopping, p)
            }
            if stopping {
                service.close()
                return true
            }
            guard let pending else { continue }  // stopped without a reason (cannot happen): run on
            // The old board's devices go first: the new board may name the same socket, lines, UART or device.
            service.close()
            if !swap(to: pending, from: state.withLock { $0.board }) { return false }
        }
    }

    /// Opens `board` (the previous service is closed); on failure reopens `previous`.
    private func swap(to board: BoardDescription, from previous: BoardDescription) -> Bool {
        let count = state.withLock { $0.reloads } + 1
        do throws(ServiceError) {
            let next = try make(board, count)
            state.withLock { s in
                s.service = next
                s.board = board
                s.reloads = count
            }
            let recognizers = next.engine.recognizers.count
            logger.notice("reloaded \(boardPath): board \(board.name), \(recognizers) recognizers (reload \(count))")
            return true
        } catch {
            let summary =
                "reload refused: \(boardPath) could not be started (\(error)); starting the previous board again"
            logger.error("\(summary)")
            notify("STATUS=\(summary)")
        }
        do throws(ServiceError) {
            let again = try make(previous, count - 1)
            state.withLock { $0.service = again }
            return true
        } catch {
            logger.critical("reload: the previous board could not be started again either (\(error)); exiting")
            return false
        }
    }

    /// A thread that, while `service` runs, sends READY=1 once its controller answers, feeds the
    /// watchdog while its recognizer advances, and re-sends `stop()` for a stop or reload that
    /// arrived before the service had started (so neither is ever lost).
    private func startWatcher(for service: Service) -> Watcher {
        let watcher = Watcher()
        let body: @Sendable () -> Void = { [self] in
            var readySent = false
            var feeder = WatchdogFeeder()
            let interval = watchdogMicroseconds.map(WatchdogFeeder.checkInterval(forWatchdogMicroseconds:))
            var nextCheck = clock.now
            while !watcher.isFinished {
                if !readySent && service.health.controllerAnswering {
                    readySent = true
                    notify("READY=1\nSTATUS=board \(service.profile.boardName): running")
                    logger.info("ready: controller answering, outputs open")
                }
                let now = clock.now
                if let interval, now >= nextCheck {
                    nextCheck = now.advanced(byMicroseconds: interval)
                    defer { checks.add(1, ordering: .relaxed) }
                    if feeder.shouldFeed(ticks: service.health.recognizerTicks.load(ordering: .relaxed)) {
                        notify("WATCHDOG=1")
                    } else {
                        logger.warning("watchdog: the recognizer loop has not advanced; not feeding the watchdog")
                    }
                }
                let stopAsked = state.withLock { $0.stopping || $0.pending != nil }
                if stopAsked { service.stop() }
                // Stops and reloads signal `wake`. Until READY (and while a stop is being re-sent)
                // look every 100 ms; after that only the watchdog's next check, at most a second
                // away: an idle service's supervisor wakes once a second, not ten times.
                var wait: Int64 = 1_000_000
                if !readySent || stopAsked { wait = 100_000 }
                if interval != nil { wait = min(wait, max(1, nextCheck.microseconds(since: clock.now))) }
                wake.wait(microseconds: wait)
            }
            watcher.done.signal()
        }
        do { try NamedThread.start(name: "touchwire-supervisor", body) } catch {
            logger.critical("reload: no supervisor thread (\(error)): READY, the watchdog and reloads are not served")
            watcher.done.signal()
        }
        return watcher
    }

    private final class Watcher: Sendable {
        let finished = Atomic<Bool>(false)
        let done = Wakeup()
        var isFinished: Bool { finished.load(ordering: .relaxed) }
        func finish() {
            finished.store(true, ordering: .relaxed)
            done.wait(microseconds: nil)
        }
    }
}
