import FoundationEssentials
import Histogram
import Synchronization
import TouchCore
import TouchOutputs
import TouchRing

/// Built-in timing of the running pipeline: HdrHistograms of read → recognized and
/// read → write issued, frame rate, ring high-water marks and drops.
///
/// The hot threads never touch a histogram: the recognizer and output threads each push one
/// latency sample per frame / event into their own lock-free SPSC ring (`frameRecognized`,
/// `eventWritten`: one clock read and one ring push, no allocation, no lock). The metrics thread
/// (`collect`) drains both rings into preallocated histograms, so a slow status reader can never
/// delay a frame. If the metrics thread falls more than `sampleCapacity` samples behind, the
/// extra samples are counted in `lostSamples`, never waited for.
package final class PipelineMetrics: @unchecked Sendable {
    // @unchecked Sendable: each sample ring has one producer (recognizer / output thread) and one
    // consumer (the thread calling `collect`); the histograms are touched only by that consumer;
    // everything else is atomic.

    /// Highest latency a histogram tracks, µs (larger samples are recorded as this value).
    package static let highestTrackableMicroseconds: UInt64 = 60_000_000

    private let recognizedSamples: SPSCRing<Int64>
    private let writtenSamples: SPSCRing<Int64>
    private let clock: any TouchClock
    private let lost = Atomic<Int>(0)

    /// Read (the frame's timestamp: INT edge or end of the I2C read) → the engine finished the frame, µs.
    package private(set) var readToRecognized: Histogram<UInt64>
    /// Read (or a timer's deadline) → the output thread issued the event's writes, µs.
    package private(set) var readToWrite: Histogram<UInt64>
    /// `readToRecognized`'s percentiles and exact mean as of the last `collect` that moved a sample
    /// into it. Walking a histogram for its percentiles costs far more than the samples did, so it
    /// is done once per batch of samples, not once per status publication: an idle service
    /// publishing every second does not walk its histograms at all (docs/PERFORMANCE.md, idle CPU).
    package private(set) var readToRecognizedSummary = LatencySummary()
    /// `readToWrite`'s summary, refreshed as `readToRecognizedSummary` is.
    package private(set) var readToWriteSummary = LatencySummary()
    /// Sums of the recorded (clamped) samples, µs, for the exact means.
    private var recognizedSum: UInt64 = 0
    private var writtenSum: UInt64 = 0

    // Counters published by the loops (relaxed atomics: read by the metrics thread).
    let framesRead = Atomic<Int>(0)
    let framesQueued = Atomic<Int>(0)
    let readErrors = Atomic<Int>(0)
    let eventsWritten = Atomic<Int>(0)
    let driverCPU = Atomic<Int64>(0)
    let recognizerCPU = Atomic<Int64>(0)
    let outputCPU = Atomic<Int64>(0)

    /// `sampleCapacity` latency samples may wait per ring between two `collect` calls: 4,096 is
    /// 4 s at the highest rate a controller reports (1 kHz) for the once-a-second collection, and
    /// 32 KiB resident per ring once the ring has wrapped (16,384 cost 128 KiB each).
    package init(sampleCapacity: Int = 4_096, clock: any TouchClock) {
        recognizedSamples = SPSCRing(minimumCapacity: sampleCapacity)
        writtenSamples = SPSCRing(minimumCapacity: sampleCapacity)
        self.clock = clock
        readToRecognized = Self.makeHistogram()
        readToWrite = Self.makeHistogram()
    }

    static func makeHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(
            lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableMicroseconds,
            numberOfSignificantValueDigits: .three)
    }

    // MARK: producers (hot threads)

    /// Recognizer thread, after the engine processed a frame read at `readAt`. Real-time safe.
    @inline(__always)
    package func frameRecognized(readAt: Instant) {
        if !recognizedSamples.tryPush(clock.now.microseconds(since: readAt)) { lost.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Output thread, once an event's writes were issued at `issuedAt`. Real-time safe.
    @inline(__always)
    package func eventWritten(eventTime: Instant, issuedAt: Instant) {
        if !writtenSamples.tryPush(issuedAt.microseconds(since: eventTime)) { lost.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Samples dropped because `collect` was not called often enough.
    package var lostSamples: Int { lost.load(ordering: .relaxed) }

    // MARK: consumer (metrics thread)

    /// Moves every waiting sample into the histograms and refreshes the summaries of those that
    /// received samples. Returns the samples moved.
    /// Called by one thread only (the metrics thread, or a test); allocation-free.
    @discardableResult
    package func collect() -> Int {
        var recognized = 0
        while let v = recognizedSamples.tryPop() {
            recognizedSum &+= record(v, into: &readToRecognized)
            recognized += 1
        }
        var written = 0
        while let v = writtenSamples.tryPop() {
            writtenSum &+= record(v, into: &readToWrite)
            written += 1
        }
        if recognized > 0 { readToRecognizedSummary = LatencySummary(readToRecognized, sum: recognizedSum) }
        if written > 0 { readToWriteSummary = LatencySummary(readToWrite, sum: writtenSum) }
        return recognized + written
    }

    /// Records one sample, clamped to 0…`highestTrackableMicroseconds`; returns the value recorded.
    @inline(__always)
    private func record(_ microseconds: Int64, into h: inout Histogram<UInt64>) -> UInt64 {
        let v = min(UInt64(clamping: max(0, microseconds)), Self.highestTrackableMicroseconds)
        _ = h.record(v)
        return v
    }

    /// Publishes the driver's counters (driver thread, after each read).
    @inline(__always)
    func publishDriver(read: Int, queued: Int, errors: Int) {
        framesRead.store(read, ordering: .relaxed)
        framesQueued.store(queued, ordering: .relaxed)
        readErrors.store(errors, ordering: .relaxed)
    }

    /// The CPU time a pipeline thread used, stored by the thread itself when its loop ends.
    func storeCPU(_ thread: PipelineThread, microseconds: Int64) {
        switch thread {
        case .driver: driverCPU.store(microseconds, ordering: .relaxed)
        case .recognizer: recognizerCPU.store(microseconds, ordering: .relaxed)
        case .output: outputCPU.store(microseconds, ordering: .relaxed)
        }
    }

    /// CPU time of the driver, recognizer and output threads (known once their loops ended), µs.
    package var pipelineCPUMicroseconds: Int64 {
        driverCPU.load(ordering: .relaxed) + recognizerCPU.load(ordering: .relaxed) + outputCPU.load(ordering: .relaxed)
    }
}

/// Percentiles of one latency histogram, µs.
package struct LatencySummary: Codable, Sendable, Equatable {
    package var count: UInt64
    package var p50: UInt64
    package var p90: UInt64
    package var p99: UInt64
    package var p999: UInt64
    package var max: UInt64
    package var mean: Double

    package init(
        count: UInt64 = 0, p50: UInt64 = 0, p90: UInt64 = 0, p99: UInt64 = 0, p999: UInt64 = 0,
        max: UInt64 = 0, mean: Double = 0
    ) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.mean = mean
    }

    /// The percentiles of `h`, and its mean from its buckets (`Histogram.mean` walks every bucket).
    package init(_ h: Histogram<UInt64>) {
        self.init(h, mean: h.totalCount > 0 ? h.mean : 0)
    }

    /// The percentiles of `h`, and the exact mean of its samples from their `sum`.
    package init(_ h: Histogram<UInt64>, sum: UInt64) {
        self.init(h, mean: h.totalCount > 0 ? Double(sum) / Double(h.totalCount) : 0)
    }

    private init(_ h: Histogram<UInt64>, mean: Double) {
        guard h.totalCount > 0 else {
            self.init()
            return
        }
        self.init(
            count: h.totalCount, p50: h.valueAtPercentile(50), p90: h.valueAtPercentile(90),
            p99: h.valueAtPercentile(99), p999: h.valueAtPercentile(99.9), max: h.max, mean: mean)
    }
}

extension LatencySummary {
    func json() -> String {
        JSONText.object([
            ("count", "\(count)"), ("p50", "\(p50)"), ("p90", "\(p90)"), ("p99", "\(p99)"), ("p999", "\(p999)"),
            ("max", "\(max)"), ("mean", JSONText.number(mean)),
        ])
    }
}

extension RingSummary {
    func json() -> String {
        JSONText.object([
            ("capacity", "\(capacity)"), ("highWater", "\(highWater)"), ("dropped", "\(dropped)"),
            ("other", "\(other)"),
        ])
    }
}

/// The few JSON pieces the status snapshot needs (RFC 8259): objects with sorted keys, strings
/// with the mandatory escapes, numbers in Swift's shortest round-trip form.
enum JSONText {
    static func object(_ fields: [(String, String)]) -> String {
        var out = "{"
        for (i, field) in fields.sorted(by: { $0.0 < $1.0 }).enumerated() {
            if i > 0 { out += "," }
            out += string(field.0) + ":" + field.1
        }
        return out + "}"
    }

    static func strings(_ values: [String]) -> String {
        "[" + values.map(string).joined(separator: ",") + "]"
    }

    static func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "0" }

    /// `s` as a JSON string literal: the escaping the event encoder uses (`appendJSONString`).
    static func string(_ s: String) -> String {
        var bytes: [UInt8] = []
        bytes.appendJSONString(s)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One ring's fill and losses.
package struct RingSummary: Codable, Sendable, Equatable {
    package var capacity: Int
    package var highWater: Int
    /// Frames replaced while full (frame ring) / events lost (event ring).
    package var dropped: Int
    /// Frame ring: times it filled. Event ring: `changed` events coalesced.
    package var other: Int

    package init(capacity: Int, highWater: Int, dropped: Int, other: Int) {
        self.capacity = capacity
        self.highWater = highWater
        self.dropped = dropped
        self.other = other
    }
}

/// What `touchwire status` prints: a snapshot of the running service, written as JSON to the
/// status file about once a second and logged on SIGUSR1.
package struct MetricsSnapshot: Codable, Sendable, Equatable {
    package var board: String
    /// "FT5x06 (sim)" or the controller's identity.
    package var controller: String
    package var pid: Int32
    /// Seconds since the service started.
    package var uptime: Double
    /// Wall-clock time of the snapshot (seconds since 1970), to tell a stale file.
    package var updated: Double
    package var framesRead: Int
    /// Reads per second since the previous snapshot.
    package var framesPerSecond: Double
    package var framesQueued: Int
    package var readErrors: Int
    package var frameRing: RingSummary
    package var eventRing: RingSummary
    package var eventsWritten: Int
    package var readToRecognized: LatencySummary
    package var readToWrite: LatencySummary
    package var lostSamples: Int
    /// Per thread: "driver SCHED_FIFO 60".
    package var threads: [String]
    package var realtime: String
    package var warnings: [String]
    package var processCPUSeconds: Double
    package var residentBytes: Int
    /// "starting", "running" or "missing" (absent in snapshots of older versions).
    package var controllerState: String?
    /// Driver re-initialisations after repeated read errors (absent in older snapshots).
    package var reinitialisations: Int?
    /// Boards swapped in by SIGHUP since the process started (absent in older snapshots).
    package var reloads: Int?
    /// With `[display]`: "on", "dimmed" or "off" (absent without one, and in older snapshots).
    package var display: String?
    /// With `[display]`: times the display went off, woke on a touch, and touches swallowed.
    package var displayOffs: Int?
    package var displayTouchWakes: Int?
    package var displaySwallowedTouches: Int?

    package init(
        board: String, controller: String, pid: Int32, uptime: Double, updated: Double, framesRead: Int,
        framesPerSecond: Double, framesQueued: Int, readErrors: Int, frameRing: RingSummary, eventRing: RingSummary,
        eventsWritten: Int, readToRecognized: LatencySummary, readToWrite: LatencySummary, lostSamples: Int,
        threads: [String], realtime: String, warnings: [String], processCPUSeconds: Double, residentBytes: Int,
        controllerState: String? = nil, reinitialisations: Int? = nil, reloads: Int? = nil,
        display: DisplayControl.Status? = nil
    ) {
        self.display = display?.state.description
        displayOffs = display?.offs
        displayTouchWakes = display?.touchWakes
        displaySwallowedTouches = display?.swallowedTouches
        self.controllerState = controllerState
        self.reinitialisations = reinitialisations
        self.reloads = reloads
        self.board = board
        self.controller = controller
        self.pid = pid
        self.uptime = uptime
        self.updated = updated
        self.framesRead = framesRead
        self.framesPerSecond = framesPerSecond
        self.framesQueued = framesQueued
        self.readErrors = readErrors
        self.frameRing = frameRing
        self.eventRing = eventRing
        self.eventsWritten = eventsWritten
        self.readToRecognized = readToRecognized
        self.readToWrite = readToWrite
        self.lostSamples = lostSamples
        self.threads = threads
        self.realtime = realtime
        self.warnings = warnings
        self.processCPUSeconds = processCPUSeconds
        self.residentBytes = residentBytes
    }

    /// The status block, as `touchwire status` and SIGUSR1 print it. `now`: wall-clock seconds, for the age.
    package func render(now: Double? = nil) -> String {
        var s = "touchwire status: board \(board), controller \(controller), pid \(pid), up \(fmt(uptime, 1)) s"
        if let now { s += ", updated \(fmt(max(0, now - updated), 1)) s ago" }
        s += "\n"
        s +=
            "frames      read \(framesRead) (\(fmt(framesPerSecond, 1))/s), "
            + "queued \(framesQueued), read errors \(readErrors)\n"
        s +=
            "frame ring  high-water \(frameRing.highWater)/\(frameRing.capacity), "
            + "dropped \(frameRing.dropped), overflows \(frameRing.other)\n"
        s +=
            "event ring  high-water \(eventRing.highWater)/\(eventRing.capacity), dropped "
            + "\(eventRing.dropped), coalesced \(eventRing.other); events written \(eventsWritten)\n"
        s += Self.latencyTable([("read→recognized", readToRecognized), ("read→write", readToWrite)])
        if lostSamples > 0 { s += "latency samples lost (metrics thread behind): \(lostSamples)\n" }
        s += "threads     " + threads.joined(separator: ", ") + "\n"
        s += "real-time   \(realtime)\n"
        if let display {
            s +=
                "display     \(display) (offs \(displayOffs ?? 0), touch wakes \(displayTouchWakes ?? 0), "
                + "swallowed touches \(displaySwallowedTouches ?? 0))\n"
        }
        for w in warnings { s += "warning     \(w)\n" }
        s += "process     cpu \(fmt(processCPUSeconds, 2)) s, rss \(fmt(Double(residentBytes) / 1_048_576, 1)) MiB\n"
        return s
    }

    /// A fixed-width table of latency rows, µs.
    package static func latencyTable(_ rows: [(String, LatencySummary)]) -> String {
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        var s = "latency µs" + String(repeating: " ", count: 8)
        for h in ["count", "p50", "p90", "p99", "p99.9", "max", "mean"] { s += pad(h, 9) }
        s += "\n"
        for (name, l) in rows {
            s += name + String(repeating: " ", count: max(1, 18 - name.count))
            for v in [l.count, l.p50, l.p90, l.p99, l.p999, l.max] { s += pad(String(v), 9) }
            s += pad(fmt(l.mean, 1), 9) + "\n"
        }
        return s
    }

    /// The snapshot as one JSON object with sorted keys (what the status file holds; `decode`
    /// reads it back). Written by hand rather than with `JSONEncoder`: the metrics thread runs it
    /// every second, and the encoder's generic machinery kept ~3 MiB of code resident for it.
    /// A non-finite number is written as 0 (JSON has none).
    package func json() -> String {
        var fields: [(String, String)] = [
            ("board", JSONText.string(board)), ("controller", JSONText.string(controller)), ("pid", "\(pid)"),
            ("uptime", JSONText.number(uptime)), ("updated", JSONText.number(updated)),
            ("framesRead", "\(framesRead)"), ("framesPerSecond", JSONText.number(framesPerSecond)),
            ("framesQueued", "\(framesQueued)"), ("readErrors", "\(readErrors)"),
            ("frameRing", frameRing.json()), ("eventRing", eventRing.json()), ("eventsWritten", "\(eventsWritten)"),
            ("readToRecognized", readToRecognized.json()), ("readToWrite", readToWrite.json()),
            ("lostSamples", "\(lostSamples)"), ("threads", JSONText.strings(threads)),
            ("realtime", JSONText.string(realtime)), ("warnings", JSONText.strings(warnings)),
            ("processCPUSeconds", JSONText.number(processCPUSeconds)), ("residentBytes", "\(residentBytes)"),
        ]
        if let controllerState { fields.append(("controllerState", JSONText.string(controllerState))) }
        if let reinitialisations { fields.append(("reinitialisations", "\(reinitialisations)")) }
        if let reloads { fields.append(("reloads", "\(reloads)")) }
        if let display { fields.append(("display", JSONText.string(display))) }
        if let displayOffs { fields.append(("displayOffs", "\(displayOffs)")) }
        if let displayTouchWakes { fields.append(("displayTouchWakes", "\(displayTouchWakes)")) }
        if let displaySwallowedTouches { fields.append(("displaySwallowedTouches", "\(displaySwallowedTouches)")) }
        return JSONText.object(fields)
    }

    /// Why this snapshot cannot be taken as current (`alive`: its pid still exists), or nil.
    package func staleness(now: Double, alive: Bool) -> String? {
        if !alive { return "the service (pid \(pid)) is not running; this is its last status" }
        if now - updated > 5 { return "the status is \(fmt(now - updated, 0)) s old: the service may be stuck" }
        return nil
    }

    package static func decode(_ data: Data) -> MetricsSnapshot? {
        try? JSONDecoder().decode(MetricsSnapshot.self, from: data)
    }
}

/// "12.3" with `digits` decimals (no Foundation formatting, no locale).
/// Values beyond ±1e15 (which no counter reaches) are printed in Swift's own notation instead of trapping.
package func fmt(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return "0" }
    guard abs(v) < 1e15 else { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var text = String(Int64(r))
    if digits > 0 {
        let frac = Int64((abs(r) - Double(Int64(abs(r)))) * scale + 0.5)
        let f = String(frac)
        text =
            (r < 0 && Int64(r) == 0 ? "-" : "") + text + "." + String(repeating: "0", count: max(0, digits - f.count))
            + f
    }
    return text
}
