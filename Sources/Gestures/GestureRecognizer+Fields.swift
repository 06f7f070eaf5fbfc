import TouchCore

/// A recognizer's mutable base-class fields, in one value held by the recognizer's only
/// `@exclusivity(unchecked)` stored property (`GestureRecognizer.fields`): the contract is in
/// `Ownership.swift` and written once in docs/ARCHITECTURE.md ("Unchecked storage"). Only the
/// thread holding the recognizer stage reads or writes them once the recognizer is installed
/// (before, only the thread building the engine). The recognizer's properties of the same names
/// forward here (`@inline(__always)`: a plain load or store once optimized).
struct RecognizerFields {
    /// The engine this recognizer is installed in: an owner → observer link (the engine owns the
    /// recognizer through its `recognizers` and clears this link in its `deinit`).
    var engineLink = UnownedLink<GestureEngine>(nil)
    /// The region it is attached to: kept alive by the engine's region tree, cleared with `engineLink`.
    var regionLink = UnownedLink<Region>(nil)
    var regionIndex = 0
    var index = -1
    var delegate: GestureRecognizerDelegate?
    var hasDelegate = false
    var cancelsTouchesInView = true
    var delaysTouchesBegan = false
    var delaysTouchesEnded = true
    var simultaneousNames: Set<String> = []
    var committedState: GestureState = .possible
    var heldTransition: GestureState?
    var hasHeldEvent = false
    var heldEventValue = GestureEvent(
        time: .zero, recognizer: 0, kind: .custom, state: .possible, region: 0, location: .zero, touches: 0)
    var deferredTransition: GestureState?
    var ignoresMoves = false
    var readsOnlyTouchCount = false
    var isInvolved = false
    var simultaneousMask: UInt64 = 0
    var requireMask: UInt64 = 0
    var lastLocation: Point = .zero
    var measuredStamp: UInt64 = 0
    var currentTouchCount = 0
    var isEnabled = true
    var touchSlots: InlineArray<16, Int16> = InlineArray(repeating: -1)
    var touchSlotCount = 0
    var timerDeadline: Instant?
    var failureRequirements: [GestureRecognizer] = []
    var actions: [GestureRecognizer.TargetAction] = []
    var nextActionID = 0
    var currentEvent: GestureEvent?
}

extension GestureRecognizer {
    /// The engine this recognizer is installed in (set by `GestureEngine.add`, cleared when the
    /// engine goes away). An `UnownedLink`: the engine owns its recognizers and clears this link
    /// in its `deinit`, so it is never left dangling, and the per-frame path pays no
    /// weak-reference load for it.
    public internal(set) final var engine: GestureEngine? {
        get { fields.engineLink.object }
        set { fields.engineLink = UnownedLink(newValue) }
    }

    /// `body(engine)` without retaining the engine (the per-frame queries), or `absent` when not installed.
    @inline(__always) final func withEngine<R>(_ absent: R, _ body: (GestureEngine) -> R) -> R {
        let link = fields.engineLink  // a copy: no access to `fields` lasts through `body`
        return link.with(absent, body)
    }

    /// The region it is attached to (the engine's region tree keeps it alive; cleared with `engine`).
    public internal(set) final var region: Region? {
        get { fields.regionLink.object }
        set {
            fields.regionLink = UnownedLink(newValue)
            fields.regionIndex = newValue?.index ?? 0
        }
    }
    /// `region`'s index in the engine (0 when not attached), kept with `region`: each event
    /// carries it, and reading it costs no retain/release of the region.
    final var regionIndex: Int { @inline(__always) get { fields.regionIndex } }
    /// Position in the engine's recognizer table.
    public internal(set) final var index: Int {
        @inline(__always) get { fields.index }
        @inline(__always) set { fields.index = newValue }
    }

    /// The questions the engine asks about this recognizer (S17–S21). Held strongly (UIKit's is
    /// weak): the recognizer owns its delegate, which is the usual shape here (a small policy
    /// object made for the recognizer, kept for its lifetime), and Embedded Swift has no weak
    /// references. A delegate that refers back to its recognizer holds it `unowned(unsafe)` or sets
    /// `delegate = nil` when done, or the pair is never freed.
    public final var delegate: GestureRecognizerDelegate? {
        @inline(__always) get { fields.delegate }
        set {
            fields.delegate = newValue
            fields.hasDelegate = newValue != nil
        }
    }
    /// Whether a delegate was set: the engine asks the delegate only then, so a recognizer without
    /// one costs no existential load per question.
    final var hasDelegate: Bool { @inline(__always) get { fields.hasDelegate } }

    /// S22–S25, UIKit defaults.
    public final var cancelsTouchesInView: Bool {
        @inline(__always) get { fields.cancelsTouchesInView }
        @inline(__always) set { fields.cancelsTouchesInView = newValue }
    }
    public final var delaysTouchesBegan: Bool {
        @inline(__always) get { fields.delaysTouchesBegan }
        @inline(__always) set { fields.delaysTouchesBegan = newValue }
    }
    public final var delaysTouchesEnded: Bool {
        @inline(__always) get { fields.delaysTouchesEnded }
        @inline(__always) set { fields.delaysTouchesEnded = newValue }
    }

    /// Names this recognizer recognizes simultaneously with (S17, from the board file).
    public final var simultaneousNames: Set<String> {
        get { fields.simultaneousNames }
        set {
            fields.simultaneousNames = newValue
            engine?.relationsChanged()
        }
    }

    // MARK: state

    final var committedState: GestureState {
        @inline(__always) get { fields.committedState }
        set {
            fields.committedState = newValue
            // The engine resets only the recognizers that reached a terminal state (S6).
            if newValue.isTerminal {
                let i = fields.index
                withEngine(()) { $0.terminalMask |= 1 << UInt64(i) }
            }
        }
    }
    /// The transition held back by a failure requirement (S15): `.began`, `.recognized`, or
    /// `.ended` (began, then ended while waiting).
    final var heldTransition: GestureState? {
        @inline(__always) get { fields.heldTransition }
        set {
            let wasHeld = fields.heldTransition != nil
            fields.heldTransition = newValue
            // The engine keeps the set of held recognizers: a failure visits only those (S15).
            guard wasHeld != (newValue != nil), fields.index >= 0 else { return }
            let bit: UInt64 = 1 << UInt64(fields.index)
            withEngine(()) { engine in
                if newValue == nil { engine.heldMask &= ~bit } else { engine.heldMask |= bit }
            }
        }
    }
    final var heldEvent: GestureEvent? {
        get { fields.hasHeldEvent ? fields.heldEventValue : nil }
        set {
            if let e = newValue { fields.heldEventValue = e }
            fields.hasHeldEvent = newValue != nil
        }
    }
    /// `heldEvent`'s storage: a flag and a value instead of an optional, so that clearing it (at
    /// every reset and failure) stores one byte, not a 137-byte optional.
    final var hasHeldEvent: Bool {
        @inline(__always) get { fields.hasHeldEvent }
        @inline(__always) set { fields.hasHeldEvent = newValue }
    }
    final var heldEventValue: GestureEvent {
        @inline(__always) get { fields.heldEventValue }
        @inline(__always) _modify { yield &fields.heldEventValue }
    }
    /// A begin/recognize request made while the frame is still being offered to others.
    final var deferredTransition: GestureState? {
        @inline(__always) get { fields.deferredTransition }
        @inline(__always) set { fields.deferredTransition = newValue }
    }
    /// Set by a built-in recognizer while `touchesMoved` would do nothing (pinch or rotation
    /// without two fingers): the engine then skips the call. Never set for a subclass that may
    /// override `touchesMoved`.
    final var ignoresMoves: Bool {
        @inline(__always) get { fields.ignoresMoves }
        @inline(__always) set { fields.ignoresMoves = newValue }
    }
    /// Set only on the built-in recognizers' final classes (`builtIn(…)` of the tap, long press,
    /// pan, swipe, pinch and rotation), which read only how many touches a phase has in
    /// `touchesBegan`/`touchesEnded` and nothing of the set in `touchesMoved`: being final, no
    /// subclass can override the callbacks the engine then skips. The engine calls `began(count:)`,
    /// `moved()` and `ended(count:)` instead, without building or copying a `TouchSet` (888 bytes)
    /// per call. An instance made with the public `init` (or of a subclass) gets every set.
    final var readsOnlyTouchCount: Bool {
        @inline(__always) get { fields.readsOnlyTouchCount }
        @inline(__always) set { fields.readsOnlyTouchCount = newValue }
    }
    /// Set while the recognizer has received touches since its last reset.
    final var isInvolved: Bool {
        @inline(__always) get { fields.isInvolved }
        @inline(__always) set { fields.isInvolved = newValue }
    }
    /// Relations resolved to recognizer indices by the engine.
    final var simultaneousMask: UInt64 {
        @inline(__always) get { fields.simultaneousMask }
        @inline(__always) set { fields.simultaneousMask = newValue }
    }
    final var requireMask: UInt64 {
        @inline(__always) get { fields.requireMask }
        @inline(__always) set { fields.requireMask = newValue }
    }
    /// The last centroid while touches were present, for events after every finger lifted.
    final var lastLocation: Point {
        @inline(__always) get { fields.lastLocation }
        @inline(__always) set { fields.lastLocation = newValue }
    }
    /// The engine's `touchStamp` when `lastLocation` and `currentTouchCount` were measured:
    /// while it is unchanged they are the centroid and count of the current touches (a pan
    /// event asks three times per step).
    final var measuredStamp: UInt64 {
        @inline(__always) get { fields.measuredStamp }
        @inline(__always) set { fields.measuredStamp = newValue }
    }
    final var currentTouchCount: Int {
        @inline(__always) get { fields.currentTouchCount }
        @inline(__always) set { fields.currentTouchCount = newValue }
    }

    /// S10: a disabled recognizer receives no touches; disabling one mid-gesture cancels it
    /// (continuous) or fails it (discrete).
    public final var isEnabled: Bool {
        @inline(__always) get { fields.isEnabled }
        set {
            let wasEnabled = fields.isEnabled
            fields.isEnabled = newValue
            guard wasEnabled, !newValue, let engine else { return }
            engine.recognizerWasDisabled(self)
        }
    }

    // MARK: touches (indices into the engine's touch table)

    final var touchSlots: InlineArray<16, Int16> {
        @inline(__always) get { fields.touchSlots }
        @inline(__always) _modify { yield &fields.touchSlots }
    }
    final var touchSlotCount: Int {
        @inline(__always) get { fields.touchSlotCount }
        @inline(__always) set { fields.touchSlotCount = newValue }
    }

    /// The timer deadline, or nil.
    public internal(set) final var timerDeadline: Instant? {
        @inline(__always) get { fields.timerDeadline }
        set {
            fields.timerDeadline = newValue
            withEngine(()) { $0.timerChanged(self) }
        }
    }

    /// `require(toFail:)`: recognizers that must fail before this one may leave `possible` (S15).
    public internal(set) final var failureRequirements: [GestureRecognizer] {
        get { fields.failureRequirements }
        _modify { yield &fields.failureRequirements }
    }

    final var actions: [TargetAction] {
        @inline(__always) get { fields.actions }
        _modify { yield &fields.actions }
    }

    /// The event being dispatched while an action runs (S4): state, location and kind fields
    /// as they were at the transition.
    public internal(set) final var currentEvent: GestureEvent? {
        @inline(__always) get { fields.currentEvent }
        @inline(__always) set { fields.currentEvent = newValue }
    }
}
