import TouchCore

/// A deterministic workload for `boards/kiosk-sim.toml` that exercises every recognizer kind:
/// a tap, a double tap, a button press, a slow drag and a flick on the canvas, a two-finger
/// pinch-and-turn, a two-finger tap, a checkmark, a long press and a slider drag — sampled every
/// 10 ms, with a pause between gestures. Used by the benchmarks and the allocation tests.
package enum KioskScript {
    /// Length of one pass, in microseconds (the loop period).
    package static let duration: Int64 = 9_000_000

    package static func frames() -> [TouchFrame] {
        var out: [TouchFrame] = []
        var t: Int64 = 0
        func emit(_ contacts: [(UInt8, Double, Double)]) {
            out.append(
                TouchFrame(
                    timestamp: Instant(microseconds: t), contacts: contacts.map { Contact(id: $0.0, x: $0.1, y: $0.2) })
            )
            t += 10_000
        }
        func lift() { emit([]) }
        func pause(_ ms: Int64) { t += ms * 1000 }
        func stroke(_ points: [(Double, Double)], steps: Int) {
            for k in 0..<(points.count - 1) {
                let a = points[k]
                let b = points[k + 1]
                for i in 0..<steps {
                    let f = Double(i) / Double(steps)
                    emit([(0, a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)])
                }
            }
            emit([(0, points.last!.0, points.last!.1)])
            lift()
        }
        // tap, then a double tap
        emit([(0, 400, 30)])
        emit([(0, 400, 30)])
        lift()
        pause(500)
        emit([(0, 410, 30)])
        lift()
        pause(100)
        emit([(0, 411, 31)])
        lift()
        pause(500)
        // the button
        emit([(0, 90, 440)])
        emit([(0, 90, 441)])
        lift()
        pause(400)
        // slow drag (pan), then a flick (swipe)
        stroke([(100, 200), (500, 220)], steps: 80)
        pause(400)
        stroke([(600, 250), (300, 250)], steps: 8)
        pause(400)
        // pinch and turn with two fingers
        for i in 0...40 {
            let f = Double(i) / 40
            let r = 60 + 80 * f
            let a = 0.8 * f
            emit([(0, 400 - r * cos(a), 240 - r * sin(a)), (1, 400 + r * cos(a), 240 + r * sin(a))])
        }
        lift()
        pause(400)
        // two-finger tap
        emit([(0, 300, 200), (1, 360, 200)])
        emit([(0, 300, 200), (1, 360, 200)])
        lift()
        pause(400)
        // a checkmark
        stroke([(300, 200), (330, 250), (420, 130)], steps: 10)
        pause(400)
        // a long press
        for _ in 0..<80 { emit([(0, 500, 300)]) }
        lift()
        pause(400)
        // the slider
        stroke([(250, 445), (700, 445)], steps: 40)
        return out
    }
}

#if canImport(Glibc)
    import Glibc
#endif
