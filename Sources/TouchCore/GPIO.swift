/// A GPIO line named the way the character device names it: a chip (its label, such as
/// `pinctrl-bcm2711`, or a path such as `/dev/gpiochip0`) and a line offset on that chip.
/// Never a sysfs number: those moved between Pi kernels.
public struct GPIOLineID: Hashable, Sendable, CustomStringConvertible {
    public var chip: String
    public var offset: Int

    public init(chip: String, offset: Int) {
        self.chip = chip
        self.offset = offset
    }

    /// "pinctrl-bcm2711:17".
    public var description: String { "\(chip):\(offset)" }
}

/// Which edges of an input line wake the reader.
public enum GPIOEdges: Sendable, Hashable {
    case rising, falling, both
}

/// One edge seen on an input line, timestamped by the kernel at the interrupt.
public struct GPIOEdgeEvent: Sendable, Hashable, BitwiseCopyable {
    /// True for a rising edge (physical level low → high).
    public var rising: Bool
    /// When the edge happened, on the monotonic clock.
    public var timestamp: Instant

    public init(rising: Bool, timestamp: Instant) {
        self.rising = rising
        self.timestamp = timestamp
    }
}

/// What went wrong with a GPIO chip or line. Every case names the chip and, where it applies, the line.
public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No chip with that label, name or path; `available` lists "gpiochipN [label]" for each chip found.
    case chipNotFound(chip: String, available: [String])
    /// The chip has fewer lines.
    case lineOutOfRange(GPIOLineID, lineCount: Int)
    /// Another consumer holds the line (a kernel driver, or another process).
    case busy(GPIOLineID, consumer: String?)
    /// The process may not open the chip (add the user to group `gpio`).
    case permissionDenied(chip: String)
    /// Anything else: what was attempted and the errno.
    case failed(GPIOLineID, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .chipNotFound(let chip, let available):
            let list = available.isEmpty ? "no GPIO chips found" : "chips found: " + available.joined(separator: ", ")
            return "GPIO chip \"\(chip)\" not found (\(list))"
        case .lineOutOfRange(let id, let count): return "GPIO \(id): the chip has only \(count) lines"
        case .busy(let id, let consumer):
            return "GPIO \(id) is busy" + (consumer.map { " (held by \"\($0)\")" } ?? "")
        case .permissionDenied(let chip): return "permission denied opening GPIO chip \"\(chip)\" (join group gpio)"
        case .failed(let id, let op, let e): return "GPIO \(id): \(op) failed (errno \(e))"
        }
    }
}

/// An output line requested for this process. `setActive(true)` drives the line's active level
/// (high, or low for an active-low line). Releasing the object returns the line to the kernel;
/// owners set it inactive first on every exit path.
public protocol GPIOOutput: AnyObject {
    var id: GPIOLineID { get }
    /// Drives the line. Never blocks for long (one ioctl).
    func setActive(_ active: Bool) throws(GPIOError)
    /// The level last set.
    var isActive: Bool { get }
}

/// An input line requested for edge events (a touch controller's INT) or for reading (probing).
public protocol GPIOInput: AnyObject {
    var id: GPIOLineID { get }
    /// The current logical level (true = active).
    func isActive() throws(GPIOError) -> Bool
    /// Waits up to `timeoutMicroseconds` for an edge; nil on timeout. (0 polls.)
    func waitForEdge(timeoutMicroseconds: Int64) throws(GPIOError) -> GPIOEdgeEvent?
}

/// Where lines come from: libgpiod on a real system, a simulated chip in tests.
public protocol GPIOProvider: AnyObject {
    /// Requests `id` as an output with consumer name "touchwire", initially `active`.
    func requestOutput(_ id: GPIOLineID, activeLow: Bool, active: Bool) throws(GPIOError) -> any GPIOOutput
    /// Requests `id` as an input reporting `edges` (nil: no edge events).
    func requestInput(_ id: GPIOLineID, activeLow: Bool, edges: GPIOEdges?) throws(GPIOError) -> any GPIOInput
}
