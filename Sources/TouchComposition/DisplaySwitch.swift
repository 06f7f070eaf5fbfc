import BoardConfig
import Dispatch
import Synchronization
import SystemPackage
import TouchCore
import TouchLinux
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Switches the screen as the display's transitions ask, on its own ordinary thread: sysfs
/// writes (a DSI panel's driver may talk I2C to the display's MCU) and programs never run on the
/// real-time threads, which only `request` a state (an atomic store and a semaphore signal).
///
/// - `backlight`: off writes `bl_power` 4; dimmed writes `brightness` = `dim_brightness` % of
///   `max_brightness` (never brighter than it was); on writes back the brightness found before
///   dimming or blanking (read again each time the screen leaves `on`, so a brightness set by
///   the user meanwhile is kept), then `bl_power` 0.
/// - commands: `off_command` / `on_command` through a `CommandSpawner` (as exec bindings run);
///   with `session = true` (`.agent`) nothing here: `touchwire agent` runs them (`DisplayAgent`).
/// - `gpio`: active while the display is on or dimmed.
///
/// `stop()` leaves the screen on (its brightness restored): a service that stops never leaves a
/// kiosk dark.
package final class DisplaySwitch: ScreenSwitch, @unchecked Sendable {
    // @unchecked Sendable: `desired` is atomic; everything else belongs to the switch thread
    // (or to the caller of `applyPending` while the thread is not running).
    package enum Output {
        case backlight(Backlight, dimPercent: Int?)
        /// Program 0 is `off_command`, 1 `on_command` (a `CommandSpawner`; the recording twin in tests).
        case commands(any CommandRunner)
        /// `[display] session = true`: `touchwire agent` runs the commands in the user's session
        /// (from the `display` event lines); the service switches only the GPIO line.
        case agent
    }

    package let output: Output
    private var line: (any GPIOOutput)?
    private let log: @Sendable (String) -> Void
    private let desired = Atomic<UInt8>(DisplayState.on.rawValue)
    private let running = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// The state last applied (the switch thread's).
    package private(set) var applied: DisplayState = .on
    /// The brightness to restore on wake.
    package private(set) var restoreBrightness: Int
    /// Writes or spawns that failed (logged).
    package private(set) var failures = 0

    package init(output: Output, line: (any GPIOOutput)? = nil, log: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.line = line
        self.log = log
        restoreBrightness = 0
        if case .backlight(let b, _) = output {
            let found = (try? b.brightness()) ?? b.maxBrightness
            restoreBrightness = found > 0 ? found : b.maxBrightness
        }
    }

    /// Asks for `state`; applied by the switch thread (or the next `applyPending`). Never blocks.
    package func request(_ state: DisplayState) {
        desired.store(state.rawValue, ordering: .releasing)
        wake.signal()
    }

    /// Applies the latest requested state if it is not applied yet. On the switch thread, or by a
    /// test while the thread is not running.
    package func applyPending() {
        let want = DisplayState(rawValue: desired.load(ordering: .acquiring)) ?? .on
        guard want != applied else { return }
        apply(want)
    }

    private func apply(_ state: DisplayState) {
        do throws(BacklightError) {
            switch output {
            case .backlight(let b, let dim):
                if applied == .on, let now = try? b.brightness(), now > 0 { restoreBrightness = now }
                switch state {
                case .off:
                    try b.setPower(on: false)
                case .dimmed:
                    let level = max(1, b.maxBrightness * (dim ?? 100) / 100)
                    try b.setBrightness(min(level, restoreBrightness))
                    try b.setPower(on: true)
                case .on:
                    try b.setBrightness(restoreBrightness)
                    try b.setPower(on: true)
                }
            case .commands(let runner):
                if state != .dimmed { runner.request(state == .off ? 0 : 1) }
            case .agent:
                break
            }
        } catch {
            failures += 1
            log("display: cannot switch \(state): \(error)")
        }
        do throws(GPIOError) { try line?.setActive(state != .off) } catch {
            log("display: gpio \(line.map { "\($0.id)" } ?? ""): \(error)")
        }
        applied = state
    }

    /// Starts the switch thread (and the command spawner).
    package func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if case .commands(let s) = output { s.start() }
        do {
            try NamedThread.start(name: "touchwire-display") { [self] in
                while running.load(ordering: .acquiring) {
                    _ = wake.wait(timeout: .now() + .seconds(1))
                    applyPending()
                }
                finished.signal()
            }
        } catch {
            running.store(false, ordering: .releasing)
            log("display: no switch thread (\(error)): the screen will not be switched")
        }
    }

    /// Stops the thread and switches the screen on (with commands, `on_command` runs once more
    /// through the runner's `runToEnd` and is waited for, up to its timeout: the spawner is
    /// stopping and would kill it).
    package func stop() {
        if running.exchange(false, ordering: .acquiringAndReleasing) {
            wake.signal()
            finished.wait()
        }
        if case .commands(let s) = output {
            s.stop()
            // Not on this thread: it may hold the service's capabilities (`runToEnd` restricts its own).
            if applied != .on { s.runToEnd(1) }
        } else if applied != .on {
            apply(.on)
        }
        applied = .on
        do throws(GPIOError) { try line?.setActive(true) } catch {}
    }

    /// Releases the GPIO line (the next service may request it); after `stop()`.
    package func close() { line = nil }
}
