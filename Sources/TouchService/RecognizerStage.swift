import Gestures
import TouchCore
import TouchRing

/// One pass of the recognizer loop: every frame waiting in the ring, then the timers due by `now`.
///
/// Real-time safe: no allocation, lock or blocking call (checked by a malloc-counting test).
/// The thread that runs it (`ServiceThreads`) sleeps on a `Wakeup` until a frame or the
/// engine's next deadline; tests call `step(now:)` directly on an injected clock.
package final class RecognizerStage {
    package let frames: FrameQueue
    package let engine: GestureEngine
    /// The stage's mutable fields: its only `@exclusivity(unchecked)` stored property
    /// (`RecognizerStageFields`, whose contract is the recognizer stage's confinement). The
    /// properties below forward to it.
    @exclusivity(unchecked) private var fields = RecognizerStageFields()

    /// Frames handed to the engine so far.
    package private(set) var framesProcessed: Int {
        @inline(__always) get { fields.framesProcessed }
        @inline(__always) set { fields.framesProcessed = newValue }
    }
    /// When set, each frame's read → recognized latency is sampled (one clock read, one ring push).
    package var metrics: PipelineMetrics? {
        @inline(__always) get { fields.metrics }
        @inline(__always) set { fields.metrics = newValue }
    }
    /// With `[passthrough]`: sends the UI its touches after each frame and timer pass.
    package var passthrough: PassthroughTracker? {
        @inline(__always) get { fields.passthrough }
        @inline(__always) set { fields.passthrough = newValue }
    }
    /// With `[display]`: the touch-to-wake gate between the frames and the engine (so the
    /// passthrough and every binding too), and the display's idle time and commands.
    package var display: DisplayControl? {
        @inline(__always) get { fields.display }
        @inline(__always) set { fields.display = newValue }
    }
    /// The frame the engine gets when the gate removed swallowed touches (allocated once).
    private let scratch: UnsafeMutablePointer<TouchFrame>

    package init(frames: FrameQueue, engine: GestureEngine) {
        self.frames = frames
        self.engine = engine
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: TouchFrame(timestamp: .zero))
    }

    deinit { scratch.deallocate() }

    /// Processes the queued frames in order, then fires timers due by `now`. Returns the frames handled.
    ///
    /// Only a timer due moves the engine's clock to `now`: a pass with no frame and no timer due
    /// (the recognizer thread's idle wake) leaves it where the last frame or timer put it, so
    /// frames that were waiting in the kernel (a stalled process, an input device's kernel times)
    /// are still handled at their own times when the driver reads them a moment later, not all at
    /// `now` (S13: a touch's timestamp is when it changed).
    @discardableResult
    package func step(now: Instant) -> Int {
        var handled = 0
        // Each frame is handled where it lies in the ring (no copy of the 350-byte frame).
        while let frame = frames.first() {
            // The gate first: a swallowed wake touch reaches neither the UI nor the engine.
            let passed = display.map { $0.pass(frame, scratch: scratch) } ?? frame
            passthrough?.observe(passed.pointee)
            engine.process(frameAt: passed)
            let readAt = frame.pointee.timestamp
            frames.removeFirst()
            passthrough?.flush()
            metrics?.frameRecognized(readAt: readAt)
            handled += 1
        }
        if let due = engine.nextDeadline, due <= now { engine.advance(to: now) }
        passthrough?.flush()
        display?.step(now: now)
        framesProcessed += handled
        return handled
    }

    /// Microseconds until the engine's next timer, measured from `now` (nil: none armed).
    package func timeUntilNextDeadline(from now: Instant) -> Int64? {
        var deadline = engine.nextDeadline
        if let d = display?.nextDeadline { deadline = min(deadline ?? d, d) }
        guard let d = deadline else { return nil }
        return max(0, d.microseconds(since: now))
    }
}

/// `RecognizerStage`'s mutable fields, in one value held by the stage's only
/// `@exclusivity(unchecked)` stored property.
///
/// Contract: the stage is run by one thread at a time, the one holding `RecognizerTurns` (the
/// driver thread right after a read, or the recognizer thread; docs/ARCHITECTURE.md, "Threads"),
/// whose `StageHold` orders every write before a hand-over before every read after it; the parts
/// (`metrics`, `passthrough`, `display`) are set while the service is built, before any thread
/// starts. So no two accesses overlap, and the runtime's dynamic exclusivity check (its cost:
/// docs/PERFORMANCE.md) is left out. ThreadSanitizer checks it over the threaded service tests
/// (`tools/sanitize thread`; docs/RELIABILITY.md).
struct RecognizerStageFields {
    var framesProcessed = 0
    var metrics: PipelineMetrics?
    var passthrough: PassthroughTracker?
    var display: DisplayControl?
}
