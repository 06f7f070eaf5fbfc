import BoardConfig

/// What the caller of `Service` decides beyond the board file. Fixed at `Service.init`: the
/// pipeline threads read these values while running, so none of them can change underneath them.
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
    /// How long after start the metrics thread releases the start-up code pages (`StartupPages`):
    /// by then the pipeline threads have run every path of a frame and an event at least once.
    package static let startupMicroseconds: Int64 = 2_000_000
    /// How often after that the metrics thread releases them again (`StartupPages`): code and
    /// read-only data no loop ran since (a client's connection, a reload, a command) leave the
    /// resident set; each release costs ~4 ms of CPU and the loops' few minor faults after it.
    /// Locked memory (`lock_memory`) is never released.
    package static let pageReleaseIntervalMicroseconds: Int64 = 30_000_000
    /// Boards swapped in by SIGHUP before this service (`ServiceSupervisor`), for the status snapshot.
    package var reloads: Int
    /// Where `[display] backlight = "NAME"` is looked up (tests make a directory of their own).
    package var backlightRoot: String

    package init(
        realtime: RealTimeDescription? = nil, statusFile: String? = nil,
        idleInterruptWatchdogMicroseconds: Int64 = 1_000_000, prometheusFile: String? = nil, reloads: Int = 0,
        backlightRoot: String = "/sys/class/backlight"
    ) {
        self.backlightRoot = backlightRoot
        self.realtime = realtime
        self.statusFile = statusFile
        self.prometheusFile = prometheusFile
        self.reloads = reloads
        self.idleInterruptWatchdogMicroseconds = idleInterruptWatchdogMicroseconds
    }
}
