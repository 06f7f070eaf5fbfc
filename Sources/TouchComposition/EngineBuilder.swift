import BoardConfig
import Gestures
import TouchCore
import TouchOutputs

/// Builds the region tree and the recognizers of a validated board into a `GestureEngine`.
package enum EngineBuilder {
    /// The engine for `board`, with thresholds converted from points to pixels.
    package static func build(_ board: BoardDescription) throws(ServiceError) -> GestureEngine {
        guard let rootDescription = board.rootRegion else {
            preconditionFailure("EngineBuilder.build: a validated board always has a root region")
        }
        func makeRegion(_ d: RegionDescription) -> Region {
            Region(name: d.name, frame: d.frame, isControl: d.control, isMultipleTouchEnabled: d.multipleTouch)
        }
        let root = makeRegion(rootDescription)
        var byName = [rootDescription.name: root]
        // Parents precede children after validation's cycle check; loop until every region is placed.
        var remaining = board.regions.filter { $0.parent != nil }
        while !remaining.isEmpty {
            let before = remaining.count
            remaining.removeAll { d in
                guard let parentName = d.parent, let parent = byName[parentName] else { return false }
                let region = makeRegion(d)
                parent.addChild(region)
                byName[d.name] = region
                return true
            }
            precondition(remaining.count < before, "EngineBuilder.build: region parents were not validated")
        }
        let ppp = board.panel.pointsToPixels
        let engine = GestureEngine(root: root, pixelsPerPoint: ppp)
        var recognizers: [String: GestureRecognizer] = [:]
        for d in board.recognizers {
            let r = try makeRecognizer(d, pixelsPerPoint: ppp, board: board.location)
            r.isEnabled = d.enabled
            r.cancelsTouchesInView = d.cancelsTouches
            r.delaysTouchesBegan = d.delaysBegan
            r.delaysTouchesEnded = d.delaysEnded
            r.simultaneousNames = Set(d.simultaneous)
            guard let region = byName[d.region] else {
                preconditionFailure("EngineBuilder.build: recognizer regions were not validated")
            }
            engine.add(r, to: region)
            recognizers[d.name] = r
        }
        for d in board.recognizers {
            for other in d.requireFail {
                if let r = recognizers[d.name], let o = recognizers[other] { r.require(toFail: o) }
            }
        }
        return engine
    }

    /// One case per `RecognizerParameters` (so per `RecognizerKind`): the built-in recognizers'
    /// `builtIn(…)` instances, which the engine may tell only touch counts.
    static func makeRecognizer(_ d: RecognizerDescription, pixelsPerPoint ppp: Double, board: String)
        throws(ServiceError)
        -> GestureRecognizer
    {
        switch d.parameters {
        case .tap(let p):
            return TapGestureRecognizer.builtIn(
                name: d.name, taps: p.taps, touches: p.touches, maximumMovement: p.maxMovement * ppp,
                maximumIntervalMilliseconds: Double(p.maxIntervalMilliseconds),
                maximumTapDistance: p.maxTapDistance * ppp)
        case .longPress(let p):
            return LongPressGestureRecognizer.builtIn(
                name: d.name, minimumPressDurationMilliseconds: Double(p.minDurationMilliseconds),
                allowableMovement: p.allowableMovement * ppp, touches: p.touches, taps: p.taps)
        case .pan(let p):
            return PanGestureRecognizer.builtIn(
                name: d.name, minimumTouches: p.minTouches, maximumTouches: p.maxTouches,
                minimumDistance: p.minDistance * ppp)
        case .swipe(let p):
            return SwipeGestureRecognizer.builtIn(
                name: d.name, direction: p.direction, touches: p.touches, minimumDistance: p.minDistance * ppp,
                minimumVelocity: p.minVelocity * ppp, maximumDurationMilliseconds: Double(p.maxDurationMilliseconds))
        case .pinch:
            return PinchGestureRecognizer.builtIn(name: d.name, thresholdPixels: 8 * ppp)
        case .rotation:
            return RotationGestureRecognizer.builtIn(name: d.name)
        case .checkmark:
            return CheckmarkGestureRecognizer(name: d.name, minimumLeg: 12 * ppp)
        case .edgePan(let p):
            return EdgePanGestureRecognizer(
                name: d.name, edges: p.edges, edgeBand: p.edgeBand * ppp, minimumDistance: p.minDistance * ppp)
        case .stroke(let p):
            return StrokeGestureRecognizer(
                name: d.name, templates: p.templates, gestures: p.gestures, minimumScore: p.minScore,
                minimumLength: p.minLength * ppp)
        }
    }

    /// The names the encoders print for recognizer and region indices, and for a stroke event's
    /// gesture: each recognizer's own `strokeNames` (empty but for the kinds whose events carry a
    /// `stroke`), so no recognizer class is named here.
    package static func names(of engine: GestureEngine) -> EventNames {
        EventNames(
            recognizers: engine.recognizers.map(\.name), regions: engine.regions.map(\.name),
            strokes: engine.recognizers.map(\.strokeNames))
    }
}
