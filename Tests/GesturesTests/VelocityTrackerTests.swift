import Gestures
import TouchCore
import XCTest

/// The tracker keeps the fit's sample count as samples arrive (issue 16's fifth pass) instead of
/// testing each sample's age at every estimate. The velocities it reports — every pan, pinch and
/// rotation event's `velocity_x/y` and `velocity` — must stay the same Doubles, bit for bit.
final class VelocityTrackerTests: XCTestCase {
    /// The fit as it was computed before: scan back from the newest sample, stopping at the window's
    /// start or at a pause longer than the stop horizon, summing as it goes.
    private struct ReferenceTracker {
        var window: Int64 = 100_000
        var samples: [(t: Int64, x: Double, y: Double)] = []

        mutating func add(_ p: Point, at t: Int64) {
            samples.append((t, p.x, p.y))
            if samples.count > VelocityTracker.sampleCapacity { samples.removeFirst() }
        }

        func velocity(at now: Int64) -> Point {
            guard let newest = samples.last else { return .zero }
            if now - newest.t > VelocityTracker.stopHorizonMicroseconds { return .zero }
            guard samples.count >= 2 else { return .zero }
            var n = 0.0
            var st = 0.0
            var sx = 0.0
            var sy = 0.0
            var stt = 0.0
            var stx = 0.0
            var sty = 0.0
            var later = newest.t
            for s in samples.reversed() {
                let age = newest.t - s.t
                if age > window || later - s.t > VelocityTracker.stopHorizonMicroseconds { break }
                later = s.t
                let t = -Double(age) / 1e6
                n += 1
                st += t
                let x = s.x - newest.x
                sx += x
                stt += t * t
                stx += t * x
                let y = s.y - newest.y
                sy += y
                sty += t * y
            }
            let denominator = n * stt - st * st
            guard n >= 2, denominator > 1e-12 else { return .zero }
            return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
        }
    }

    /// A deterministic generator (SplitMix64), so the sequence is the same on every run.
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: UInt64) -> Int64 { Int64(next() % n) }
    }

    /// Drags at 100 Hz with jitter, pauses longer and shorter than the horizon, bursts of more than
    /// 16 samples, resets, a window changed between samples and samples out of time order: every
    /// estimate, at the sample's instant and later, equals the reference's bit for bit (a pan's
    /// `velocity`, pinch and rotation's `velocityX`).
    func testEstimatesEqualTheScanningFitBitForBit() {
        var random = Generator(state: 16)
        var tracker = VelocityTracker()
        var reference = ReferenceTracker()
        var time: Int64 = 1_000_000
        var position = Point(x: 400, y: 240)
        var nonZero = 0
        for step in 0..<20_000 {
            switch random.below(100) {
            case 0:
                tracker.reset()
                reference.samples.removeAll()
            case 1:
                let window = [50_000, 100_000, 150_000, 30_000][Int(random.below(4))]
                tracker.windowMicroseconds = Int64(window)
                reference.window = Int64(window)
            case 2...5: time += 30_000 + random.below(40_000)  // a pause around the horizon
            case 6: time -= random.below(20_000)  // out of order (a caller's own clock)
            default: time += 5_000 + random.below(12_000)  // 100 Hz, give or take
            }
            position.x += Double(random.below(2_001) - 1_000) / 97
            position.y += Double(random.below(2_001) - 1_000) / 89
            tracker.add(position, at: Instant(microseconds: time))
            reference.add(position, at: time)
            for later in [time, time + random.below(50_000)] {
                let want = reference.velocity(at: later)
                let got = tracker.velocity(at: Instant(microseconds: later))
                XCTAssertEqual(got.x.bitPattern, want.x.bitPattern, "x at step \(step), \(later) µs")
                XCTAssertEqual(got.y.bitPattern, want.y.bitPattern, "y at step \(step), \(later) µs")
                XCTAssertEqual(
                    tracker.velocityX(at: Instant(microseconds: later)).bitPattern, want.x.bitPattern,
                    "velocityX at step \(step)")
                if want.x != 0 { nonZero += 1 }
            }
        }
        XCTAssertGreaterThan(nonZero, 20_000, "most estimates are of a moving finger")
    }

    /// The window: a sample older than it leaves the fit; after a pause longer than the horizon
    /// only the samples since the pause count (a new drag's speed, not the old one's).
    func testThePauseAndTheWindowBoundTheFit() {
        var tracker = VelocityTracker()
        // 200 px/s to the right for 100 ms, a 60 ms pause, then 100 px/s to the left.
        for k in 0...10 { tracker.add(Point(x: 2 * Double(k), y: 0), at: .milliseconds(Int64(10 * k))) }
        XCTAssertEqual(tracker.velocity(at: .milliseconds(100)).x, 200, accuracy: 1e-6)
        tracker.add(Point(x: 20, y: 0), at: .milliseconds(160))
        XCTAssertEqual(tracker.velocity(at: .milliseconds(160)).x, 0, "one sample since the pause: no fit")
        tracker.add(Point(x: 19, y: 0), at: .milliseconds(170))
        XCTAssertEqual(tracker.velocity(at: .milliseconds(170)).x, -100, accuracy: 1e-6)
        // A narrower window after the fact still bounds the fit.
        for k in 1...10 { tracker.add(Point(x: 19 - Double(k), y: 0), at: .milliseconds(170 + Int64(10 * k))) }
        tracker.windowMicroseconds = 20_000
        XCTAssertEqual(tracker.velocity(at: .milliseconds(270)).x, -100, accuracy: 1e-6)
    }
}
