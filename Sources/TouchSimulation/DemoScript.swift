import TouchCore

/// The built-in demo: one of each basic gesture, sampled at 100 Hz like a controller reports.
///
/// Timeline (times from the first frame; every gesture uses tracking id 0, reused after
/// each lift, as FocalTech chips do; a single empty frame marks each lift):
/// - 0 ms: all up.
/// - 500 ms: single tap in the upper left (a quarter across, a quarter down), 80 ms down.
/// - 1 580 ms (1 s after the lift — far more than a 400 ms double-tap window): double tap
///   in the upper right (three quarters across), 80 ms down, 120 ms up, 80 ms down.
/// - 2 860 ms: long press at the centre, 800 ms still.
/// - 4 660 ms: slow pan left to right across the lower part (65 % down), 20 % → 80 % of the
///   width in 1.5 s (≈ 0.4 panel widths per second).
///
/// Each gesture has its own place, so a plot of the demo shows four gestures apart.
/// - last pan sample at 6 160 ms, lift at 6 170 ms, then 1 s of quiet: `duration` = 7 170 ms,
///   the natural loop period.
///
/// Deterministic: the same sizes always give the same frames. Small jitter (±1 px) on
/// the still phases stands in for a real finger, so no frame is a perfect repeat of a
/// synthetic point.
package enum DemoScript {
    /// Sampling period: 10 ms (100 Hz).
    package static let samplePeriod: Int64 = 10_000
    /// Length of the demo including the trailing quiet second: the loop period.
    package static let duration: Int64 = 7_170_000

    /// The demo's frames, timestamps from 0 µs, coordinates inside a `panelWidth` × `panelHeight` panel.
    package static func frames(panelWidth: Int, panelHeight: Int) -> [TouchFrame] {
        let w = Double(max(panelWidth, 1))
        let h = Double(max(panelHeight, 1))
        var frames: [TouchFrame] = []
        frames.reserveCapacity(400)

        func up(_ t: Int64) { frames.append(TouchFrame(timestamp: Instant(microseconds: t))) }
        func down(_ t: Int64, _ x: Double, _ y: Double) {
            let px = min(max(x, 0), w - 1)
            let py = min(max(y, 0), h - 1)
            frames.append(
                TouchFrame(
                    timestamp: Instant(microseconds: t), contacts: [Contact(id: 0, x: px.rounded(), y: py.rounded())]))
        }
        /// A still finger from `t` for `length` µs; returns the lift time.
        func hold(from t: Int64, length: Int64, x: Double, y: Double) -> Int64 {
            var s: Int64 = 0
            var k = 0
            while s < length {
                let jitter = Double([0, 1, 0, -1][k % 4])
                down(t + s, x + jitter, y)
                s += samplePeriod
                k += 1
            }
            up(t + length)
            return t + length
        }

        up(0)
        // Single tap.
        var t = hold(from: 500_000, length: 80_000, x: w * 0.25, y: h * 0.25)
        // Double tap, 1 s later.
        t = hold(from: t + 1_000_000, length: 80_000, x: w * 0.75, y: h * 0.25)
        t = hold(from: t + 120_000, length: 80_000, x: w * 0.75 + 2, y: h * 0.25 + 1)
        // Long press.
        t = hold(from: t + 1_000_000, length: 800_000, x: w * 0.5, y: h * 0.5)
        // Slow pan.
        let panStart = t + 1_000_000
        let panLength: Int64 = 1_500_000
        var s: Int64 = 0
        while s <= panLength {
            let f = Double(s) / Double(panLength)
            down(panStart + s, w * (0.2 + 0.6 * f), h * 0.65 + 3 * f)
            s += samplePeriod
        }
        up(panStart + panLength + samplePeriod)
        return frames
    }
}
