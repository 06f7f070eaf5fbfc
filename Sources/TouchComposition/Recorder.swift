import BoardConfig
import Logging
import TouchCore
import TouchLinux
import TouchRing
import TouchService
import TouchTrace

/// `touchwire record`: the driver half of the pipeline writing a touch trace (`formats.md` §1).
///
/// The controller is read exactly as `run` reads it — same driver, same orientation and
/// calibration, same protections — and every frame the driver stage queues (a change of the
/// contacts, or a system cancel) becomes one trace line, so a recording replays through
/// `touchwire replay` to the gestures the service would have seen.
package final class Recorder {
    package let driver: DriverStage
    package let frames: FrameQueue
    package let writer: TraceFileWriter
    /// Where the trace goes (`OutputFile`): a new file renamed over the path by `finish`.
    package let file: OutputFile
    /// The polling period when no INT line is used.
    package let pollIntervalMicroseconds: Int64
    /// Frames written so far.
    package private(set) var framesWritten = 0

    /// Opens the controller of `board` and opens `path` (`OutputFile`; never one of `inputs`, the
    /// board file) with the trace header. `clock`: the
    /// caller's clock when it reads in real time (a simulated board then follows it; see
    /// `ControllerFactory.make`); nil when the caller steps at instants it chooses from `start`.
    package init(
        board: BoardDescription, path: String, inputs: [String] = [], logger: Logger, start: Instant,
        clock: (any TouchClock)? = nil
    ) throws(ServiceError) {
        do throws(OutputFileError) {
            file = try OutputFile(path: path, inputs: inputs)
        } catch {
            throw .traceFile(error: .io(file: path, message: "cannot write trace: \(error.reason)"))
        }
        let setup = try ControllerFactory.make(board, start: start, clock: clock)
        frames = FrameQueue(capacity: 256)
        driver = DriverStage(
            controller: setup.controller, frames: frames, transform: setup.transform,
            protection: setup.protection, schedule: setup.schedule,
            log: { [logger] message in logger.notice("\(message)") })
        pollIntervalMicroseconds = setup.pollIntervalMicroseconds
        writer = TraceFileWriter(
            path: path,
            header: TraceHeader(
                panelWidth: board.panel.width, panelHeight: board.panel.height,
                source: "touchwire record, board \(board.name)"),
            output: file.traceOutput)
    }

    /// Reads the controller once at `now` (the INT edge's instant when `edge`) and writes what it queued.
    package func step(at now: Instant, edge: Bool = false) throws(TraceError) {
        driver.poll(at: now, edge: edge)
        try drain()
    }

    /// Writes every frame the driver stage has queued.
    package func drain() throws(TraceError) {
        while let frame = frames.poll() {
            try writer.append(frame)
            framesWritten += 1
        }
    }

    /// Ends the recording: a finger still down gets a system cancel line at `now` (the recording
    /// was cut, the finger did not lift), so the trace never leaves a touch without an end; then
    /// the file is flushed, closed and put in place (renamed over the path).
    package func finish(at now: Instant) throws(TraceError) {
        try drain()
        if driver.hasContactsDown {
            try writer.append(.cancel(at: now))
            framesWritten += 1
        }
        try writer.close()
        try file.commitTrace()
    }
}
