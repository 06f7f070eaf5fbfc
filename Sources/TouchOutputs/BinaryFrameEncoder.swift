import Gestures
import TouchCore

/// Gesture events as binary frames for microcontrollers (`docs/PROTOCOL.md`, decoded in C by
/// `tools/mcu/touchwire_frame.h`).
///
/// A frame is `A5 5A | version | type | sequence (u16 LE) | length | payload | CRC-16 (u16 LE)`;
/// the CRC (CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor) covers
/// version through the last payload byte. Every multi-byte field is little-endian. Pure and
/// deterministic: the same event and sequence number give the same bytes. The caller numbers
/// the frames (one counter per channel), so a receiver sees a gap when the sink drops a frame.
package struct BinaryFrameEncoder: Sendable {
    /// The two bytes that open every frame.
    package static let sync0: UInt8 = 0xA5
    package static let sync1: UInt8 = 0x5A
    /// The protocol version this encoder writes.
    package static let version: UInt8 = 1
    /// Header bytes before the payload (sync ×2, version, type, sequence ×2, length).
    package static let headerLength = 7
    /// The longest recognizer name carried; longer names are cut at a UTF-8 boundary.
    package static let maximumNameLength = 32

    /// What a frame carries.
    package enum FrameType: UInt8, Sendable {
        /// One gesture event (payload below).
        case event = 0x01
    }

    /// Byte offsets of the event payload's fields.
    package enum EventField {
        package static let time = 0, kind = 4, state = 5, recognizer = 6, region = 7, touches = 8, detail = 9
        package static let x = 10, y = 14, a = 18, b = 22, c = 26, d = 30, nameLength = 34, name = 35
    }

    package let names: EventNames

    package init(names: EventNames) { self.names = names }

    /// Appends one event frame numbered `sequence` to `out` (no allocation once `out` has capacity).
    package func encode(_ event: GestureEvent, sequence: UInt16, into out: inout [UInt8]) {
        let start = out.count
        out.append(Self.sync0)
        out.append(Self.sync1)
        out.append(Self.version)
        out.append(FrameType.event.rawValue)
        appendLE(sequence, to: &out)
        let lengthAt = out.count
        out.append(0)
        let payloadStart = out.count
        appendLE(UInt32(truncatingIfNeeded: event.time.microseconds), to: &out)
        out.append(event.kind.rawValue)
        out.append(event.state.rawValue)
        out.append(UInt8(clamping: event.recognizer))
        out.append(UInt8(clamping: event.region))
        out.append(UInt8(clamping: event.touches))
        switch event.kind {
        case .tap: out.append(UInt8(clamping: event.taps))
        case .swipe: out.append(event.direction.rawValue)
        case .stroke: out.append(UInt8(clamping: max(event.stroke, 0)))
        default: out.append(0)
        }
        appendFixed(event.location.x, 100, to: &out)
        appendFixed(event.location.y, 100, to: &out)
        switch event.kind {
        case .pan:
            appendFixed(event.translation.x, 100, to: &out)
            appendFixed(event.translation.y, 100, to: &out)
            appendFixed(event.velocity.x, 100, to: &out)
            appendFixed(event.velocity.y, 100, to: &out)
        case .stroke:
            appendFixed(event.value, 10_000, to: &out)
            for _ in 0..<3 { appendFixed(0, 1, to: &out) }
        case .pinch, .rotation:
            appendFixed(event.value, 10_000, to: &out)
            appendFixed(event.scalarVelocity, 10_000, to: &out)
            appendFixed(0, 1, to: &out)
            appendFixed(0, 1, to: &out)
        default:
            for _ in 0..<4 { appendFixed(0, 1, to: &out) }
        }
        let name = names.recognizerUTF8Name(for: event)
        var length = min(name.count, Self.maximumNameLength)
        // Never cut a UTF-8 sequence: back up over continuation bytes.
        while length < name.count, length > 0, name[length] & 0xC0 == 0x80 { length -= 1 }
        out.append(UInt8(length))
        out.append(contentsOf: name[..<length])
        out[lengthAt] = UInt8(out.count - payloadStart)
        let crc = Self.crc16(out, from: start + 2, to: out.count)
        appendLE(crc, to: &out)
    }

    /// The frame as a new array (allocates; for tests and tools).
    package func frame(for event: GestureEvent, sequence: UInt16) -> [UInt8] {
        var out: [UInt8] = []
        encode(event, sequence: sequence, into: &out)
        return out
    }

    /// CRC-16/CCITT-FALSE of `bytes[from..<to]` (check value of "123456789": 0x29B1).
    package static func crc16(_ bytes: [UInt8], from: Int, to: Int) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        var i = from
        while i < to {
            crc ^= UInt16(bytes[i]) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
            i += 1
        }
        return crc
    }

    private func appendLE<I: FixedWidthInteger>(_ v: I, to out: inout [UInt8]) {
        var x = v.littleEndian
        for _ in 0..<(I.bitWidth / 8) {
            out.append(UInt8(truncatingIfNeeded: x))
            x >>= 8
        }
    }

    /// `value × scale` rounded to the nearest integer, clamped to Int32; NaN becomes 0.
    private func appendFixed(_ value: Double, _ scale: Double, to out: inout [UInt8]) {
        let scaled = (value * scale).rounded()
        let v: Int32
        if scaled.isNaN {
            v = 0
        } else if scaled >= Double(Int32.max) {
            v = .max
        } else if scaled <= Double(Int32.min) {
            v = .min
        } else {
            v = Int32(scaled)
        }
        appendLE(UInt32(bitPattern: v), to: &out)
    }
}

extension EventNames {
    /// The UTF-8 bytes of the event's recognizer name (a control's region name), or empty when unknown.
    func recognizerUTF8Name(for event: GestureEvent) -> ArraySlice<UInt8> {
        if event.kind == .control {
            return regionUTF8.indices.contains(event.recognizer) ? regionUTF8[event.recognizer][...] : []
        }
        return recognizerUTF8.indices.contains(event.recognizer) ? recognizerUTF8[event.recognizer][...] : []
    }
}
