import TouchCore

/// One record of a Linux input device stream: `struct input_event` of `linux/input.h`.
///
/// The kernel's layout is `{ struct timeval time; __u16 type; __u16 code; __s32 value; }`, where
/// the time is two `__kernel_ulong_t` (seconds, microseconds): 24 bytes on 64-bit systems,
/// 16 bytes on 32-bit ones (also with a 64-bit `time_t`, since Linux 5.0). The record's time is
/// read apart (`decodeTime`): an evdev controller whose device reports on `CLOCK_MONOTONIC`
/// (`EVIOCSCLOCKID`) stamps its frames with it, the pipeline's clock; the engine never reads a clock.
package struct InputEvent: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    @inlinable package init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// Bytes per record on this machine (`sizeof(struct input_event)`).
    package static let byteCount = 2 * MemoryLayout<Int>.size + 8

    /// Decodes the record at `offset` of `bytes` (little-endian host, as every supported board).
    /// `offset + byteCount` must not exceed `bytes.count`.
    @inlinable package static func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> InputEvent {
        let base = offset + 2 * MemoryLayout<Int>.size
        return InputEvent(
            type: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: base, as: UInt16.self)),
            code: UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 2, as: UInt16.self)),
            value: Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: base + 4, as: Int32.self)))
    }

    /// The record's time at `offset` (`struct timeval`: seconds, microseconds) as an `Instant` on
    /// the clock the device reports on; `.zero` for a record written with no time.
    @inlinable package static func decodeTime(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Instant {
        let w = MemoryLayout<Int>.size
        let seconds = Int64(Int(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int.self)))
        let micros = Int64(Int(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + w, as: Int.self)))
        return Instant(microseconds: seconds &* 1_000_000 &+ micros)
    }

    /// Appends the record's bytes to `bytes` with `time` (zero: none, what a uinput write or a
    /// simulated device emits).
    package func encode(into bytes: inout [UInt8], time: Instant = .zero) {
        let seconds = Int(truncatingIfNeeded: time.microseconds / 1_000_000)
        let micros = Int(truncatingIfNeeded: time.microseconds % 1_000_000)
        withUnsafeBytes(of: seconds.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: micros.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: type.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: code.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The records of `events` as one byte stream.
    package static func encode(_ events: [InputEvent]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * byteCount)
        for e in events { e.encode(into: &bytes) }
        return bytes
    }

    package var description: String { "(\(type), \(code), \(value))" }

    package static let synReport = InputEvent(type: EvdevCode.EV_SYN, code: EvdevCode.SYN_REPORT, value: 0)
    package static let synDropped = InputEvent(type: EvdevCode.EV_SYN, code: EvdevCode.SYN_DROPPED, value: 0)
}

/// The event types and codes touchwire uses, with the values of `linux/input-event-codes.h`
/// (stable kernel ABI). Named as the kernel names them.
// swift-format-ignore: AlwaysUseLowerCamelCase
package enum EvdevCode {
    package static let EV_SYN: UInt16 = 0x00
    package static let EV_KEY: UInt16 = 0x01
    package static let EV_ABS: UInt16 = 0x03

    package static let SYN_REPORT: UInt16 = 0
    /// Multi-touch protocol A: the end of one contact's values within a report.
    package static let SYN_MT_REPORT: UInt16 = 2
    package static let SYN_DROPPED: UInt16 = 3

    package static let BTN_TOUCH: UInt16 = 0x14a
    package static let BTN_TOOL_FINGER: UInt16 = 0x145

    package static let ABS_X: UInt16 = 0x00
    package static let ABS_Y: UInt16 = 0x01
    package static let ABS_PRESSURE: UInt16 = 0x18
    package static let ABS_MT_SLOT: UInt16 = 0x2f
    package static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30
    package static let ABS_MT_POSITION_X: UInt16 = 0x35
    package static let ABS_MT_POSITION_Y: UInt16 = 0x36
    package static let ABS_MT_TOOL_TYPE: UInt16 = 0x37
    package static let ABS_MT_TRACKING_ID: UInt16 = 0x39
    package static let ABS_MT_PRESSURE: UInt16 = 0x3a

    /// `ABS_MT_TOOL_TYPE` values: a finger, and a palm (libinput: the touch is cancelled).
    package static let MT_TOOL_FINGER: Int32 = 0
    package static let MT_TOOL_PALM: Int32 = 2

    /// `INPUT_PROP_DIRECT`: the device is a touchscreen (coordinates map to the display).
    package static let INPUT_PROP_DIRECT: Int = 0x01
}
