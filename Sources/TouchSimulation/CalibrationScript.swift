import TouchCore
import TouchDrivers

/// The built-in calibration script (`[simulation] script = "calibration"`): a user pressing the
/// `touchwire calibrate` targets (five by default, or as many as `--points` asks for;
/// `CalibrationTargets`, tslib's order: top-left, top-right,
/// bottom-right, bottom-left, centre, inset 10 %) on a panel whose touch layer is deliberately
/// misaligned with the display, so that `calibrate` on a simulated board has a known answer.
///
/// The "panel" (`distortion`): a display point `(x, y)` (unrotated display pixels, the space
/// calibration maps into) is reported, after the board's `invert_*`/`swap_xy`, at
///
///     x_raw =  0.92·x + 0.03·y + 0.04·W
///     y_raw = −0.02·x + 0.88·y + 0.05·H
///
/// (scaled to 92 % / 88 %, sheared by 3 % and −2 %, offset by 4 % / 5 % of the unrotated
/// display's `W × H`), then turned back through `swap_xy` and `invert_*` into the chip's raw
/// coordinates and rounded to whole chip units, as a controller reports them. A correct
/// calibration is therefore the inverse of `distortion` (up to that rounding).
///
/// Timeline (100 Hz samples, tracking id 0, an empty frame at each lift):
/// - 0 ms: all up.
/// - 500 ms: a sloppy press on the first target that slides 30 px in 150 ms: `calibrate` must
///   reject it (moved too far) and ask again.
/// - then each of the five targets in order, 600 ms after the previous lift, held 200 ms still
///   with ±1 chip unit of jitter (x: 0, +1, 0, −1; y: 0, 0, +1, 0 …), so the median is the
///   undisturbed point.
/// - 500 ms of quiet after the last lift.
///
/// Deterministic: the same transform always gives the same frames.
package enum CalibrationScript {
    /// Sampling period: 10 ms (100 Hz).
    package static let samplePeriod: Int64 = 10_000
    /// How long each good press is held.
    package static let holdLength: Int64 = 200_000
    /// How far the sloppy first press slides, chip units.
    package static let slide: Double = 30

    /// The simulated panel's misalignment for an unrotated display of `width × height`: display
    /// point → point after invert/swap (what the driver reports before calibration).
    package static func distortion(width: Int, height: Int) -> AffineCalibration {
        AffineCalibration(
            a0: 0.92, a1: 0.03, a2: 0.04 * Double(width), a3: -0.02, a4: 0.88, a5: 0.05 * Double(height), a6: 1)
    }

    /// The distortion for a board's transform (its unrotated display size).
    package static func distortion(for transform: PanelTransform) -> AffineCalibration {
        distortion(width: transform.unrotatedWidth, height: transform.unrotatedHeight)
    }

    /// The chip's raw report for a finger on the panel point `target` (panel pixels, after rotation).
    package static func rawPoint(for target: Point, transform: PanelTransform) -> Point {
        let display = transform.unrotated(target)
        let oriented = distortion(for: transform).apply(display)
        let raw = transform.unoriented(oriented)
        return Point(x: min(max(raw.x.rounded(), 0), 4095), y: min(max(raw.y.rounded(), 0), 4095))
    }

    /// The script's frames for a board's transform (its calibration is ignored), timestamps from 0 µs:
    /// presses on the `targets` targets of `CalibrationTargets` (4, 5 or 9; none for another count).
    package static func frames(transform: PanelTransform, targets count: Int = 5) -> [TouchFrame] {
        let targets =
            CalibrationTargets.points(
                count: count, panelWidth: transform.panelWidth, panelHeight: transform.panelHeight)
            ?? []
        var frames: [TouchFrame] = [TouchFrame(timestamp: .zero)]
        func down(_ t: Int64, _ p: Point) {
            let x = min(max(p.x, 0), 4095)
            let y = min(max(p.y, 0), 4095)
            frames.append(TouchFrame(timestamp: Instant(microseconds: t), contacts: [Contact(id: 0, x: x, y: y)]))
        }
        var t: Int64 = 500_000
        // The sloppy press: slides along raw x.
        if let first = targets.first {
            let raw = rawPoint(for: first.point, transform: transform)
            var s: Int64 = 0
            while s <= 150_000 {
                down(t + s, Point(x: raw.x + slide * Double(s) / 150_000, y: raw.y))
                s += samplePeriod
            }
            t += 150_000 + samplePeriod
            frames.append(TouchFrame(timestamp: Instant(microseconds: t)))
        }
        let jitterX: [Double] = [0, 1, 0, -1]
        let jitterY: [Double] = [0, 0, 1, 0]
        for target in targets {
            t += 600_000
            let raw = rawPoint(for: target.point, transform: transform)
            var s: Int64 = 0
            var k = 0
            while s < holdLength {
                down(t + s, Point(x: raw.x + jitterX[k % 4], y: raw.y + jitterY[k % 4]))
                s += samplePeriod
                k += 1
            }
            t += holdLength
            frames.append(TouchFrame(timestamp: Instant(microseconds: t)))
        }
        frames.append(TouchFrame(timestamp: Instant(microseconds: t + 500_000)))
        return frames
    }
}
