import TouchCore

/// The panel drawn with characters for `touchwire monitor`: region outlines, touches and the
/// places where the last gestures happened, on a grid of `columns` × `rows` cells.
///
/// Pure: the same input gives the same lines. Outlines use `+ - |` (controls `# = !`), a region's
/// name is written into its top edge, a touch is its tracking id's last digit, and a gesture
/// mark is its character (`*` by default). Later layers win: regions, then marks, then touches.
package struct TerminalPanel: Sendable {
    /// One region outline.
    package struct Outline: Sendable, Equatable {
        package var name: String
        package var frame: Rect
        package var isControl: Bool
        package init(name: String, frame: Rect, isControl: Bool) {
            self.name = name
            self.frame = frame
            self.isControl = isControl
        }
    }

    package var panelWidth: Double
    package var panelHeight: Double
    package var columns: Int
    package var rows: Int
    package var outlines: [Outline]

    /// A grid for a `panelWidth` × `panelHeight` px panel; `rows` 0 picks the rows that keep the
    /// panel's aspect ratio with terminal cells twice as tall as wide.
    package init(panelWidth: Double, panelHeight: Double, columns: Int = 64, rows: Int = 0, outlines: [Outline]) {
        self.panelWidth = max(panelWidth, 1)
        self.panelHeight = max(panelHeight, 1)
        self.columns = max(columns, 8)
        let natural = Int(saturating: (Double(self.columns) * self.panelHeight / self.panelWidth / 2).rounded())
        self.rows = rows > 0 ? rows : min(max(natural, 4), 40)
        // Region names come from the board: drawn one character a cell, controls as "?".
        self.outlines = outlines.map {
            Outline(name: TerminalText.masked($0.name), frame: $0.frame, isControl: $0.isControl)
        }
    }

    /// The cell (column, row) of a panel position, clamped to the grid (a position of 1e300, ∞
    /// or NaN from the stream lands on an edge, never traps).
    package func cell(_ p: Point) -> (column: Int, row: Int) {
        let c = Int(saturating: (p.x / panelWidth * Double(columns)).rounded(.down))
        let r = Int(saturating: (p.y / panelHeight * Double(rows)).rounded(.down))
        return (min(max(c, 0), columns - 1), min(max(r, 0), rows - 1))
    }

    /// The grid's lines (each exactly `columns` characters).
    package func render(touches: [Contact], marks: [(position: Point, symbol: Character)] = []) -> [String] {
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        for outline in outlines {
            let (c0, r0) = cell(Point(x: outline.frame.x, y: outline.frame.y))
            let right = outline.frame.x + outline.frame.width
            let bottom = outline.frame.y + outline.frame.height
            let (c1, r1) = cell(
                Point(x: right - panelWidth / Double(columns) / 2, y: bottom - panelHeight / Double(rows) / 2))
            let horizontal: Character = outline.isControl ? "=" : "-"
            let vertical: Character = outline.isControl ? "!" : "|"
            let corner: Character = outline.isControl ? "#" : "+"
            if c1 > c0 {
                for c in c0...c1 {
                    grid[r0][c] = horizontal
                    grid[r1][c] = horizontal
                }
            }
            if r1 > r0 {
                for r in r0...r1 {
                    grid[r][c0] = vertical
                    grid[r][c1] = vertical
                }
            }
            for (r, c) in [(r0, c0), (r0, c1), (r1, c0), (r1, c1)] { grid[r][c] = corner }
        }
        // Names after the outlines, so a region sharing an edge with its parent keeps both names
        // ("+screen-panel----+"): a name starts after any name already written on that edge.
        let border: Set<Character> = ["-", "=", "+", "#", "|", "!", " "]
        for outline in outlines {
            let (c0, r0) = cell(Point(x: outline.frame.x, y: outline.frame.y))
            let right = outline.frame.x + outline.frame.width
            let (c1, _) = cell(Point(x: right - panelWidth / Double(columns) / 2, y: outline.frame.y))
            var c = c0 + 1
            while c < c1 && !border.contains(grid[r0][c]) { c += 1 }
            if c > c0 + 1 { c += 1 }
            for ch in outline.name where c < c1 {
                grid[r0][c] = ch
                c += 1
            }
        }
        for mark in marks {
            let (c, r) = cell(mark.position)
            grid[r][c] = mark.symbol
        }
        for touch in touches {
            let (c, r) = cell(touch.position)
            grid[r][c] = Character(String(touch.id % 10))
        }
        return grid.map { String($0) }
    }
}

/// One whole monitor screen: a title, the panel in a frame, the figures and the last gestures.
package struct MonitorScreen: Sendable {
    /// ANSI: cursor home and clear screen, written before each screen.
    package static let clear = "\u{1B}[H\u{1B}[2J"

    package var title: String
    package var panel: [String]
    /// e.g. "frames/s 100.0   read→write 0.12 ms (max 0.40 ms)".
    package var figures: String
    /// The last gestures, oldest first.
    package var gestures: [String]

    package init(title: String, panel: [String], figures: String, gestures: [String]) {
        self.title = title
        self.panel = panel
        self.figures = figures
        self.gestures = gestures
    }

    /// The screen as text, lines ending in "\r\n" (correct on a raw terminal too). The only
    /// escape sequence in it is `clear`: every control character of the title (the board's name),
    /// the figures (a line each, split at "\r\n"), the gestures (names and states from the service's
    /// stream) and the panel is shown as `\u{1B}` (or `?` in the panel), never sent raw.
    package func render() -> String {
        var lines = [TerminalText.sanitized(title, limit: 400)]
        let width = panel.first?.count ?? 0
        let edge = "." + String(repeating: "-", count: width) + "."
        lines.append(edge)
        lines.append(contentsOf: panel.map { ":" + TerminalText.masked($0) + ":" })
        lines.append(edge)
        lines.append(
            contentsOf: figures.split(separator: "\r\n").map { TerminalText.sanitized(String($0), limit: 400) })
        lines.append("last gestures:")
        lines.append(
            contentsOf: gestures.isEmpty
                ? ["  (none yet)"] : gestures.map { "  " + TerminalText.sanitized($0, limit: 400) })
        return MonitorScreen.clear + lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Milliseconds with two decimals from microseconds ("0.12").
    package static func milliseconds(_ microseconds: Int64) -> String {
        let m = microseconds.magnitude  // any Int64, the ends too (a `t_us` of Int64.min from the stream)
        let hundredths = m / 10 + (m % 10 >= 5 ? 1 : 0)
        let fraction = String(hundredths % 100)
        return (microseconds < 0 ? "-" : "") + String(hundredths / 100) + "." + (fraction.count < 2 ? "0" : "")
            + fraction
    }

    /// A rate with one decimal ("99.5").
    package static func rate(_ value: Double) -> String { SVGWriter.number(value) }
}
