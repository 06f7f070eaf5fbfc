import TouchCore

/// Running totals of what a driver threw away, for the status output and metrics.
package struct DriverCounters: Hashable, Sendable, BitwiseCopyable {
    /// Touch images read successfully from the bus.
    package var framesRead = 0
    /// Images rejected as a whole (`DecodedTouchReport.isValid == false`).
    package var framesRejected = 0
    /// Point records dropped for coordinates outside the panel.
    package var rejectedOutOfPanel = 0
    /// Point records dropped for id 0x0F or a repeated id.
    package var rejectedInvalidID = 0
    /// Images rejected for a count above the chip's maximum.
    package var rejectedTooMany = 0

    package init() {}

    /// Reads that failed with an I2C error.
    package var readErrors = 0
    /// NACKs taken as "asleep while idle" (CST816 auto-sleep), not errors.
    package var sleepNacks = 0
    /// GT911 reads whose buffer never became ready (spurious INT, e.g. after a lift; GDX -ENOMSG).
    package var notReady = 0

    /// Adds one decoded report's counters (any chip family).
    @inlinable package mutating func add(_ report: some DecodedTouchReport) {
        add(
            valid: report.isValid, outOfPanel: report.rejectedOutOfPanel, invalidID: report.rejectedInvalidID,
            tooMany: report.rejectedTooMany)
    }

    /// Adds one decoded image's counters.
    @inlinable package mutating func add(valid: Bool, outOfPanel: Int, invalidID: Int, tooMany: Int) {
        framesRead += 1
        if !valid { framesRejected += 1 }
        rejectedOutOfPanel += outOfPanel
        rejectedInvalidID += invalidID
        rejectedTooMany += tooMany
    }
}

/// What every decoder's report says, whatever the chip: the frame, whether the image as a whole
/// can be trusted, and what was thrown away — the facts `DriverCounters` sums.
package protocol DecodedTouchReport {
    /// The contacts down; empty when `isValid` is false.
    var frame: TouchFrame { get }
    /// False when the image as a whole cannot be trusted (it must be dropped, not read as "all up").
    var isValid: Bool { get }
    /// Points dropped for coordinates outside the panel.
    var rejectedOutOfPanel: Int { get }
    /// Points dropped for an invalid or repeated id.
    var rejectedInvalidID: Int { get }
    /// 1 when the whole image was rejected for a count above the chip's maximum, else 0.
    var rejectedTooMany: Int { get }
}

extension FocalTechReport: DecodedTouchReport {}
extension GT911Report: DecodedTouchReport {}
extension CST816Report: DecodedTouchReport {
    /// The CST816 reports one contact with id 0: there is no id to reject.
    package var rejectedInvalidID: Int { 0 }
}

/// What every I2C touch driver is configured with, whatever the chip: where it answers, how many
/// points its image holds, and the raw coordinate range beyond which a point is dropped and counted.
///
/// Each driver's `Configuration` holds one of these as `bus` and adds its chip's own settings;
/// the fields read through it (`configuration.panelWidth`) by dynamic member lookup. The drivers
/// themselves read `configuration.bus` directly: a key path on the per-frame path is instantiated
/// (allocated) on first use and not always folded away by the optimizer.
package struct ControllerBusConfiguration: Hashable, Sendable {
    /// 7-bit I2C address the driver talks to (or tries first).
    package var address: I2CAddress
    /// Points one image holds, clamped to 1…the chip family's limit.
    package var maxPoints: Int
    /// Raw controller X range: points with X ≥ width are dropped and counted.
    package var panelWidth: Int
    /// Raw controller Y range: points with Y ≥ height are dropped and counted.
    package var panelHeight: Int

    /// `maxPoints` is clamped to 1…`maxPointsLimit`.
    package init(address: I2CAddress, maxPoints: Int, maxPointsLimit: Int, panelWidth: Int, panelHeight: Int) {
        self.address = address
        self.maxPoints = min(max(maxPoints, 1), max(maxPointsLimit, 1))
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
    }
}

/// What a driver keeps of its reads — the identity `start()` found, the counters, the last report —
/// and the one place a read's outcome is counted. Value type, mutated by the driver thread only.
package struct DriverState<Report: DecodedTouchReport> {
    /// Set by the driver's `identify()` / `start()`.
    package var identity: ControllerIdentity?
    /// Totals over every read.
    package private(set) var counters = DriverCounters()
    /// The last report read (valid or not), for "last N raw frames" diagnostics.
    package private(set) var lastReport: Report?

    package init() {}

    /// A decoded image: counted (`DriverCounters.add`) and kept as the last report.
    package mutating func record(_ report: Report) {
        counters.add(report)
        lastReport = report
    }

    /// A report kept for diagnostics but not counted as a frame (a GT911 buffer not ready).
    package mutating func keep(_ report: Report) { lastReport = report }

    /// A failed read: counted in `readErrors`; returns the error for the driver to throw.
    package mutating func failedRead(_ error: I2CError) -> I2CError {
        counters.readErrors += 1
        return error
    }

    /// A NACK the chip's protocol explains (CST816 asleep while idle): counted, not an error.
    package mutating func sleepNack() { counters.sleepNacks += 1 }

    /// A GT911 read whose ready bit never came (spurious INT).
    package mutating func notReady() { counters.notReady += 1 }
}
