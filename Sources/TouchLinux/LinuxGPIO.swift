import CLinux
import Glibc
import TouchCore

/// GPIO through the character device with libgpiod v1 (Debian 12's 1.6.x): the only file that
/// calls libgpiod. Chips are found by label, name, path or number (`gpiod_chip_open_lookup`);
/// every request uses the consumer name "touchwire".
package final class LinuxGPIO: GPIOProvider {
    package static let consumer = "touchwire"

    package init() {}

    /// "gpiochip0 [pinctrl-bcm2711] (58 lines)" for each chip, for error messages and `probe`.
    package static func availableChips() -> [String] {
        guard let iter = gpiod_chip_iter_new() else { return [] }
        defer { gpiod_chip_iter_free(iter) }
        var out: [String] = []
        while let chip = gpiod_chip_iter_next(iter) {
            let name = String(cString: gpiod_chip_name(chip))
            let label = String(cString: gpiod_chip_label(chip))
            out.append("\(name) [\(label)] (\(gpiod_chip_num_lines(chip)) lines)")
        }
        return out
    }

    /// Opens the chip and takes the line. The corresponding C functions are
    /// `gpiod_chip_open_lookup` and `gpiod_chip_get_line`.
    fileprivate static func openLine(_ id: GPIOLineID) throws(GPIOError) -> (OpaquePointer, OpaquePointer) {
        errno = 0
        guard let chip = gpiod_chip_open_lookup(id.chip) else {
            if errno == EACCES || errno == EPERM { throw .permissionDenied(chip: id.chip) }
            throw .chipNotFound(chip: id.chip, available: availableChips())
        }
        let count = Int(gpiod_chip_num_lines(chip))
        guard id.offset >= 0, id.offset < count, let line = gpiod_chip_get_line(chip, UInt32(id.offset)) else {
            gpiod_chip_close(chip)
            throw .lineOutOfRange(id, lineCount: count)
        }
        return (chip, line)
    }

    fileprivate static func requestFailure(_ id: GPIOLineID, _ line: OpaquePointer, _ operation: String) -> GPIOError {
        let e = errno
        if e == EBUSY {
            gpiod_line_update(line)
            let consumer = gpiod_line_consumer(line).map { String(cString: $0) }
            return .busy(id, consumer: consumer)
        }
        return .failed(id, operation: operation, errno: e)
    }

    package func requestOutput(_ id: GPIOLineID, activeLow: Bool, active: Bool) throws(GPIOError) -> any GPIOOutput {
        let (chip, line) = try LinuxGPIO.openLine(id)
        let flags: Int32 = activeLow ? tw_gpiod_flag_active_low() : 0
        if gpiod_line_request_output_flags(line, LinuxGPIO.consumer, flags, active ? 1 : 0) != 0 {
            let error = LinuxGPIO.requestFailure(id, line, "request output")
            gpiod_chip_close(chip)
            throw error
        }
        return LinuxGPIOOutput(id: id, chip: chip, line: line, active: active)
    }

    package func requestInput(_ id: GPIOLineID, activeLow: Bool, edges: GPIOEdges?) throws(GPIOError) -> any GPIOInput {
        let (chip, line) = try LinuxGPIO.openLine(id)
        let flags: Int32 = activeLow ? tw_gpiod_flag_active_low() : 0
        let result: Int32
        switch edges {
        case nil: result = gpiod_line_request_input_flags(line, LinuxGPIO.consumer, flags)
        case .rising: result = gpiod_line_request_rising_edge_events_flags(line, LinuxGPIO.consumer, flags)
        case .falling: result = gpiod_line_request_falling_edge_events_flags(line, LinuxGPIO.consumer, flags)
        case .both: result = gpiod_line_request_both_edges_events_flags(line, LinuxGPIO.consumer, flags)
        }
        if result != 0 {
            let error = LinuxGPIO.requestFailure(id, line, "request input")
            gpiod_chip_close(chip)
            throw error
        }
        return LinuxGPIOInput(id: id, chip: chip, line: line)
    }
}

/// Owns an open chip and a requested line; releases both exactly once.
struct GPIOLineHandle: ~Copyable {
    let chip: OpaquePointer
    let line: OpaquePointer
    deinit {
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }
}

final class LinuxGPIOOutput: GPIOOutput {
    let id: GPIOLineID
    private let handle: GPIOLineHandle
    private(set) var isActive: Bool

    init(id: GPIOLineID, chip: OpaquePointer, line: OpaquePointer, active: Bool) {
        self.id = id
        handle = GPIOLineHandle(chip: chip, line: line)
        isActive = active
    }

    /// The corresponding C function is `gpiod_line_set_value`.
    func setActive(_ active: Bool) throws(GPIOError) {
        if gpiod_line_set_value(handle.line, active ? 1 : 0) != 0 {
            throw .failed(id, operation: "set value", errno: errno)
        }
        isActive = active
    }
}

final class LinuxGPIOInput: GPIOInput {
    let id: GPIOLineID
    private let handle: GPIOLineHandle

    init(id: GPIOLineID, chip: OpaquePointer, line: OpaquePointer) {
        self.id = id
        handle = GPIOLineHandle(chip: chip, line: line)
    }

    /// The corresponding C function is `gpiod_line_get_value`.
    func isActive() throws(GPIOError) -> Bool {
        let v = gpiod_line_get_value(handle.line)
        if v < 0 { throw .failed(id, operation: "get value", errno: errno) }
        return v == 1
    }

    /// The corresponding C functions are `gpiod_line_event_wait` and `gpiod_line_event_read`.
    /// The kernel stamps the event at the interrupt (CLOCK_MONOTONIC since Linux 5.7).
    func waitForEdge(timeoutMicroseconds: Int64) throws(GPIOError) -> GPIOEdgeEvent? {
        var timeout = timespec(
            tv_sec: Int(timeoutMicroseconds / 1_000_000), tv_nsec: Int(timeoutMicroseconds % 1_000_000) * 1000)
        while true {
            let r = gpiod_line_event_wait(handle.line, &timeout)
            if r == 0 { return nil }
            if r < 0 {
                if errno == EINTR { continue }
                throw .failed(id, operation: "wait for edge", errno: errno)
            }
            break
        }
        var event = gpiod_line_event()
        if gpiod_line_event_read(handle.line, &event) != 0 {
            throw .failed(id, operation: "read edge event", errno: errno)
        }
        let us = Int64(event.ts.tv_sec) * 1_000_000 + Int64(event.ts.tv_nsec) / 1000
        return GPIOEdgeEvent(rising: event.event_type == tw_gpiod_event_rising(), timestamp: Instant(microseconds: us))
    }
}
