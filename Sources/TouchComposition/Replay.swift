import BoardConfig
import Gestures
import TouchCore
import TouchOutputs
import TouchTrace
import TouchService

/// `touchwire replay`: a trace through the engine on a virtual clock (`formats.md` §3).
///
/// No sleeping and no real clock: frames are processed at their `t_us`, timers fire at their
/// deadlines, and after the last frame the clock runs on until no timer is pending. The same
/// trace and board give byte-identical output on every run and every machine.
public enum Replay {
    /// Replays `trace` through `engine`, writing event lines (and with `delivery`, region
    /// deliveries) to `output`.
    public static func run(trace: Trace, engine: GestureEngine, delivery: Bool, output: any LineSink) {
        let sink = EncodingSink(names: EngineBuilder.names(of: engine), delivery: delivery, output: output)
        engine.sink = sink
        for frame in trace.frames { engine.process(frame) }
        engine.drainTimers()
        output.flush()
        engine.sink = nil
    }
}

/// Encodes every action (and optionally every delivery) straight to a line sink, in order.
final class EncodingSink: GestureEventSink {
    let encoder: EventJSONEncoder
    let delivery: Bool
    let output: any LineSink
    var buffer: [UInt8] = []

    init(names: EventNames, delivery: Bool, output: any LineSink) {
        encoder = EventJSONEncoder(names: names)
        self.delivery = delivery
        self.output = output
        buffer.reserveCapacity(512)
    }

    func emit(_ event: GestureEvent) {
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        buffer.withUnsafeBytes { output.write($0) }
    }

    func deliver(_ d: RegionDelivery) {
        guard delivery else { return }
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(d, into: &buffer)
        buffer.withUnsafeBytes { output.write($0) }
    }
}
