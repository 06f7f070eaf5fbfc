import BoardConfig

/// What the caller of `Service(board:…)` decides beyond the board file (the command line's
/// options, a test's directories). The composition root turns it and the board into the
/// service's `ServiceProfile` and `ThreadTuning`, fixed at `Service.init`: the pipeline threads
/// read these values while running, so none of them can change underneath them.
package struct ServiceSettings: Sendable {
    /// Thread scheduling, memory locking and CPU affinity; nil: the board's `[realtime]`.
    package var realtime: RealTimeDescription?
    /// Where the metrics thread writes the status snapshot (JSON) about once a second; nil: nowhere.
    package var statusFile: String?
    /// With an INT line and no contact for a while, the longest wait for an edge before a
    /// watchdog read. A chip pulses INT for every report while touched, so a missed first edge
    /// is followed by another within one report period; only an idle panel waits this long.
    package var idleInterruptWatchdogMicroseconds: Int64
    /// Where to write the Prometheus text snapshot; nil: the board's `[metrics] prometheus_file`.
    package var prometheusFile: String?
    /// Boards swapped in by SIGHUP before this service (`ServiceSupervisor`), for the status snapshot.
    package var reloads: Int
    /// Where `[display] backlight = "NAME"` is looked up (tests make a directory of their own).
    package var backlightRoot: String
    /// True: assemble the pipeline without the board's outputs — no output channels (only the
    /// caller's `extraOutputs`), GPIO bindings, key or exec bindings, passthrough touchscreen or
    /// display switch — so that `monitor` watches the same pipeline as `run` without taking the
    /// devices a running service holds.
    package var observeOnly: Bool
    /// Non-nil: `calibrate`'s raw capture — the controller is read with the board's calibration
    /// dropped (its decoders accepting the chip's full range) and the driver stage applies no
    /// transform, so the frame ring carries the controller's points as read, whatever the input
    /// (`CalibrationSession` orients them).
    package var capture: CalibrationCapture?
    /// True (`run --exec-by-agents`, the shipped unit): the service spawns no exec binding;
    /// `touchwire agent --bindings service` (touchwire-exec.service) and the session agent run
    /// them, fed by the board's socket output, which must exist (`ExecCheck.agentsCannotListen`).
    package var execByAgents: Bool

    package init(
        realtime: RealTimeDescription? = nil, statusFile: String? = nil,
        idleInterruptWatchdogMicroseconds: Int64 = 1_000_000, prometheusFile: String? = nil, reloads: Int = 0,
        backlightRoot: String = "/sys/class/backlight", observeOnly: Bool = false,
        capture: CalibrationCapture? = nil, execByAgents: Bool = false
    ) {
        self.observeOnly = observeOnly
        self.capture = capture
        self.execByAgents = execByAgents
        self.backlightRoot = backlightRoot
        self.realtime = realtime
        self.statusFile = statusFile
        self.prometheusFile = prometheusFile
        self.reloads = reloads
        self.idleInterruptWatchdogMicroseconds = idleInterruptWatchdogMicroseconds
    }
}

/// `ServiceSettings.capture`: how `touchwire calibrate` has the pipeline read the controller.
package struct CalibrationCapture: Sendable, Equatable {
    /// How many targets a simulated board's built-in calibration script presses (`script = "calibration"`).
    package var targets: Int

    package init(targets: Int = 5) { self.targets = targets }
}
