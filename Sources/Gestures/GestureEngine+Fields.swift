import TouchCore

/// The engine's mutable fields, in one value held by the engine's only `@exclusivity(unchecked)`
/// stored property (`GestureEngine.fields`): the contract is in `Ownership.swift` and written
/// once in docs/ARCHITECTURE.md ("Unchecked storage"). Only the thread holding the recognizer
/// stage reads or writes them. The engine's properties of the same names forward here
/// (`@inline(__always)`: the optimized code is a plain load or store, as for a stored property).
struct EngineFields {
    var recognizers: [GestureRecognizer] = []
    var sink: GestureEventSink?
    var sinkTakesDeliveries = false
    var now: Instant = .zero
    var diagnostics: ((GestureEngine.Diagnostic) -> Void)?
    var touchesOutsideRoot = 0
    var droppedActions = 0
    var droppedTouches = 0
    var inUseRecords: UInt32 = 0
    var slotForID: InlineArray<16, Int16> = InlineArray(repeating: -1)
    var nextSerial: UInt32 = 0
    var pendingCount = 0
    var regionActiveTouches: ContiguousArray<Int>
    var recognizersOver: ContiguousArray<UInt64>
    var isProcessing = false
    var isDeliveringFrame = false
    var deferredMask: UInt64 = 0
    var relationsDirty = true
    var lastTapEnd = Instant(microseconds: .min / 2)
    var lastTapLocation = Point.zero
    var lastTapCount = 0
    var tapCountInterval: Int64 = 300_000
    var tapCountDistance: Double
    var terminalMask: UInt64 = 0
    var involvedMask: UInt64 = 0
    var earliestTimerIndex = -1
    var heldMask: UInt64 = 0
    var timerMask: UInt64 = 0
    var downIDs: UInt16 = 0
    var touchStamp: UInt64 = 1

    init(regionCount: Int, tapCountDistance: Double) {
        regionActiveTouches = ContiguousArray(repeating: 0, count: regionCount)
        recognizersOver = ContiguousArray(repeating: 0, count: regionCount)
        self.tapCountDistance = tapCountDistance
    }
}

extension GestureEngine {
    /// Every recognizer, by index (`GestureRecognizer.index`); the engine owns them.
    public internal(set) var recognizers: [GestureRecognizer] {
        @inline(__always) get { fields.recognizers }
        @inline(__always) _modify { yield &fields.recognizers }
    }
    /// Receives the actions' events and the region deliveries. Held strongly (until issue 16's
    /// fourth pass it was weak: a weak load and a slow release on every step with events); set
    /// it to nil to let go of the sink, and a sink must not hold its engine strongly.
    public var sink: GestureEventSink? {
        @inline(__always) get { fields.sink }
        set {
            fields.sink = newValue
            fields.sinkTakesDeliveries = newValue?.takesRegionDeliveries ?? false
        }
    }
    /// `sink?.takesRegionDeliveries`, read when the sink is set.
    var sinkTakesDeliveries: Bool { @inline(__always) get { fields.sinkTakesDeliveries } }

    /// The instant of the frame or timer being handled.
    public internal(set) var now: Instant {
        @inline(__always) get { fields.now }
        @inline(__always) set { fields.now = newValue }
    }

    /// When set, the engine reports every failure, hold and cancel with its reason — the answer
    /// to "why didn't my gesture fire?". Off by default; costs nothing when off.
    public var diagnostics: ((Diagnostic) -> Void)? {
        @inline(__always) get { fields.diagnostics }
        set { fields.diagnostics = newValue }
    }

    /// Touches that landed outside the root region (ignored).
    public internal(set) var touchesOutsideRoot: Int {
        @inline(__always) get { fields.touchesOutsideRoot }
        @inline(__always) set { fields.touchesOutsideRoot = newValue }
    }
    /// Actions dropped because more than `actionCapacity` happened in one step (never expected).
    public internal(set) var droppedActions: Int {
        @inline(__always) get { fields.droppedActions }
        @inline(__always) set { fields.droppedActions = newValue }
    }
    /// Touches refused because the touch table was full (never expected).
    public internal(set) var droppedTouches: Int {
        @inline(__always) get { fields.droppedTouches }
        @inline(__always) set { fields.droppedTouches = newValue }
    }

    /// Records in use (bit = record index; the table has 32 entries).
    var inUseRecords: UInt32 {
        @inline(__always) get { fields.inUseRecords }
        @inline(__always) set { fields.inUseRecords = newValue }
    }
    /// Controller tracking id → record index (ids 0…15), or -1.
    var slotForID: InlineArray<16, Int16> {
        @inline(__always) get { fields.slotForID }
        @inline(__always) _modify { yield &fields.slotForID }
    }
    var nextSerial: UInt32 {
        @inline(__always) get { fields.nextSerial }
        @inline(__always) set { fields.nextSerial = newValue }
    }
    /// Actions queued in `pending` in the step being handled.
    var pendingCount: Int {
        @inline(__always) get { fields.pendingCount }
        @inline(__always) set { fields.pendingCount = newValue }
    }
    var regionActiveTouches: ContiguousArray<Int> {
        @inline(__always) get { fields.regionActiveTouches }
        @inline(__always) _modify { yield &fields.regionActiveTouches }
    }
    /// By region index: the recognizers attached to that region or an ancestor (bit = index), the
    /// only ones a touch landing there is offered to (S8). Rebuilt with the relations.
    var recognizersOver: ContiguousArray<UInt64> {
        @inline(__always) get { fields.recognizersOver }
        @inline(__always) _modify { yield &fields.recognizersOver }
    }
    var isProcessing: Bool {
        @inline(__always) get { fields.isProcessing }
        @inline(__always) set { fields.isProcessing = newValue }
    }
    var isDeliveringFrame: Bool {
        @inline(__always) get { fields.isDeliveringFrame }
        @inline(__always) set { fields.isDeliveringFrame = newValue }
    }
    var deferredMask: UInt64 {
        @inline(__always) get { fields.deferredMask }
        @inline(__always) set { fields.deferredMask = newValue }
    }
    var relationsDirty: Bool {
        @inline(__always) get { fields.relationsDirty }
        @inline(__always) set { fields.relationsDirty = newValue }
    }
    /// For tap counts (S13): the last lifted touch.
    var lastTapEnd: Instant {
        @inline(__always) get { fields.lastTapEnd }
        @inline(__always) set { fields.lastTapEnd = newValue }
    }
    var lastTapLocation: Point {
        @inline(__always) get { fields.lastTapLocation }
        @inline(__always) set { fields.lastTapLocation = newValue }
    }
    var lastTapCount: Int {
        @inline(__always) get { fields.lastTapCount }
        @inline(__always) set { fields.lastTapCount = newValue }
    }
    /// Window within which a new touch continues a tap count.
    public var tapCountInterval: Int64 {
        @inline(__always) get { fields.tapCountInterval }
        @inline(__always) set { fields.tapCountInterval = newValue }
    }
    /// Distance within which a new touch continues a tap count.
    public var tapCountDistance: Double {
        @inline(__always) get { fields.tapCountDistance }
        @inline(__always) set { fields.tapCountDistance = newValue }
    }

    /// Recognizers that reached a terminal state since their last reset (bit = index; set by
    /// `GestureRecognizer.committedState`): the only ones `finishStep` resets.
    var terminalMask: UInt64 {
        @inline(__always) get { fields.terminalMask }
        @inline(__always) set { fields.terminalMask = newValue }
    }
    /// Recognizers that received a touch since their last reset (bit = index; `isInvolved`).
    var involvedMask: UInt64 {
        @inline(__always) get { fields.involvedMask }
        @inline(__always) set { fields.involvedMask = newValue }
    }
    /// The armed timer due first (recognizer index), or -1 when not known: found by
    /// `earliestTimer` once, forgotten by `timerChanged`, so the deadline loop rarely scans.
    var earliestTimerIndex: Int {
        @inline(__always) get { fields.earliestTimerIndex }
        @inline(__always) set { fields.earliestTimerIndex = newValue }
    }
    /// Recognizers holding a transition until others fail (bit = index; `heldTransition` keeps it).
    var heldMask: UInt64 {
        @inline(__always) get { fields.heldMask }
        @inline(__always) set { fields.heldMask = newValue }
    }
    /// Recognizers whose timer is armed (bit = recognizer index), kept by `timerChanged`.
    var timerMask: UInt64 {
        @inline(__always) get { fields.timerMask }
        @inline(__always) set { fields.timerMask = newValue }
    }
    /// Controller tracking ids whose finger is down (bit = id).
    var downIDs: UInt16 {
        @inline(__always) get { fields.downIDs }
        @inline(__always) set { fields.downIDs = newValue }
    }
    /// Changes whenever something a recognizer's centroid or touch count depends on may have
    /// changed: the instant, a touch record, a recognizer's touch list or receivers. Recognizers
    /// keep the last measure with the stamp it was made at (`GestureRecognizer.measuredStamp`).
    var touchStamp: UInt64 {
        @inline(__always) get { fields.touchStamp }
        @inline(__always) set { fields.touchStamp = newValue }
    }
}

extension GestureEngine {
    /// The invariants of the engine's unchecked storage that hold between steps, as one line per
    /// one broken (none when all hold): the recognizer table and each recognizer's links match
    /// `recognizers` and the region tree, and the masks and deadline table that mirror the
    /// recognizers' state (`timerMask`, `deadlines`, `heldMask`, `terminalMask`) and the touch
    /// table's indexes (`downIDs`, `slotForID`) agree with what they mirror. For tests (OwnershipTests).
    package func storageViolations() -> [String] {
        var out: [String] = []
        for (i, region) in regions.enumerated() {
            if region.index != i { out.append("\(region.name): index \(region.index), table position \(i)") }
            for child in region.children where child.parent !== region {
                out.append("\(child.name): parent is not \(region.name)")
            }
        }
        for (i, r) in recognizers.enumerated() {
            let bit: UInt64 = 1 << UInt64(i)
            if table[i] !== r { out.append("\(r.name): table entry \(i) is another recognizer") }
            if r.index != i { out.append("\(r.name): index \(r.index), table position \(i)") }
            if r.engine !== self { out.append("\(r.name): engine link is not this engine") }
            if let region = r.region {
                if !regions.contains(where: { $0 === region }) { out.append("\(r.name): region not in this engine") }
                if r.regionIndex != region.index { out.append("\(r.name): regionIndex \(r.regionIndex)") }
            } else {
                out.append("\(r.name): no region link")
            }
            if (r.timerDeadline != nil) != (timerMask & bit != 0) {
                let timer = r.timerDeadline == nil ? "disarmed" : "armed"
                out.append("\(r.name): timer \(timer), but timerMask bit \(timerMask & bit != 0 ? "set" : "clear")")
            }
            if deadlines[i] != (r.timerDeadline?.microseconds ?? .max) {
                out.append("\(r.name): deadline table \(deadlines[i]), timer \(r.timerDeadline?.microseconds ?? .max)")
            }
            if (r.heldTransition != nil) != (heldMask & bit != 0) {
                out.append("\(r.name): held transition and heldMask disagree")
            }
            if r.committedState.isTerminal && terminalMask & bit == 0 {
                out.append("\(r.name): \(r.committedState), but terminalMask bit clear")
            }
        }
        if recognizers.count < GestureEngine.maximumRecognizers && timerMask >> UInt64(recognizers.count) != 0 {
            out.append("timerMask has bits past the last recognizer")
        }
        for id in 0..<GestureEngine.trackingIDs {
            let s = Int(slotForID[id])
            let down = downIDs & (1 << UInt16(id)) != 0
            if down != (s >= 0) { out.append("tracking id \(id): downIDs and slotForID disagree") }
            if s >= 0 && (inUseRecords & (1 << UInt32(s)) == 0 || !records[s].isDown) {
                out.append("tracking id \(id): record \(s) is not a touch down")
            }
        }
        if pendingCount != 0 { out.append("\(pendingCount) actions left queued after the step") }
        return out
    }
}
