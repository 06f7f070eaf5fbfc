import BoardConfig
import Gestures
import TouchCore
import TouchOutputs
import TouchService
import TouchTrace

/// `touchwire replay`: a trace through the engine on a virtual clock (`formats.md` §3).
///
/// No sleeping and no real clock: frames are processed at their `t_us`, timers fire at their
/// deadlines, and after the last frame the clock runs on until no timer is pending. The same
/// trace and board give byte-identical output on every run and every machine.
package enum Replay {
    /// The bytes of event lines gathered into one write by the streaming replay: 256 KiB.
    package static let defaultBlockSize = 256 * 1024

    /// Replays `trace` through `engine`, writing event lines (and with `delivery`, region
    /// deliveries) to `output`.
    ///
    /// With `passthrough`, the frames the UI would receive under `[passthrough]` (S22–S27 mapped
    /// onto a touchscreen, `PassthroughTracker`) are handed to `passthrough.onFrame` as they happen.
    package static func run(
        trace: Trace, engine: GestureEngine, delivery: Bool, output: any LineSink,
        passthrough: PassthroughTracker? = nil
    ) {
        let sink = EncodingSink(names: EngineBuilder.names(of: engine), delivery: delivery, output: output)
        // `wrapper` (held by the engine as its sink, and here) wraps the encoder for the passthrough.
        let wrapper = passthrough.map { PassthroughSink(inner: sink, tracker: $0) }
        engine.sink = wrapper ?? sink
        defer { withExtendedLifetime(wrapper) {} }
        for frame in trace.frames {
            passthrough?.observe(frame)
            engine.process(frame)
            passthrough?.flush()
        }
        engine.drainTimers()
        passthrough?.flush()
        output.flush()
        engine.sink = nil
    }

    /// Streams the trace file at `path` through `engine`: frames are read, processed and their
    /// events written one after another, so memory stays flat whatever the trace's size. With
    /// `validateFirst` (the CLI's choice) the whole file is checked before the first frame is
    /// processed, so a bad trace produces its error and no events; otherwise events of the
    /// frames before a bad line have been written when the error is thrown. Returns the frames replayed.
    ///
    /// Event lines are encoded into a block handed to `output` as one write each time it holds
    /// `blockSize` bytes (whole lines only), and once more at the end; `blockSize` 0 writes each
    /// line on its own.
    @discardableResult
    package static func run(
        path: String, engine: GestureEngine, delivery: Bool, output: any LineSink, validateFirst: Bool = true,
        passthrough: PassthroughTracker? = nil, blockSize: Int = defaultBlockSize
    ) throws(TraceError) -> Int {
        if validateFirst { _ = try TraceFileReader.validate(path: path) }
        let reader = try TraceFileReader(path: path)
        let sink = EncodingSink(
            names: EngineBuilder.names(of: engine), delivery: delivery, output: output, blockSize: blockSize)
        // `wrapper` (held by the engine as its sink, and here) wraps the encoder for the passthrough.
        let wrapper = passthrough.map { PassthroughSink(inner: sink, tracker: $0) }
        engine.sink = wrapper ?? sink
        defer {
            sink.writeBlock()
            output.flush()
            engine.sink = nil
            withExtendedLifetime(wrapper) {}
        }
        var frames = 0
        var frame = TouchFrame(timestamp: .zero)
        while try reader.next(into: &frame) {
            passthrough?.observe(frame)
            engine.process(frame)
            passthrough?.flush()
            frames += 1
        }
        engine.drainTimers()
        passthrough?.flush()
        return frames
    }
}

/// Encodes every action (and optionally every delivery) to a line sink, in order. With a
/// `blockSize`, lines are encoded straight into one reusable block (`LineBlock`) and the block
/// goes to `output` as one write once it holds `blockSize` bytes (and at `flush`); without one
/// (0), each line is written on its own.
final class EncodingSink: GestureEventSink {
    let encoder: EventJSONEncoder
    let delivery: Bool
    let output: any LineSink
    let blockSize: Int
    var block: LineBlock

    init(names: EventNames, delivery: Bool, output: any LineSink, blockSize: Int = 0) {
        encoder = EventJSONEncoder(names: names)
        self.delivery = delivery
        self.output = output
        self.blockSize = blockSize
        block = LineBlock(capacity: blockSize + 4096)
    }

    func emit(_ event: GestureEvent) {
        encoder.encode(event, into: &block)
        if block.count >= blockSize { writeBlock() }
    }

    func deliver(_ d: RegionDelivery) {
        guard delivery else { return }
        encoder.encode(d, into: &block)
        if block.count >= blockSize { writeBlock() }
    }

    /// Hands what is gathered to `output` as one write.
    func writeBlock() {
        guard block.count > 0 else { return }
        block.withBytes { output.write($0) }
        block.removeAll()
    }
}

/// Gathers whole lines into blocks of `capacity` bytes and hands each block to `output` as one
/// write: for replay, whose reader wants throughput, not a write per event. Lines are never
/// split across blocks; `flush()` passes on what is gathered and flushes `output`.
package final class BlockBufferedSink: LineSink {
    package let output: any LineSink
    private let storage: UnsafeMutableRawBufferPointer
    private var used = 0

    package init(_ output: any LineSink, capacity: Int = 64 * 1024) {
        self.output = output
        storage = .allocate(byteCount: max(capacity, 256), alignment: 8)
    }

    deinit {
        flushBlock()
        storage.deallocate()
    }

    package func write(_ line: UnsafeRawBufferPointer) {
        if used + line.count > storage.count { flushBlock() }
        if line.count > storage.count {
            output.write(line)
            return
        }
        UnsafeMutableRawBufferPointer(rebasing: storage[used..<(used + line.count)]).copyMemory(from: line)
        used += line.count
    }

    package func flush() {
        flushBlock()
        output.flush()
    }

    private func flushBlock() {
        guard used > 0 else { return }
        output.write(UnsafeRawBufferPointer(rebasing: storage[0..<used]))
        used = 0
    }
}
