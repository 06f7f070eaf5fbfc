import TouchCore

/// The GPIO chip named "sim" in board files: lines that exist only in memory, so a simulated
/// board can bind gestures to GPIO with no hardware. Each level change is reported through
/// `log` ("gpio sim:5 active") so `touchwire run` shows what a real line would do.
///
/// Keeps no history (it runs for as long as the service does). Not thread-safe: lines are
/// requested while the service is built and driven by the output thread only.
public final class MemoryGPIOChip: GPIOProvider {
    /// The chip name that selects this chip.
    public let name: String
    public let lineCount: Int
    private var requested: Set<Int> = []
    private let log: (String) -> Void

    public init(name: String = "sim", lineCount: Int = 64, log: @escaping (String) -> Void = StandardError.log) {
        self.name = name
        self.lineCount = lineCount
        self.log = log
    }

    public func requestOutput(_ id: GPIOLineID, activeLow: Bool, active: Bool) throws(GPIOError) -> any GPIOOutput {
        try take(id)
        log("gpio \(id): requested, \(active ? "active" : "inactive")")
        return Line(id: id, chip: self, active: active)
    }

    public func requestInput(_ id: GPIOLineID, activeLow: Bool, edges: GPIOEdges?) throws(GPIOError) -> any GPIOInput {
        throw .failed(id, operation: "request input (the \"\(name)\" chip has outputs only)", errno: 22)
    }

    private func take(_ id: GPIOLineID) throws(GPIOError) {
        guard id.chip == name else { throw .chipNotFound(chip: id.chip, available: ["\(name) (\(lineCount) lines)"]) }
        guard id.offset >= 0, id.offset < lineCount else { throw .lineOutOfRange(id, lineCount: lineCount) }
        guard requested.insert(id.offset).inserted else { throw .busy(id, consumer: "touchwire") }
    }

    fileprivate func changed(_ id: GPIOLineID, _ active: Bool) { log("gpio \(id): \(active ? "active" : "inactive")") }
    fileprivate func release(_ id: GPIOLineID) { requested.remove(id.offset) }

    private final class Line: GPIOOutput {
        let id: GPIOLineID
        let chip: MemoryGPIOChip  // strong: the chip lives as long as its lines (it holds none of them)
        private(set) var isActive: Bool

        init(id: GPIOLineID, chip: MemoryGPIOChip, active: Bool) {
            self.id = id
            self.chip = chip
            isActive = active
        }

        func setActive(_ active: Bool) throws(GPIOError) {
            if active != isActive { chip.changed(id, active) }
            isActive = active
        }

        deinit { chip.release(id) }
    }
}
