import TouchCore

/// The touch panel: its size in pixels and, optionally, in millimetres (`[panel]`).
package struct PanelDescription: Sendable, Equatable {
    /// Width in pixels (≥ 1).
    package var width: Int
    /// Height in pixels (≥ 1).
    package var height: Int
    /// Physical width of the active area in mm; given together with `heightMillimetres` or not at all.
    package var widthMillimetres: Double?
    /// Physical height of the active area in mm.
    package var heightMillimetres: Double?

    package init(width: Int, height: Int, widthMillimetres: Double? = nil, heightMillimetres: Double? = nil) {
        self.width = width
        self.height = height
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
    }

    /// Pixels per point, where 1 pt = 1/160 inch (`formats.md` §4).
    ///
    /// Without physical sizes 1 pt = 1 px. With them, each axis gives
    /// `pixels / mm × 25.4 / 160` and the result is the mean of the two axes.
    /// Board thresholds (in points) are multiplied by this to get pixels.
    package var pointsToPixels: Double {
        guard let wmm = widthMillimetres, let hmm = heightMillimetres, wmm > 0, hmm > 0 else { return 1 }
        let perInch = 25.4 / 160
        let x = Double(width) / wmm * perInch
        let y = Double(height) / hmm * perInch
        return (x + y) / 2
    }

    /// The whole panel as a rectangle in pixels.
    package var bounds: Rect { Rect(x: 0, y: 0, width: Double(width), height: Double(height)) }
}
