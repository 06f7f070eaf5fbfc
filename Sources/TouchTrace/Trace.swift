import TouchCore

/// The first line of a trace (`formats.md` §1):
/// `{"touchwire_trace":1,"panel":{"width":800,"height":480},"source":"sim"}`.
package struct TraceHeader: Hashable, Sendable {
    /// The format version this library reads and writes.
    package static let formatVersion = 1

    /// Panel width in pixels (contacts are in panel pixels after the orientation transform).
    package var panelWidth: Int
    /// Panel height in pixels.
    package var panelHeight: Int
    /// Free text naming where the trace came from ("sim", a board name, a data set); "" when absent.
    package var source: String

    package init(panelWidth: Int, panelHeight: Int, source: String = "") {
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        self.source = source
    }
}

/// One frame line of a trace: a complete snapshot of the contacts down at `t_us`, or a
/// system cancel (`{"t_us":…,"cancel":true}` becomes `TouchFrame.cancel(at:)`).
package struct TraceRecord: Sendable, Equatable {
    /// The frame; its timestamp is the line's `t_us`.
    package var frame: TouchFrame
    /// The 1-based line number in the file it was read from (0 for records built in memory).
    package var line: Int

    package init(frame: TouchFrame, line: Int = 0) {
        self.frame = frame
        self.line = line
    }
}

/// A whole trace, validated: the header and every frame in file order.
package struct Trace: Sendable {
    package var header: TraceHeader
    /// Frames in file order; timestamps are non-decreasing.
    package var frames: [TouchFrame]

    package init(header: TraceHeader, frames: [TouchFrame]) {
        self.header = header
        self.frames = frames
    }
}
