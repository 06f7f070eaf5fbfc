import TouchCore

/// tslib's linear calibration: the 7 integers of `/etc/pointercal` (`a0 … a6`).
///
/// tslib `plugins/linear.c`: `x' = (a2 + a0·x + a1·y) / a6`, `y' = (a5 + a3·x + a4·y) / a6`.
/// The file may carry two more numbers (the screen resolution it was made for); they are
/// ignored here. `a6` must be non-zero.
package struct AffineCalibration: Hashable, Sendable, BitwiseCopyable {
    package var a0, a1, a2, a3, a4, a5, a6: Double

    /// The identity (`1 0 0 0 1 0 1`).
    package static let identity = AffineCalibration(a0: 1, a1: 0, a2: 0, a3: 0, a4: 1, a5: 0, a6: 1)

    package init(a0: Double, a1: Double, a2: Double, a3: Double, a4: Double, a5: Double, a6: Double) {
        (self.a0, self.a1, self.a2, self.a3, self.a4, self.a5, self.a6) = (a0, a1, a2, a3, a4, a5, a6)
    }

    /// Seven numbers in pointercal order; nil unless there are 7 (or 9) finite numbers with a6 ≠ 0.
    package init?(pointercal numbers: [Double]) {
        guard numbers.count == 7 || numbers.count == 9, numbers.allSatisfy(\.isFinite), numbers[6] != 0 else {
            return nil
        }
        self.init(
            a0: numbers[0], a1: numbers[1], a2: numbers[2], a3: numbers[3], a4: numbers[4], a5: numbers[5],
            a6: numbers[6])
    }

    /// Parses the text of a pointercal file ("1 0 0 0 1 0 1", whitespace separated).
    package init?(pointercalText text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        var numbers: [Double] = []
        for p in parts {
            guard let v = Double(p) else { return nil }
            numbers.append(v)
        }
        self.init(pointercal: numbers)
    }

    /// The calibrated point.
    @inlinable package func apply(_ p: Point) -> Point {
        Point(x: (a2 + a0 * p.x + a1 * p.y) / a6, y: (a5 + a3 * p.x + a4 * p.y) / a6)
    }
}

/// The one place raw controller coordinates become panel pixels. Pure, no allocation.
///
/// Order (Linux `touchscreen_report_pos`, Zephyr `input_touchscreen_report_pos`, then
/// the board's rotation and tslib's calibration):
/// 1. `invertX` / `invertY` on the chip's raw axes (`x = rawWidth − 1 − x`);
/// 2. `swapXY`;
/// 3. `calibration` (tslib linear), in the unrotated display's pixels;
/// 4. `rotation`, clockwise: 90° maps `(x, y)` of a `W × H` image to `(H − 1 − y, x)`.
///
/// The panel is `panelWidth × panelHeight` after all four. The raw range the chip reports
/// is therefore `panelWidth × panelHeight` turned back by the rotation and swap
/// (`rawWidth`, `rawHeight`). A point that lands outside the panel is rejected (nil): the
/// caller counts it (no phantom actions: rpi/linux #4749).
package struct PanelTransform: Hashable, Sendable, BitwiseCopyable {
    package var panelWidth: Int
    package var panelHeight: Int
    /// Clockwise quarter turns, 0…3.
    package var quarterTurns: Int
    package var swapXY: Bool
    package var invertX: Bool
    package var invertY: Bool
    package var calibration: AffineCalibration?

    package init(
        panelWidth: Int, panelHeight: Int, rotationDegrees: Int = 0, swapXY: Bool = false, invertX: Bool = false,
        invertY: Bool = false, calibration: AffineCalibration? = nil
    ) {
        self.panelWidth = max(panelWidth, 1)
        self.panelHeight = max(panelHeight, 1)
        self.quarterTurns = ((rotationDegrees / 90) % 4 + 4) % 4
        self.swapXY = swapXY
        self.invertX = invertX
        self.invertY = invertY
        self.calibration = calibration
    }

    /// Width of the image before rotation (after swap).
    @inlinable package var unrotatedWidth: Int { quarterTurns % 2 == 0 ? panelWidth : panelHeight }
    /// Height of the image before rotation (after swap).
    @inlinable package var unrotatedHeight: Int { quarterTurns % 2 == 0 ? panelHeight : panelWidth }
    /// The chip's X range (exclusive): what the decoder checks raw X against.
    @inlinable package var rawWidth: Int { swapXY ? unrotatedHeight : unrotatedWidth }
    /// The chip's Y range (exclusive).
    @inlinable package var rawHeight: Int { swapXY ? unrotatedWidth : unrotatedHeight }

    /// Steps 1 and 2 (invert, swap): the point calibration is applied to (and what
    /// `touchwire calibrate` fits).
    @inlinable package func oriented(_ raw: Point) -> Point {
        var x = raw.x
        var y = raw.y
        if invertX { x = Double(rawWidth - 1) - x }
        if invertY { y = Double(rawHeight - 1) - y }
        if swapXY { swap(&x, &y) }
        return Point(x: x, y: y)
    }

    /// The inverse of `oriented`: the chip's raw point for a point after invert and swap.
    @inlinable package func unoriented(_ p: Point) -> Point {
        var x = p.x
        var y = p.y
        if swapXY { swap(&x, &y) }
        if invertX { x = Double(rawWidth - 1) - x }
        if invertY { y = Double(rawHeight - 1) - y }
        return Point(x: x, y: y)
    }

    /// Step 4 (rotation): an unrotated display point to panel pixels.
    @inlinable package func rotated(_ p: Point) -> Point {
        let w = Double(unrotatedWidth)
        let h = Double(unrotatedHeight)
        switch quarterTurns {
        case 1: return Point(x: h - 1 - p.y, y: p.x)
        case 2: return Point(x: w - 1 - p.x, y: h - 1 - p.y)
        case 3: return Point(x: p.y, y: w - 1 - p.x)
        default: return p
        }
    }

    /// The inverse of `rotated`: a panel pixel in the unrotated display, where calibration maps to.
    @inlinable package func unrotated(_ p: Point) -> Point {
        let w = Double(unrotatedWidth)
        let h = Double(unrotatedHeight)
        switch quarterTurns {
        case 1: return Point(x: p.y, y: h - 1 - p.x)
        case 2: return Point(x: w - 1 - p.x, y: h - 1 - p.y)
        case 3: return Point(x: w - 1 - p.y, y: p.x)
        default: return p
        }
    }

    /// Panel pixels for a raw point, nil when the result lies outside the panel.
    @inlinable package func apply(_ raw: Point) -> Point? {
        var p = oriented(raw)
        if let c = calibration { p = c.apply(p) }
        let out = rotated(p)
        guard out.x.isFinite, out.y.isFinite, out.x >= 0, out.y >= 0, out.x < Double(panelWidth),
            out.y < Double(panelHeight)
        else { return nil }
        return out
    }

    /// Transforms every contact of `frame` in place order; contacts landing outside the panel
    /// are removed. Returns how many were removed.
    @inlinable package func apply(to frame: inout TouchFrame) -> Int {
        guard !frame.isCancel else { return 0 }
        var out = TouchFrame(timestamp: frame.timestamp)
        var rejected = 0
        var i = 0
        while i < frame.count {
            var c = frame[i]
            i += 1
            if let p = apply(c.position) {
                c.position = p
                out.append(c)
            } else {
                rejected += 1
            }
        }
        frame = out
        return rejected
    }
}
