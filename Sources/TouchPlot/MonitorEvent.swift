import TouchCore

/// The fields of one event line (`formats.md` §2) that the monitor shows, read back from the
/// service's socket stream. Pure: `parse` takes the line's text.
package struct MonitorEvent: Sendable, Equatable {
    package var time: Int64
    package var recognizer: String
    package var state: String
    package var location: Point
    /// Swipe direction, or "" for other kinds.
    package var direction: String

    package init(time: Int64, recognizer: String, state: String, location: Point, direction: String = "") {
        self.time = time
        self.recognizer = recognizer
        self.state = state
        self.location = location
        self.direction = direction
    }

    /// The event of a JSON event line, or nil when the line is not one (a delivery line, a
    /// status line, or garbage): `t_us` (an integer), `recognizer`, `state`, `x` and `y` (finite
    /// numbers: the service never writes NaN or ∞) must be present.
    package static func parse(_ line: Substring) -> MonitorEvent? {
        guard let t = value(of: "t_us", in: line).flatMap({ Int64($0) }),
            let recognizer = value(of: "recognizer", in: line),
            let state = value(of: "state", in: line),
            let x = value(of: "x", in: line).flatMap({ Double($0) }), x.isFinite,
            let y = value(of: "y", in: line).flatMap({ Double($0) }), y.isFinite
        else { return nil }
        return MonitorEvent(
            time: t, recognizer: recognizer, state: state, location: Point(x: x, y: y),
            direction: value(of: "direction", in: line) ?? "")
    }

    /// The screen's new state (`on`, `dimmed` or `off`) of a `display` event line
    /// (`{"t_us":…,"display":"off","cause":"idle"}`, formats.md §2), or nil when the line is not
    /// one (a gesture or delivery line, a reply, garbage).
    package static func displayState(_ line: Substring) -> String? {
        guard value(of: "t_us", in: line).flatMap({ Int64($0) }) != nil, value(of: "recognizer", in: line) == nil,
            value(of: "reply", in: line) == nil, let state = value(of: "display", in: line),
            ["on", "dimmed", "off"].contains(state)
        else { return nil }
        return state
    }

    /// The screen's state in a reply to `display status` (`{"reply":"status","display":"off",…}`,
    /// formats.md §6), or nil when the line is not one.
    package static func displayStatusReply(_ line: Substring) -> String? {
        guard value(of: "reply", in: line) == "status", let state = value(of: "display", in: line),
            ["on", "dimmed", "off"].contains(state)
        else { return nil }
        return state
    }

    /// Appends `event` to the last-gestures list `recent`, keeping at most `limit`. A `changed`
    /// right after a `changed` of the same recognizer replaces it, so a running pan is one line.
    package static func append(_ event: MonitorEvent, to recent: inout [MonitorEvent], limit: Int = 8) {
        if event.state == "changed", let last = recent.last, last.state == "changed",
            last.recognizer == event.recognizer
        {
            recent[recent.count - 1] = event
        } else {
            recent.append(event)
        }
        if recent.count > limit { recent.removeFirst(recent.count - limit) }
    }

    /// "t 1.234 s  tap recognized at (400, 240)".
    package var summary: String {
        var s = "t \(SVGWriter.seconds(time)) s  \(recognizer) \(state)"
        if !direction.isEmpty { s += " \(direction)" }
        return s + " at (\(SVGWriter.number(location.x)), \(SVGWriter.number(location.y)))"
    }

    /// The raw value of top-level `"key":` — a string's contents (with `\"` and `\\` unescaped)
    /// or a number's text.
    static func value(of key: String, in line: Substring) -> String? {
        guard let keyRange = line.firstRange(of: "\"" + key + "\":") else { return nil }
        var i = keyRange.upperBound
        guard i < line.endIndex else { return nil }
        if line[i] == "\"" {
            i = line.index(after: i)
            var out = ""
            while i < line.endIndex {
                let ch = line[i]
                if ch == "\"" { return out }
                if ch == "\\" {
                    i = line.index(after: i)
                    guard i < line.endIndex else { return nil }
                }
                out.append(line[i])
                i = line.index(after: i)
            }
            return nil
        }
        var out = ""
        while i < line.endIndex, line[i] != ",", line[i] != "}" {
            out.append(line[i])
            i = line.index(after: i)
        }
        let trimmed = out.filter { $0 != " " }
        return trimmed.isEmpty ? nil : trimmed
    }
}
