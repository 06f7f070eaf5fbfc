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

    /// The engine this recognizer is installed in (set by `GestureEngine.add`, cleared when the
    /// engine goes away). Held without reference counting: the engine owns its recognizers and
    /// clears this link in its `deinit`, so it is never left dangling, and the per-frame path
    /// pays no weak-reference load for it.
    public internal(set) final var engine: GestureEngine? {
        get { engineLink?.takeUnretainedValue() }
        set { engineLink = newValue.map { Unmanaged.passUnretained($0) } }
    }
    @usableFromInline @exclusivity(unchecked) final var engineLink: Unmanaged<GestureEngine>?

    /// A length in pixels said in the board's own unit for `--explain`: points, through the
    /// engine's `pixelsPerPoint` ("10 pt", not the "8 px" the recognizer compares).
    public final func pointsDescription(_ pixels: Double) -> String {
        wholeDescription(pixels / withEngine(1) { $0.pixelsPerPoint }) + " pt"
    }

    /// `body(engine)` without retaining the engine (the per-frame queries), or `absent` when not installed.
    @inline(__always) final func withEngine<R>(_ absent: R, _ body: (GestureEngine) -> R) -> R {
        guard let e = engineLink else { return absent }
        return e._withUnsafeGuaranteedRef(body)
    }
    /// The region it is attached to (the engine's region tree keeps it alive; cleared with `engine`).
    public internal(set) final var region: Region? {
        get { regionLink }
        set {
            regionLink = newValue
            regionIndex = newValue?.index ?? 0
        }
    }
    @usableFromInline @exclusivity(unchecked) unowned(unsafe) final var regionLink: Region?
    /// `region`'s index in the engine (0 when not attached), kept with `region`: each event
    /// carries it, and reading it costs no retain/release of the region.
    @exclusivity(unchecked) final var regionIndex = 0
    /// Position in the engine's recognizer table.
    @exclusivity(unchecked) public internal(set) final var index: Int = -1

    /// The questions the engine asks about this recognizer (S17–S21). Held strongly (UIKit's is
    /// weak): the recognizer owns its delegate, which is the usual shape here (a small policy
    /// object made for the recognizer, kept for its lifetime), and Embedded Swift has no weak
    /// references. A delegate that refers back to its recognizer holds it `unowned(unsafe)` or
    /// sets `delegate = nil` when done, or the pair is never freed.
    @exclusivity(unchecked) public var delegate: GestureRecognizerDelegate? {
        didSet { hasDelegate = delegate != nil }
    }
    /// Whether a delegate was set: the engine asks the delegate only then, so a recognizer without
    /// one costs no existential load per question.
    @exclusivity(unchecked) final var hasDelegate = false

    /// S22–S25, UIKit defaults.
    @exclusivity(unchecked) public final var cancelsTouchesInView = true
    @exclusivity(unchecked) public final var delaysTouchesBegan = false
    @exclusivity(unchecked) public final var delaysTouchesEnded = true

    /// Names this recognizer recognizes simultaneously with (S17, from the board file).
    @exclusivity(unchecked) public var simultaneousNames: Set<String> = [] {
        didSet { engine?.relationsChanged() }
    }

    // MARK: state

    @exclusivity(unchecked) final var committedState: GestureState = .possible {
        didSet {
            // The engine resets only the recognizers that reached a terminal state (S6).
            if committedState.isTerminal, let e = engineLink {
                e._withUnsafeGuaranteedRef { $0.terminalMask |= 1 << UInt64(index) }
            }
        }
    }
    /// The transition held back by a failure requirement (S15): `.began`, `.recognized`, or
    /// `.ended` (began, then ended while waiting).
    @exclusivity(unchecked) final var heldTransition: GestureState? {
        didSet {
            // The engine keeps the set of held recognizers: a failure visits only those (S15).
            guard (oldValue == nil) != (heldTransition == nil), index >= 0, let e = engineLink else { return }
            let bit: UInt64 = 1 << UInt64(index)
            e._withUnsafeGuaranteedRef { engine in
                if heldTransition == nil { engine.heldMask &= ~bit } else { engine.heldMask |= bit }
            }
        }
    }
    final var heldEvent: GestureEvent? {
        get { hasHeldEvent ? heldEventValue : nil }
        set {
            if let e = newValue { heldEventValue = e }
            hasHeldEvent = newValue != nil
        }
    }
    /// `heldEvent`'s storage: a flag and a value instead of an optional, so that clearing it (at
    /// every reset and failure) stores one byte, not a 137-byte optional.
    @exclusivity(unchecked) final var hasHeldEvent = false
    @exclusivity(unchecked) final var heldEventValue = GestureEvent(
        time: .zero, recognizer: 0, kind: .custom, state: .possible, region: 0, location: .zero, touches: 0)
    /// A begin/recognize request made while the frame is still being offered to others.
    @exclusivity(unchecked) final var deferredTransition: GestureState?
    /// Set by a built-in recognizer while `touchesMoved` would do nothing (pinch or rotation
    /// without two fingers): the engine then skips the call. Never set for a subclass that may
    /// override `touchesMoved`.
    @exclusivity(unchecked) final var ignoresMoves = false
    /// Set only on the built-in recognizers' final classes (`builtIn(…)` of the tap, long press,
    /// pan, swipe, pinch and rotation), which read only how many touches a phase has in
    /// `touchesBegan`/`touchesEnded` and nothing of the set in `touchesMoved`: being final, no
    /// subclass can override the callbacks the engine then skips. The engine calls `began(count:)`,
    /// `moved()` and `ended(count:)` instead, without building or copying a `TouchSet` (888 bytes)
    /// per call. An instance made with the public `init` (or of a subclass) gets every set.
    @exclusivity(unchecked) final var readsOnlyTouchCount = false
    /// `touchesBegan` with `count` touches, for a recognizer with `readsOnlyTouchCount`.
    func began(count: Int) {}
    /// `touchesMoved`, for a recognizer with `readsOnlyTouchCount`.
    func moved() {}
    /// `touchesEnded` with `count` touches, for a recognizer with `readsOnlyTouchCount`.
    func ended(count: Int) {}
    /// Set while the recognizer has received touches since its last reset.
    @exclusivity(unchecked) final var isInvolved = false
    /// Relations resolved to recognizer indices by the engine.
    @exclusivity(unchecked) final var simultaneousMask: UInt64 = 0
    @exclusivity(unchecked) final var requireMask: UInt64 = 0
    /// The last centroid while touches were present, for events after every finger lifted.
    @exclusivity(unchecked) final var lastLocation: Point = .zero
    /// The engine's `touchStamp` when `lastLocation` and `currentTouchCount` were measured:
    /// while it is unchanged they are the centroid and count of the current touches (a pan
    /// event asks three times per step).
    @exclusivity(unchecked) final var measuredStamp: UInt64 = 0
    @exclusivity(unchecked) final var currentTouchCount = 0

    /// The current state (S1–S3). A subclass sets it to request a transition; the engine
    /// decides (S14, S15, S21). While a transition is held by a failure requirement the
    /// state reads `possible` and `isWaitingForFailure` is true.
    public final var state: GestureState {
        get { committedState }
        set {
            guard let e = engineLink else {
                committedState = newValue
                return
            }
            e._withUnsafeGuaranteedRef { $0.requestTransition(self, to: newValue) }
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

    /// S10: a disabled recognizer receives no touches; disabling one mid-gesture cancels it
    /// (continuous) or fails it (discrete).
    @exclusivity(unchecked) public final var isEnabled: Bool = true {
        didSet {
            guard oldValue, !isEnabled, let engine else { return }
            engine.recognizerWasDisabled(self)
        }
    }

    // MARK: touches (indices into the engine's touch table)

    /// The most touches one recognizer holds in a sequence (one per tracking id).
    public static let maximumTouches = GestureEngine.trackingIDs
    @usableFromInline @exclusivity(unchecked) final var touchSlots: InlineArray<16, Int16> = InlineArray(repeating: -1)
    @usableFromInline @exclusivity(unchecked) final var touchSlotCount = 0

    /// The timer deadline, or nil.
    @exclusivity(unchecked) public internal(set) final var timerDeadline: Instant? {
        didSet { withEngine(()) { $0.timerChanged(self) } }
    }

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

    /// `require(toFail:)`: recognizers that must fail before this one may leave `possible` (S15).
    @exclusivity(unchecked) public internal(set) var failureRequirements: [GestureRecognizer] = []

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
    @exclusivity(unchecked) final var actions: [TargetAction] = []
    @exclusivity(unchecked) private var nextActionID = 0

    /// Adds a closure action. Returns an id for `removeTarget(_:)`.
    @discardableResult
    public func addTarget(_ action: @escaping (GestureRecognizer) -> Void) -> ActionID {
        nextActionID += 1
        actions.append(TargetAction(id: nextActionID, target: nil, hasTarget: false, selector: nil, body: action))
        return ActionID(raw: nextActionID)
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
        nextActionID += 1
        actions.append(
            TargetAction(
                id: nextActionID, target: id, hasTarget: true, selector: name,
                body: { [unowned(unsafe) target] r in method(target)(r) }))
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

    /// The event being dispatched while an action runs (S4): state, location and kind fields
    /// as they were at the transition.
    @exclusivity(unchecked) public internal(set) var currentEvent: GestureEvent?

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
