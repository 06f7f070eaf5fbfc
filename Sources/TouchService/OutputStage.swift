import Gestures
import TouchCore
import TouchOutputs
import TouchRing

/// One output destination: an encoder choice and the sink it writes to.
package struct OutputChannel {
    package enum Encoding {
        case json(EventJSONEncoder)
        case text(EventTextEncoder)
        /// `docs/PROTOCOL.md` frames; the stage numbers them per channel from 0.
        case binary(BinaryFrameEncoder)
    }
    package let name: String
    package let encoding: Encoding
    package let sink: any LineSink

    package init(name: String, encoding: Encoding, sink: any LineSink) {
        self.name = name
        self.encoding = encoding
        self.sink = sink
    }
}

/// What happened on one channel.
package struct ChannelStatistics: Sendable {
    /// Messages handed to the sink.
    package internal(set) var written = 0
    /// `changed` events merged into a newer one while the sink was backed up.
    package internal(set) var coalesced = 0
    /// Events lost because the channel's backlog was full.
    package internal(set) var dropped = 0
    /// Event instant → the moment its message was handed to the sink, µs.
    package internal(set) var latency = LatencyStatistics()
}

/// The output thread's work: drain the event ring, drive GPIO bindings, encode each event once
/// per channel, write.
///
/// Runs off the recognizer loop, so a slow serial port or a blocked stdout never delays
/// recognition. Each channel has an `EventBacklog`: while its sink is backed up (a slow UART
/// peer), events wait there and intermediate `changed` events coalesce to the latest; other
/// events are kept. GPIO pulses end on `tick(now:)`, the stage's own timers on the caller's clock.
/// Not thread-safe: one thread (the output loop, or a test) calls it.
package final class OutputStage {
    package let events: SPSCRing<GestureEvent>
    package let channels: [OutputChannel]
    /// The GPIO bindings, if the board has any.
    package let gpio: GPIOActuator?
    /// Key and exec bindings (nil when the board has none).
    package var commands: CommandActuator?
    /// With `[display]`: the display's transitions (from the recognizer pass), written as
    /// `display` lines to the JSON channels and handed to `displaySwitch`.
    package var displayTransitions: SPSCRing<DisplayTransition>?
    /// Switches the screen off the real-time threads (nil without `[display]`).
    package var displaySwitch: (any ScreenSwitch)?
    private let backlogs: [EventBacklog]
    private var sequences: [UInt16]
    private var buffer: [UInt8] = []
    /// Per channel, in `channels` order.
    package private(set) var channelStatistics: [ChannelStatistics]
    /// Events taken from the ring so far.
    package private(set) var eventsWritten = 0
    /// Latency from the event's instant (its frame's timestamp, or its timer's deadline) to the
    /// moment the output thread issued its writes (GPIO levels, and messages to every sink that
    /// was not backed up), in microseconds.
    package private(set) var latency = LatencyStatistics()
    /// When set, each event's latency is also sampled into the service's histograms.
    package var metrics: PipelineMetrics?
    /// Receives one line the first time a channel loses events (its sink cannot keep up); the
    /// count is in `channelStatistics` and `channelSummary`.
    package var log: (String) -> Void = StandardError.log
    private var dropLogged: [Bool]

    /// `recognizerSlots`: recognizer indices that can coalesce (the engine's recognizer count).
    package init(
        events: SPSCRing<GestureEvent>, channels: [OutputChannel], gpio: GPIOActuator? = nil,
        recognizerSlots: Int = 64, backlogCapacity: Int = 256
    ) {
        self.events = events
        self.channels = channels
        self.gpio = gpio
        backlogs = channels.map { _ in EventBacklog(capacity: backlogCapacity, recognizerSlots: recognizerSlots) }
        sequences = Array(repeating: 0, count: channels.count)
        channelStatistics = Array(repeating: ChannelStatistics(), count: channels.count)
        dropLogged = Array(repeating: false, count: channels.count)
        buffer.reserveCapacity(512)
    }

    /// Handles every queued event, then ends due pulses and writes what the sinks take.
    /// `clock` (the pipeline's) gives the instant each write is issued (for latency and pulse starts).
    @discardableResult
    package func drain(clock: any TouchClock) -> Int {
        var n = 0
        if let displayTransitions {
            while let t = displayTransitions.tryPop() { writeDisplay(t) }
        }
        while let event = events.tryPop() {
            gpio?.handle(event, at: clock.now)
            commands?.handle(event)
            for b in backlogs { b.push(event) }
            pump(at: clock.now, clock: clock)
            recordLatency(of: event, issuedAt: clock.now, channel: nil)
            n += 1
        }
        eventsWritten += n
        tick(now: clock.now)
        return n
    }

    /// Ends the pulses due by `now` and offers backed-up channels their waiting events.
    package func tick(now: Instant) {
        gpio?.advance(to: now)
        if hasBacklog { pump(at: now, clock: nil) }
    }

    /// True while some channel holds events for a backed-up sink.
    package var hasBacklog: Bool { backlogs.contains { !$0.isEmpty } }

    /// When the stage next needs to run without a new event: the next pulse end, or soon
    /// (`retryMicroseconds`) while a channel is backed up; nil when nothing is pending.
    package func nextWakeup(from now: Instant, retryMicroseconds: Int64 = 2_000) -> Int64? {
        var wait: Int64? = gpio?.nextDeadline.map { max(0, $0.microseconds(since: now)) }
        if hasBacklog || channels.contains(where: { $0.sink.isBackedUp }) {
            wait = min(wait ?? retryMicroseconds, retryMicroseconds)
        }
        return wait
    }

    /// The one place latency is taken: event instant → `issuedAt`, µs. With `channel` nil, the
    /// event's writes were all issued: the stage's statistics and the service's histogram sample;
    /// otherwise that channel's sink took the message.
    private func recordLatency(of event: GestureEvent, issuedAt: Instant, channel: Int?) {
        let microseconds = issuedAt.microseconds(since: event.time)
        if let channel {
            channelStatistics[channel].latency.record(microseconds)
        } else {
            latency.record(microseconds)
            metrics?.eventWritten(eventTime: event.time, issuedAt: issuedAt)
        }
    }

    /// Writes what each sink will take now, oldest first. Each write's latency is taken at
    /// `clock.now` when a clock is given, else at `now` (a tick at a known instant).
    private func pump(at now: Instant, clock: (any TouchClock)?) {
        for c in channels.indices {
            let sink = channels[c].sink
            let backlog = backlogs[c]
            if sink.isBackedUp { sink.flush() }
            while !sink.isBackedUp, let event = backlog.popFirst() {
                buffer.removeAll(keepingCapacity: true)
                switch channels[c].encoding {
                case .json(let encoder): encoder.encode(event, into: &buffer)
                case .text(let encoder): encoder.encode(event, into: &buffer)
                case .binary(let encoder):
                    encoder.encode(event, sequence: sequences[c], into: &buffer)
                    sequences[c] &+= 1
                }
                buffer.withUnsafeBytes { sink.write($0) }
                channelStatistics[c].written += 1
                recordLatency(of: event, issuedAt: clock?.now ?? now, channel: c)
            }
            channelStatistics[c].coalesced = backlog.coalescedCount
            channelStatistics[c].dropped = backlog.droppedCount
            if backlog.droppedCount > 0 && !dropLogged[c] {
                dropLogged[c] = true
                log("output \(channels[c].name): cannot keep up; dropping events (counted in the channel summary)")
            }
        }
    }

    /// One display transition: the switch is asked for the state, and every JSON channel gets
    /// `{"t_us":…,"display":"off","cause":"idle"}` (docs/formats.md §2). Text and binary channels
    /// carry gestures only.
    private func writeDisplay(_ t: DisplayTransition) {
        displaySwitch?.request(t.state)
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: #"{"t_us":"#.utf8)
        buffer.append(contentsOf: String(t.time.microseconds).utf8)
        buffer.append(contentsOf: #","display":""#.utf8)
        buffer.append(contentsOf: t.state.description.utf8)
        buffer.append(contentsOf: #"","cause":""#.utf8)
        buffer.append(contentsOf: t.cause.description.utf8)
        buffer.append(contentsOf: "\"}\n".utf8)
        for c in channels.indices {
            guard case .json = channels[c].encoding else { continue }
            buffer.withUnsafeBytes { channels[c].sink.write($0) }
        }
    }

    /// Pushes out what the sinks hold back and gives them their housekeeping (reconnects).
    package func flush() { for c in channels { c.sink.flush() } }

    /// Drives every bound GPIO line inactive and releases it (every exit path calls this, or
    /// the lines' own deinit does). Events handled afterwards no longer move any line.
    package func releaseLines() { gpio?.releaseAll() }

    /// Releases the lines and closes every channel's sink (`LineSink.close()`: sockets, UARTs) and
    /// the virtual keyboard: nothing of the outputs stays open for the next service to trip on.
    package func close() {
        releaseLines()
        for c in channels { c.sink.close() }
        commands?.keyboard?.close()
    }

    /// "stdout 120 (coalesced 0, dropped 0), uart /dev/ttyUSB0 118 (coalesced 3, dropped 0)".
    package var channelSummary: String {
        channels.indices.map { c in
            let s = channelStatistics[c]
            return "\(channels[c].name) \(s.written) (coalesced \(s.coalesced), dropped \(s.dropped), "
                + "max latency \(s.latency.maximum) µs)"
        }.joined(separator: ", ")
    }
}

/// Count, mean and maximum of latency samples, in microseconds.
package struct LatencyStatistics: Sendable {
    package private(set) var count = 0
    package private(set) var total: Int64 = 0
    package private(set) var maximum: Int64 = 0

    package init() {}

    package mutating func record(_ microseconds: Int64) {
        let v = max(0, microseconds)
        count += 1
        total += v
        maximum = max(maximum, v)
    }

    package var mean: Double { count > 0 ? Double(total) / Double(count) : 0 }
}
