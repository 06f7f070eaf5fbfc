import BoardConfig
import Gestures
import TouchCore
import TouchOutputs
import TouchTrace

/// `touchwire replay`: a trace through the engine on a virtual clock (`formats.md` §3).
///
/// No sleeping and no real clock: frames are processed at their `t_us`, timers fire at their
/// deadlines, and after the last frame the clock runs on until no timer is pending. The same
/// trace and board give byte-identical output on every run and every machine.
public enum Replay {
    /// Replays `trace` through `engine`, writing event lines (and with `delivery`, region
    /// deliveries) to `output`.
    ///
    /// With `passthrough`, the frames the UI would receive under `[passthrough]` (S22–S27 mapped
    /// onto a touchscreen, `PassthroughTracker`) are handed to `passthrough.onFrame` as they happen.
    public static func run(
        trace: Trace, engine: GestureEngine, delivery: Bool, output: any LineSink,
        passthrough: PassthroughTracker? = nil
    ) {
        let sink = EncodingSink(names: EngineBuilder.names(of: engine), delivery: delivery, output: output)
        // The engine holds its sink weakly: `wrapper` keeps the passthrough sink alive for the run.
        let wrapper = passthrough.map { PassthroughSink(inner: sink, tracker: $0) }
        engine.sink = wrapper ?? sink
        defer { withExtendedLifetime(wrapper) {} }
        for frame in trace.frames {
            engine.process(frame)
            passthrough?.flush()
        }
        engine.drainTimers()
        passthrough?.flush()
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
