import TouchCore
import TouchDrivers
import TouchTrace

/// A controller model that can be shown a snapshot of the fingers on the glass.
package protocol TouchPresenting: AnyObject {
    /// Loads `contacts` as the controller's next report, exactly as the chip would encode it.
    func present(_ contacts: TouchFrame)
}

extension FT6x36Model: TouchPresenting {
    package func present(_ contacts: TouchFrame) { present(contacts, gestureID: FocalTechRegisters.GestureID.none) }
}

/// Plays a script of frames (a trace, or `DemoScript`) into a controller model on the
/// simulated clock: the world side of a simulated run.
///
/// Frame times are taken relative to the first frame's timestamp, and the script starts at
/// `start` (or at the first `advance` when `start` is nil). `advance(to: now, model:)`
/// presents the latest frame whose relative time is ≤ `now − start`, once — frames that
/// were overtaken between two calls are skipped, as a chip's report register is
/// overwritten when nobody reads it. With a `loopPeriod` the script restarts every period
/// (frames later than the period never play). Time moves only when the caller advances it.
///
/// No allocation per call; single-threaded, like the rest of the simulated world.
package struct TouchScriptPlayer: Sendable {
    /// The script, in time order.
    package let frames: [TouchFrame]
    /// When the script (loop 0) starts; nil until the first `advance` when not given.
    package private(set) var start: Instant?
    /// Microseconds between loop starts; nil plays once and then holds the last frame.
    package let loopPeriod: Int64?
    /// Index of the frame last presented, nil before any (and at each new loop).
    package private(set) var currentIndex: Int?
    /// The loop number of `currentIndex` (0 for the first pass).
    package private(set) var currentLoop: Int64 = 0
    /// Frames presented so far.
    package private(set) var presentedCount = 0

    private let origin: Int64

    /// A player over `frames` (must be in non-decreasing time order, as a `Trace` is).
    /// `loopPeriod` must be positive to loop; zero or negative plays once.
    package init(frames: [TouchFrame], start: Instant? = nil, loopPeriod: Int64? = nil) {
        self.frames = frames
        self.start = start
        self.loopPeriod = loopPeriod.flatMap { $0 > 0 ? $0 : nil }
        origin = frames.first?.timestamp.microseconds ?? 0
    }

    /// A player over a trace's frames.
    package init(trace: Trace, start: Instant? = nil, loopPeriod: Int64? = nil) {
        self.init(frames: trace.frames, start: start, loopPeriod: loopPeriod)
    }

    /// When the next frame after `now` becomes due (what a chip's INT edge would announce), or
    /// nil when the script has nothing left to play. Before the first `advance`, `now` is the start.
    package func nextFrameTime(after now: Instant) -> Instant? {
        guard !frames.isEmpty else { return nil }
        let begin = start ?? now
        var elapsed = now.microseconds(since: begin)
        if elapsed < 0 { return begin.advanced(byMicroseconds: frames[0].timestamp.microseconds - origin) }
        var loopStart: Int64 = 0
        if let period = loopPeriod {
            loopStart = (elapsed / period) * period
            elapsed -= loopStart
        }
        var i = 0
        while i < frames.count && frames[i].timestamp.microseconds - origin <= elapsed { i += 1 }
        if i < frames.count, loopPeriod.map({ frames[i].timestamp.microseconds - origin < $0 }) ?? true {
            return begin.advanced(byMicroseconds: loopStart + frames[i].timestamp.microseconds - origin)
        }
        guard let period = loopPeriod else { return nil }
        return begin.advanced(byMicroseconds: loopStart + period)
    }

    /// Time of the last frame relative to the first: the script's length.
    package var duration: Int64 { (frames.last?.timestamp.microseconds ?? origin) - origin }

    /// True when playing once and the last frame has been presented.
    package var isFinished: Bool { loopPeriod == nil && currentIndex == frames.count - 1 }

    /// Presents the frame due at `now` into `model` if it is not the one presented last.
    /// Returns the frame presented, nil when nothing new was due.
    @discardableResult
    package mutating func advance(to now: Instant, model: some TouchPresenting) -> TouchFrame? {
        guard !frames.isEmpty else { return nil }
        if start == nil { start = now }
        var elapsed = now.microseconds(since: start ?? now)
        guard elapsed >= 0 else { return nil }
        var loop: Int64 = 0
        if let period = loopPeriod {
            loop = elapsed / period
            elapsed %= period
        }
        if loop != currentLoop {
            currentLoop = loop
            currentIndex = nil
        }
        // The latest frame with relative time ≤ elapsed, searching forward from the last one.
        var index = currentIndex ?? -1
        while index + 1 < frames.count && frames[index + 1].timestamp.microseconds - origin <= elapsed { index += 1 }
        guard index >= 0, index != currentIndex else { return nil }
        currentIndex = index
        var frame = frames[index]
        frame.timestamp = now
        model.present(frame)
        presentedCount += 1
        return frame
    }
}
