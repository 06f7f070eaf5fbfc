import Benchmark
import Gestures
import TouchCore
import TouchDrivers
import TouchRing
import TouchSimulation

/// Per-frame costs of the hot paths, and their malloc counts (which must stay zero).
///
/// Run: `swift package benchmark` (numbers), `swift package benchmark thresholds check`
/// (fails if a hot path allocates; thresholds in Thresholds/).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 100_000,
        thresholds: [
            .mallocCountTotal: .init(absolute: [.p0: 0, .p25: 0, .p50: 0, .p75: 0, .p90: 0, .p99: 0, .p100: 0])
        ]
    )

    // The kiosk board: 5 regions, 10 recognizers of every kind; one frame per iteration, cycling
    // through the workload (taps, drags, a flick, pinch + rotation, a checkmark, a long press).
    Benchmark("EngineFrame_KioskBoard_EveryKind") { benchmark in
        let engine = KioskEngine.make()
        let frames = KioskScript.frames()
        var i = 0
        var pass: Int64 = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var f = frames[i]
            f.timestamp = f.timestamp.advanced(byMicroseconds: pass * KioskScript.duration)
            engine.process(f)
            i += 1
            if i == frames.count {
                i = 0
                pass += 1
            }
        }
        benchmark.stopMeasurement()
        blackHole(engine)
    }

    // One decision of a stroke recognizer with the built-in set (16 gestures, 1,436 templates): a
    // 31-point checkmark resampled, normalised and compared with every template (docs/strokes.md).
    Benchmark("StrokeDecision_Builtin16") { benchmark in
        let templates = StrokeTemplateSet.builtIn
        let down: [Point] = (0...10).map { i in Point(x: 100 + 3 * Double(i), y: 200 + 4 * Double(i)) }
        let up: [Point] = (1...20).map { i in Point(x: 130 + 5 * Double(i), y: 240 - 7 * Double(i)) }
        let points = down + up
        var matcher = StrokeMatcher()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let found = points.withUnsafeBufferPointer { matcher.match($0, in: templates) }
            blackHole(found)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("FrameRing_PushPop") { benchmark in
        let ring = SPSCRing<TouchFrame>(minimumCapacity: 256)
        let frame = TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 1, y: 2), Contact(id: 1, x: 3, y: 4)])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            ring.tryPush(frame)
            blackHole(ring.tryPop())
        }
    }

    Benchmark("FocalTechDecode_TwoPoints") { benchmark in
        var image = [UInt8](repeating: 0xFF, count: 3 + 6 * 2)
        image[2] = 2
        image.replaceSubrange(3..<9, with: [0x80 | 0x01, 0x90, 0x00 | 0x00, 0xF0, 0x20, 0x40])
        image.replaceSubrange(9..<15, with: [0x80 | 0x02, 0x10, 0x10 | 0x01, 0x20, 0x20, 0x40])
        image.withUnsafeBytes { bytes in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(
                    FocalTechDecoder.decode(bytes, at: .zero, maxPoints: 2, panelWidth: 800, panelHeight: 480))
            }
        }
    }

    // GT911: status byte (ready, 2 points) + two 8-byte records (id, X LE16, Y LE16, size LE16, reserved).
    Benchmark("GT911Decode_TwoPoints") { benchmark in
        var image = [UInt8](repeating: 0, count: 1 + 8 * 5 + 1)
        image[0] = 0x82
        image.replaceSubrange(1..<9, with: [0, 0x90, 0x01, 0xF0, 0x00, 30, 0, 0])
        image.replaceSubrange(9..<17, with: [1, 0x10, 0x02, 0x20, 0x01, 30, 0, 0])
        image.withUnsafeBytes { bytes in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(GT911Decoder.decode(bytes, at: .zero, maxPoints: 5, panelWidth: 800, panelHeight: 480))
            }
        }
    }

    // CST816S: gesture, finger count, event|X high, X low, Y high, Y low (one contact).
    Benchmark("CST816Decode_OnePoint") { benchmark in
        let image: [UInt8] = [0x00, 1, 0x80 | 0x00, 0x78, 0x00, 0x78]
        image.withUnsafeBytes { bytes in
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(CST816Decoder.decode(bytes, at: .zero, panelWidth: 240, panelHeight: 240))
            }
        }
    }

    Benchmark("FT6x36DriverRead_SimulatedBus") { benchmark in
        let bus = SimulatedI2CBus()
        let model = FT6x36Model()
        bus.attach(model)
        let driver = FT6x36Driver(
            bus: bus, configuration: .ft6x36(panelWidth: 800, panelHeight: 480), timing: .immediate)
        try? driver.start()
        model.present(TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 400, y: 240)]))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? driver.readFrame(at: .zero))
        }
    }
}

/// The engine of boards/kiosk-sim.toml, built in code so the benchmark needs no files.
enum KioskEngine {
    static func make() -> GestureEngine {
        let screen = Region(name: "screen", frame: Rect(x: 0, y: 0, width: 800, height: 480))
        let header = Region(name: "header", frame: Rect(x: 0, y: 0, width: 800, height: 60))
        let content = Region(
            name: "content", frame: Rect(x: 0, y: 60, width: 800, height: 350), isMultipleTouchEnabled: true)
        let start = Region(name: "start", frame: Rect(x: 20, y: 420, width: 160, height: 50), isControl: true)
        let slider = Region(name: "slider", frame: Rect(x: 200, y: 420, width: 580, height: 50))
        for r in [header, content, start, slider] { screen.addChild(r) }
        let ppp = 800 / 154.2 * 25.4 / 160
        let engine = GestureEngine(root: screen, pixelsPerPoint: ppp)
        let tap = TapGestureRecognizer.builtIn(
            name: "tap", maximumMovement: 10 * ppp, maximumTapDistance: 45 * ppp)
        let double = TapGestureRecognizer.builtIn(
            name: "double-tap", taps: 2, maximumMovement: 10 * ppp, maximumTapDistance: 45 * ppp)
        tap.require(toFail: double)
        let two = TapGestureRecognizer.builtIn(name: "two-finger-tap", touches: 2, maximumMovement: 10 * ppp)
        let press = LongPressGestureRecognizer.builtIn(name: "long-press", allowableMovement: 10 * ppp)
        let swipe = SwipeGestureRecognizer.builtIn(
            name: "swipe", direction: [.left, .right], minimumDistance: 50 * ppp, minimumVelocity: 300 * ppp)
        let pan = PanGestureRecognizer.builtIn(name: "pan", minimumDistance: 10 * ppp)
        pan.require(toFail: swipe)
        let pinch = PinchGestureRecognizer.builtIn(name: "pinch", thresholdPixels: 8 * ppp)
        pinch.simultaneousNames = ["rotation"]
        let rotation = RotationGestureRecognizer.builtIn(name: "rotation")
        let check = CheckmarkGestureRecognizer(name: "check", minimumLeg: 12 * ppp)
        check.simultaneousNames = ["pan"]
        let slide = PanGestureRecognizer.builtIn(name: "slide", minimumDistance: 2 * ppp)
        engine.add(tap, to: screen)
        engine.add(double, to: screen)
        engine.add(two, to: content)
        engine.add(press, to: content)
        engine.add(swipe, to: content)
        engine.add(pan, to: content)
        engine.add(pinch, to: content)
        engine.add(rotation, to: content)
        engine.add(check, to: content)
        engine.add(slide, to: slider)
        return engine
    }
}

#if canImport(Glibc)
    import Glibc
#endif
