import TouchCore

/// A GPIO chip in memory, standing in for libgpiod in tests and on simulated boards.
///
/// Single-threaded like the rest of the simulated world unless noted. Outputs record every
/// level change with the simulated instant (`clock`), so tests check pulse lengths and
/// levels on the injected clock; inputs are driven with `drive(_:active:at:)`, which queues
/// the edges a real chip would report.
package final class SimulatedGPIO: GPIOProvider {
    /// One level change of an output line.
    package struct Change: Hashable, Sendable {
        package var line: GPIOLineID
        package var active: Bool
        package var at: Instant
    }

    /// Chips that exist, by label, and their line counts.
    package let chips: [String: Int]
    package var clock: any TouchClock
    /// Called after every output level change (line, logical level, instant): how simulated
    /// chips see their reset and INT lines being driven.
    package var onOutputChange: ((GPIOLineID, Bool, Instant) -> Void)?
    package private(set) var history: [Change] = []
    /// Whether `history` records changes (tests); off for a chip that lives as long as a service.
    package var keepsHistory = true
    /// Lines held by someone else (to test the "busy" error).
    package var busyLines: [GPIOLineID: String] = [:]
    private var requested: Set<GPIOLineID> = []
    private var outputs: Set<GPIOLineID> = []
    fileprivate var levels: [GPIOLineID: Bool] = [:]
    fileprivate var edges: [GPIOLineID: [GPIOEdgeEvent]] = [:]

    package init(chips: [String: Int] = ["sim-gpio": 64], clock: any TouchClock = StandingClock()) {
        self.chips = chips
        self.clock = clock
    }

    private func check(_ id: GPIOLineID) throws(GPIOError) {
        guard let count = chips[id.chip] else {
            throw .chipNotFound(chip: id.chip, available: chips.keys.sorted().map { "\($0) (\(chips[$0]!) lines)" })
        }
        guard id.offset >= 0, id.offset < count else { throw .lineOutOfRange(id, lineCount: count) }
        if let holder = busyLines[id] { throw .busy(id, consumer: holder) }
        if requested.contains(id) { throw .busy(id, consumer: "touchwire") }
    }

    package func requestOutput(_ id: GPIOLineID, activeLow: Bool, active: Bool) throws(GPIOError) -> any GPIOOutput {
        try check(id)
        requested.insert(id)
        outputs.insert(id)
        let line = SimulatedOutput(id: id, chip: self, active: active)
        record(id, active)
        return line
    }

    package func requestInput(_ id: GPIOLineID, activeLow: Bool, edges: GPIOEdges?) throws(GPIOError) -> any GPIOInput {
        try check(id)
        requested.insert(id)
        return SimulatedInput(id: id, chip: self, edgeKinds: edges)
    }

    /// Drives an input line from outside (the controller pulling INT), queueing the edge.
    package func drive(_ id: GPIOLineID, active: Bool, at time: Instant) {
        let old = levels[id] ?? false
        levels[id] = active
        if old != active { edges[id, default: []].append(GPIOEdgeEvent(rising: active, timestamp: time)) }
    }

    /// The logical level of any line (outputs as last set, inputs as driven).
    package func isActive(_ id: GPIOLineID) -> Bool { levels[id] ?? false }

    /// Whether the line is currently requested.
    package func isRequested(_ id: GPIOLineID) -> Bool { requested.contains(id) }

    fileprivate func record(_ id: GPIOLineID, _ active: Bool) {
        levels[id] = active
        let now = clock.now
        if keepsHistory { history.append(Change(line: id, active: active, at: now)) }
        onOutputChange?(id, active, now)
    }

    fileprivate func release(_ id: GPIOLineID) {
        requested.remove(id)
        outputs.remove(id)
    }

    /// Whether the line is currently requested as an output (driven by this process).
    package func isOutput(_ id: GPIOLineID) -> Bool { outputs.contains(id) }

    /// The level changes of one line, in order.
    package func changes(of id: GPIOLineID) -> [Change] { history.filter { $0.line == id } }
}

private final class SimulatedOutput: GPIOOutput {
    let id: GPIOLineID
    let chip: SimulatedGPIO  // strong: the chip lives as long as its lines (it holds none of them)
    private(set) var isActive: Bool

    init(id: GPIOLineID, chip: SimulatedGPIO, active: Bool) {
        self.id = id
        self.chip = chip
        isActive = active
    }

    func setActive(_ active: Bool) throws(GPIOError) {
        isActive = active
        chip.record(id, active)
    }

    deinit { chip.release(id) }
}

private final class SimulatedInput: GPIOInput {
    let id: GPIOLineID
    let chip: SimulatedGPIO  // strong: the chip lives as long as its lines (it holds none of them)
    let edgeKinds: GPIOEdges?

    init(id: GPIOLineID, chip: SimulatedGPIO, edgeKinds: GPIOEdges?) {
        self.id = id
        self.chip = chip
        self.edgeKinds = edgeKinds
    }

    func isActive() throws(GPIOError) -> Bool { chip.levels[id] ?? false }

    /// Returns a queued edge at once (the simulated world never blocks), or nil.
    func waitForEdge(timeoutMicroseconds: Int64) throws(GPIOError) -> GPIOEdgeEvent? {
        guard let kinds = edgeKinds else { return nil }
        while var queue = chip.edges[id], !queue.isEmpty {
            let e = queue.removeFirst()
            chip.edges[id] = queue
            switch kinds {
            case .both: return e
            case .rising where e.rising: return e
            case .falling where !e.rising: return e
            default: continue
            }
        }
        return nil
    }

    deinit { chip.release(id) }
}
