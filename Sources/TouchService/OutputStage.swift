import Gestures
import TouchCore
import TouchOutputs
import TouchRing

/// One output destination: an encoder choice and the sink it writes to.
public struct OutputChannel {
    public enum Encoding {
        case json(EventJSONEncoder)
        case text(EventTextEncoder)
    }
    public let name: String
    public let encoding: Encoding
    public let sink: any LineSink

    public init(name: String, encoding: Encoding, sink: any LineSink) {
        self.name = name
        self.encoding = encoding
        self.sink = sink
    }
}

/// The output thread's work: drain the event ring, encode each event once per channel, write.
///
/// Runs off the recognizer loop, so a slow serial port or a blocked stdout never delays
/// recognition; it also measures the latency from an event's instant (the frame it came from,
/// or its timer deadline) to the moment its writes were issued.
public final class OutputStage {
    public let events: SPSCRing<GestureEvent>
    public let channels: [OutputChannel]
    private var buffer: [UInt8] = []
    /// Events written so far.
    public private(set) var eventsWritten = 0
    /// Latency from the event's instant to the write, in microseconds.
    public private(set) var latency = LatencyStatistics()

    public init(events: SPSCRing<GestureEvent>, channels: [OutputChannel]) {
        self.events = events
        self.channels = channels
        buffer.reserveCapacity(512)
    }

    /// Writes every queued event. `clock` gives the instant each write is issued (for latency).
    @discardableResult
    public func drain(clock: () -> Instant) -> Int {
        var n = 0
        while let event = events.tryPop() {
            for channel in channels {
                buffer.removeAll(keepingCapacity: true)
                switch channel.encoding {
                case .json(let encoder): encoder.encode(event, into: &buffer)
                case .text(let encoder): encoder.encode(event, into: &buffer)
                }
                buffer.withUnsafeBytes { channel.sink.write($0) }
            }
            latency.record(clock().microseconds(since: event.time))
            n += 1
        }
        eventsWritten += n
        return n
    }

    public func flush() { for c in channels { c.sink.flush() } }
}

/// Count, mean and maximum of latency samples, in microseconds.
public struct LatencyStatistics: Sendable {
    public private(set) var count = 0
    public private(set) var total: Int64 = 0
    public private(set) var maximum: Int64 = 0

    public mutating func record(_ microseconds: Int64) {
        let v = max(0, microseconds)
        count += 1
        total += v
        maximum = max(maximum, v)
    }

    public var mean: Double { count > 0 ? Double(total) / Double(count) : 0 }
}
