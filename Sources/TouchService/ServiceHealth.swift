import Synchronization

/// What a supervisor (systemd's `Type=notify` + watchdog, `touchwire status`) needs to know
/// about a running pipeline, published by its threads with relaxed atomic stores (no locks, no
/// allocation on the hot path) and read from any thread.
package final class ServiceHealth: Sendable {
    /// Counts recognizer-loop iterations. The loop wakes at least once a second even when idle,
    /// so a count that stops advancing for longer means the pipeline is stuck: the watchdog
    /// (`WatchdogFeeder`) is fed only while it advances.
    package let recognizerTicks = Atomic<UInt64>(0)
    /// The controller as the driver thread last saw it (`ControllerState` without its reason).
    let controllerStateCode = Atomic<Int>(ControllerStateCode.starting.rawValue)
    /// Driver re-initialisations after repeated read errors.
    let reinitialisationCount = Atomic<Int>(0)
    /// Test-only fault (`touchwire run --test-fault hang-recognizer`): the recognizer loop stops
    /// advancing (it only waits for `stop()`), so the watchdog is no longer fed.
    let recognizerHung = Atomic<Bool>(false)

    package init() {}

    /// The controller answered at least once and is answering now.
    package var controllerAnswering: Bool { controllerState == .running }

    package var controllerState: ControllerStateCode {
        ControllerStateCode(rawValue: controllerStateCode.load(ordering: .relaxed)) ?? .starting
    }

    package var reinitialisations: Int { reinitialisationCount.load(ordering: .relaxed) }

    /// Makes the recognizer loop hang (test-only: proves the watchdog restarts a stuck service).
    package func injectRecognizerHang() { recognizerHung.store(true, ordering: .relaxed) }

    /// Called by the driver thread after each poll.
    @inline(__always)
    func publish(_ state: ControllerState, reinitialisations: Int) {
        let code: ControllerStateCode
        switch state {
        case .starting: code = .starting
        case .running: code = .running
        case .missing: code = .missing
        }
        controllerStateCode.store(code.rawValue, ordering: .relaxed)
        reinitialisationCount.store(reinitialisations, ordering: .relaxed)
    }
}

/// `ControllerState` as a plain code (the Prometheus gauge `touchwire_controller_state`).
package enum ControllerStateCode: Int, Sendable, CaseIterable {
    case starting = 0
    case running = 1
    case missing = 2

    package var name: String {
        switch self {
        case .starting: "starting"
        case .running: "running"
        case .missing: "missing"
        }
    }
}
