/// What the simulated controller plays.
package enum SimulationScript: Sendable, Equatable {
    /// `script = "demo"`: the built-in demo of taps.
    case demo
    /// `script = "calibration"`: the built-in calibration presses (`CalibrationScript`): the five
    /// `touchwire calibrate` targets pressed through a known skewed, scaled and offset panel.
    case calibration
    /// A touch trace (`formats.md` §1); the absolute, normalised path of a file that was readable at load time.
    case trace(String)
}

/// The simulated touch world (`[simulation]`), present exactly when `controller.bus` is `.simulated`.
package struct SimulationDescription: Sendable, Equatable {
    package var script: SimulationScript
    /// The simulated controller's report rate, 1…1000 Hz (default 100).
    package var reportRateHz: Int
    /// Replay the script forever (default false).
    package var loop: Bool

    package init(script: SimulationScript = .demo, reportRateHz: Int = 100, loop: Bool = false) {
        self.script = script
        self.reportRateHz = reportRateHz
        self.loop = loop
    }
}
