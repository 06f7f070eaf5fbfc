import TouchCore

/// The base of every recognizer, with UIGestureRecognizer's contract (S1–S21).
///
/// Subclasses override `touchesBegan/Moved/Ended/Cancelled`, `timerFired` and `reset`,
/// and set `state` as UIKit subclasses do; the engine turns those requests into
/// transitions, arbitration with other recognizers, region deliveries and actions.
/// Recognizers never read a clock: `now` is the instant of the frame or timer being handled.
///
/// Everything here runs on the recognizer loop; nothing on the per-frame path allocates.
open class GestureRecognizer {
    /// The configured name: used in events, relations and bindings.
    public let name: String
    /// What events call this recognizer.
    public let kind: GestureKind

    /// The recognizer's mutable base-class fields (`RecognizerFields`, with the properties
    /// forwarding to them — `engine`, `region`, `state`'s storage, the masks… — in
    /// GestureRecognizer+Fields.swift): its only `@exclusivity(unchecked)` stored property,
    /// touched only by the thread holding the recognizer stage once installed
    /// (docs/ARCHITECTURE.md, "Unchecked storage").
    @exclusivity(unchecked) final var fields = RecognizerFields()

    /// The names a stroke event's `stroke` index selects from (`GestureEvent.stroke`, formats.md
    /// §2's `"stroke"`), by index: a recognizer that matches gesture templates (a stroke, and a
    /// checkmark, which is one) names them here; every other kind has none. The encoders' names
    /// are built from it once per engine (`EngineBuilder.names`), never on the per-frame path.
    open var strokeNames: [String] { [] }

    /// A length in pixels said in the board's own unit for `--explain`: points, through the
    /// engine's `pixelsPerPoint` ("10 pt", not the "8 px" the recognizer compares).
    public final func pointsDescription(_ pixels: Double) -> String {
        wholeDescription(pixels / withEngine(1) { $0.pixelsPerPoint }) + " pt"
    }

    /// `touchesBegan` with `count` touches, for a recognizer with `readsOnlyTouchCount`.
    func began(count: Int) {}
    /// `touchesMoved`, for a recognizer with `readsOnlyTouchCount`.
    func moved() {}
    /// `touchesEnded` with `count` touches, for a recognizer with `readsOnlyTouchCount`.
    func ended(count: Int) {}
    /// The current state (S1–S3). A subclass sets it to request a transition; the engine
    /// decides (S14, S15, S21). While a transition is held by a failure requirement the
    /// state reads `possible` and `isWaitingForFailure` is true.
    public final var state: GestureState {
        get { committedState }
        set {
            let link = fields.engineLink
            if link.isEmpty {
                committedState = newValue
            } else {
                link.with(()) { $0.requestTransition(self, to: newValue) }
            }
        }
    }

    /// Fails the recognizer (S2/S3: no action is sent) and, when the engine's diagnostic trace
    /// is on, records why. The reason is only built when someone is listening.
    public func fail(because reason: @autoclosure () -> String) {
        if withEngine(false, { $0.diagnostics != nil }), committedState == .possible {
            withEngine(()) { $0.diagnose(self, reason()) }
        }
        state = .failed
    }

    /// True while a transition is held until other recognizers fail (S15).
    public final var isWaitingForFailure: Bool { heldTransition != nil }

    /// The most touches one recognizer holds in a sequence (one per tracking id).
    public static let maximumTouches = GestureEngine.trackingIDs

    public init(name: String, kind: GestureKind) {
        self.name = name
        self.kind = kind
    }

    // MARK: subclassing surface

    open func touchesBegan(_ touches: TouchSet) {}
    open func touchesMoved(_ touches: TouchSet) {}
    open func touchesEnded(_ touches: TouchSet) {}
    /// Default: continuous recognizers that began are cancelled; otherwise fail (S9).
    open func touchesCancelled(_ touches: TouchSet) {
        switch state {
        case .began, .changed: state = .cancelled
        case .possible: state = .failed
        default: break
        }
    }
    /// Called at the deadline set with `setTimer(at:)`, with `now` equal to the deadline.
    open func timerFired() {}
    /// Called after every terminal state (S6); subclasses clear their own fields and call super.
    open func reset() {}
    /// Adds the kind-specific fields of an action's event (S4).
    open func fillEvent(_ event: inout GestureEvent) {}
    /// Whether the recognizer is continuous (S3). Discrete ones are never cancelled (S2).
    open var isContinuous: Bool { false }

    /// S18: class-wide one-way prevention; default true.
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// S18: default true.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
    /// S19: subclass-level dynamic failure requirement; default false.
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
    /// S19: default false.
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }
    /// S21/S28 hook consulted with the delegate's `shouldBegin`; default true.
    open func gestureShouldBegin() -> Bool { true }

    // MARK: relations

    /// S15: this recognizer waits for `other` to fail.
    public func require(toFail other: GestureRecognizer) {
        precondition(other !== self, "GestureRecognizer.require(toFail:) with itself")
        if !failureRequirements.contains(where: { $0 === other }) { failureRequirements.append(other) }
        engine?.relationsChanged()
    }

    // MARK: target-action (S4, S7)

    /// Handle returned by `addTarget`, for `removeTarget`.
    public struct ActionID: Hashable, Sendable { let raw: Int }

    struct TargetAction {
        let id: Int
        /// The target's identity, for duplicates and `removeTarget` (S7); nil for a closure action.
        let target: ObjectIdentifier?
        let hasTarget: Bool
        let selector: String?
        let body: (GestureRecognizer) -> Void
    }

    /// Adds a closure action. Returns an id for `removeTarget(_:)`.
    @discardableResult
    public func addTarget(_ action: @escaping (GestureRecognizer) -> Void) -> ActionID {
        fields.nextActionID += 1
        let id = fields.nextActionID
        actions.append(TargetAction(id: id, target: nil, hasTarget: false, selector: nil, body: action))
        return ActionID(raw: id)
    }

    /// Adds a target-action pair, UIKit style: `addTarget(self, action: "handle", Self.handle)`.
    /// A duplicate (same target object and action name) is ignored (S7).
    ///
    /// As in UIKit the target is not retained, and it is held without a weak reference (Embedded
    /// Swift has none): a target must outlive the recognizer or remove its actions
    /// (`removeTarget(self, action: nil)`) before it goes away. (`final`: Embedded Swift accepts no
    /// generic method that a subclass could override.)
    public final func addTarget<T: AnyObject>(
        _ target: T, action name: String, _ method: @escaping (T) -> (GestureRecognizer) -> Void
    ) {
        let id = ObjectIdentifier(target)
        if actions.contains(where: { $0.hasTarget && $0.target == id && $0.selector == name }) { return }
        fields.nextActionID += 1
        let link = UnownedLink(target)  // not retained: the target outlives its actions (above)
        actions.append(
            TargetAction(
                id: fields.nextActionID, target: id, hasTarget: true, selector: name,
                body: { r in link.with(()) { method($0)(r) } }))
    }

    /// Removes target-action pairs: a nil target matches every target, a nil name every action (S7).
    public func removeTarget(_ target: AnyObject?, action name: String?) {
        let id = target.map { ObjectIdentifier($0) }
        actions.removeAll { a in
            guard a.hasTarget else { return target == nil && name == nil }
            return (id == nil || a.target == id) && (name == nil || a.selector == name)
        }
    }

    /// Removes a closure action.
    public func removeTarget(_ id: ActionID) { actions.removeAll { $0.id == id.raw } }

    // MARK: touches and locations (S12)

    /// The instant of the frame or timer being handled.
    public final var now: Instant { withEngine(.zero) { $0.now } }

    /// numberOfTouches: touches down now or lifted in the frame being handled.
    public final var numberOfTouches: Int { withEngine(0) { $0.countTouches(of: self) } }

    /// The centroid of the recognizer's touches, in `region`'s coordinates (panel pixels for nil).
    public func location(in region: Region?) -> Point {
        let p = withEngine(.zero) { $0.centroid(of: self) }
        guard let region else { return p }
        return Point(x: p.x - region.frame.x, y: p.y - region.frame.y)
    }

    /// The location of the recognizer's `index`th touch.
    public func location(ofTouch index: Int, in region: Region?) -> Point {
        let t = withEngine(nil) { $0.touch(of: self, at: index) }
        let p = t?.location ?? .zero
        guard let region else { return p }
        return Point(x: p.x - region.frame.x, y: p.y - region.frame.y)
    }

    /// The recognizer's current touches (down now or lifted in this frame).
    public var currentTouches: TouchSet { withEngine(TouchSet()) { $0.touches(of: self) } }

    /// S11: excludes `touch` from this recognizer for the rest of the sequence.
    public func ignore(_ touch: Touch) { engine?.ignore(touch, by: self) }

    // MARK: timers (injected clock)

    /// Arms the recognizer's single timer; `timerFired` runs when the loop's clock reaches it.
    public func setTimer(at deadline: Instant) { timerDeadline = deadline }
    /// Arms the timer `milliseconds` after `now`.
    public func setTimer(afterMilliseconds ms: Double) {
        setTimer(at: now.advanced(byMicroseconds: Int64((ms * 1000).rounded())))
    }
    public func cancelTimer() { timerDeadline = nil }

    /// The panel's pixels per point (thresholds in board files are in points).
    public final var pixelsPerPoint: Double { withEngine(1) { $0.pixelsPerPoint } }
}
