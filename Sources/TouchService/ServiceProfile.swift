/// What the composition root decided for one service, as plain values: the service never sees
/// the board file (`Service.init` takes this, the built parts and the clock).
package struct ServiceProfile: Sendable {
    /// The board's name, in logs and the status snapshot.
    package var boardName: String
    /// The controller as `touchwire status` prints it: "ft6x36", "gt911 (sim)", "none".
    package var controller: String
    /// Where the metrics thread writes the status snapshot (JSON) about once a second; nil: nowhere.
    package var statusFile: String?
    /// Where the metrics thread writes the snapshot in the Prometheus text format; nil: nowhere.
    package var prometheusFile: String?
    /// Boards swapped in by SIGHUP before this service (`ServiceSupervisor`), for the status snapshot.
    package var reloads: Int
    /// With an INT line and no contact for a while, the longest wait for an edge before a
    /// watchdog read (`DriverLoop`).
    package var idleInterruptWatchdogMicroseconds: Int64
    /// How long after start the metrics thread releases the start-up code pages (`StartupPages`):
    /// by then the pipeline threads have run every path of a frame and an event at least once.
    package static let startupMicroseconds: Int64 = 2_000_000
    /// How often after that the metrics thread releases them again (`StartupPages`): code and
    /// read-only data no loop ran since (a client's connection, a reload, a command) leave the
    /// resident set; each release costs ~4 ms of CPU and the loops' few minor faults after it.
    /// Locked memory (`lock_memory`) is never released.
    package static let pageReleaseIntervalMicroseconds: Int64 = 30_000_000

    package init(
        boardName: String, controller: String, statusFile: String? = nil, prometheusFile: String? = nil,
        reloads: Int = 0, idleInterruptWatchdogMicroseconds: Int64 = 1_000_000
    ) {
        self.boardName = boardName
        self.controller = controller
        self.statusFile = statusFile
        self.prometheusFile = prometheusFile
        self.reloads = reloads
        self.idleInterruptWatchdogMicroseconds = idleInterruptWatchdogMicroseconds
    }
}

/// How the service tunes its process and its pipeline threads (scheduling policy and priority,
/// memory locking, CPU affinity). The composition root hands it in, built from the board's
/// `[realtime]` and the command line's overrides (`BoardRealTime`); the service only calls it.
/// Every problem is a message (a warning), never a failure: the pipeline runs untuned.
package protocol ThreadTuning: Sendable {
    /// One line for the status snapshot ("policy fifo (driver 50, …), memory locked, any cpu").
    var summary: String { get }
    /// Applies what concerns the whole process (memory locking), once, before the threads start.
    func applyToProcess() -> [RealTimeMessage]
    /// Applies `thread`'s settings to the calling thread (its first act).
    func applyToCurrentThread(_ thread: PipelineThread) -> [RealTimeMessage]
    /// The calling thread's scheduling as `touchwire status` prints it.
    func describeCurrentThread() -> String
}
