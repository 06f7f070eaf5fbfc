// The firmware example (docs/mcu.md): the board's engine fed the trace compiled into the image,
// its events written as the JSON lines of `touchwire replay` (formats.md §2), byte for byte.
//
// What an integrator replaces: `tw_frame_*`/`tw_contact_*` (here the generated trace tables; on a
// device, the frames their I2C driver decodes) and `tw_write` (here semihosting; a UART on a
// device). The engine, the recognizers and the encoder below stay as they are.
import Gestures
import TouchCore

@_extern(c, "tw_frame_count") func twFrameCount() -> Int32
@_extern(c, "tw_frame_time") func twFrameTime(_ frame: Int32) -> Int64
@_extern(c, "tw_frame_contacts") func twFrameContacts(_ frame: Int32) -> Int32
@_extern(c, "tw_contact_id") func twContactId(_ contact: Int32) -> UInt8
@_extern(c, "tw_contact_x") func twContactX(_ contact: Int32) -> Double
@_extern(c, "tw_contact_y") func twContactY(_ contact: Int32) -> Double
@_extern(c, "tw_contact_pressure") func twContactPressure(_ contact: Int32) -> UInt16
@_extern(c, "tw_contact_area") func twContactArea(_ contact: Int32) -> UInt16
@_extern(c, "tw_write") func twWrite(_ bytes: UnsafePointer<UInt8>, _ count: Int32)
@_extern(c, "tw_mark") func twMark(_ what: Int32)
@_extern(c, "tw_report") func twReport(_ frames: Int32)
@_extern(c, "tw_frame_begin") func twFrameBegin()
@_extern(c, "tw_frame_end") func twFrameEnd(_ frame: Int32)

/// Gesture events as the JSON lines of formats.md §2 (the port of TouchOutputs' `EventJSONEncoder`:
/// the same keys in the same order, the same string escapes, Swift's shortest round-trip doubles).
final class JSONLineSink: GestureEventSink {
    /// Names as JSON strings, quotes included, by engine index.
    let recognizers: [[UInt8]]
    let regions: [[UInt8]]
    let strokes: [[[UInt8]]]
    var line: [UInt8] = []

    init(engine: GestureEngine) {
        recognizers = engine.recognizers.map { JSONLineSink.json($0.name) }
        regions = engine.regions.map { JSONLineSink.json($0.name) }
        strokes = engine.recognizers.map { r in
            guard r.kind == .stroke || r.kind == .checkmark else { return [] }
            return unsafeDowncast(r, to: StrokeGestureRecognizer.self).templates.names.map { JSONLineSink.json($0) }
        }
        line.reserveCapacity(512)
    }

    var takesRegionDeliveries: Bool { false }

    func emit(_ event: GestureEvent) {
        line.removeAll(keepingCapacity: true)
        literal("{\"t_us\":")
        integer(event.time.microseconds)
        literal(",\"recognizer\":")
        if event.kind == .control {
            region(event.recognizer)
        } else if recognizers.indices.contains(event.recognizer) {
            line.append(contentsOf: recognizers[event.recognizer])
        } else {
            line.append(contentsOf: JSONLineSink.json("#" + String(event.recognizer)))
        }
        literal(",\"kind\":\"")
        utf8(event.kind.description)
        literal("\",\"state\":\"")
        utf8(event.state.description)
        literal("\",\"region\":")
        region(event.region)
        literal(",\"x\":")
        double(event.location.x)
        literal(",\"y\":")
        double(event.location.y)
        literal(",\"touches\":")
        integer(Int64(event.touches))
        switch event.kind {
        case .tap:
            literal(",\"taps\":")
            integer(Int64(event.taps))
        case .swipe:
            literal(",\"direction\":\"")
            utf8(event.direction.name)
            literal("\"")
        case .pan:
            literal(",\"translation_x\":")
            double(event.translation.x)
            literal(",\"translation_y\":")
            double(event.translation.y)
            literal(",\"velocity_x\":")
            double(event.velocity.x)
            literal(",\"velocity_y\":")
            double(event.velocity.y)
        case .pinch:
            literal(",\"scale\":")
            double(event.value)
            literal(",\"velocity\":")
            double(event.scalarVelocity)
        case .rotation:
            literal(",\"rotation\":")
            double(event.value)
            literal(",\"velocity\":")
            double(event.scalarVelocity)
        case .stroke:
            literal(",\"stroke\":")
            if strokes.indices.contains(event.recognizer), strokes[event.recognizer].indices.contains(event.stroke) {
                line.append(contentsOf: strokes[event.recognizer][event.stroke])
            } else {
                literal("null")
            }
            literal(",\"score\":")
            double((event.value * 1000).rounded() / 1000)
        case .longPress, .checkmark, .custom:
            break
        case .control:
            if event.isControlAction {
                literal(",\"control\":")
                region(event.control)
            }
        }
        literal("}\n")
        line.withUnsafeBufferPointer { twWrite($0.baseAddress!, Int32($0.count)) }
    }

    private func region(_ index: Int) {
        if regions.indices.contains(index) {
            line.append(contentsOf: regions[index])
        } else {
            line.append(contentsOf: JSONLineSink.json("#" + String(index)))
        }
    }

    private func literal(_ s: StaticString) {
        line.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private func utf8(_ s: String) { line.append(contentsOf: s.utf8) }

    private func integer(_ v: Int64) {
        if v < 0 { line.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            repeat {
                raw[19 - n] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                n += 1
            } while m > 0
            line.append(contentsOf: raw[(20 - n)...])
        }
    }

    /// Swift's shortest round-trip form ("233.0"); NaN and infinities as 0.0 (formats.md §2).
    private func double(_ v: Double) { utf8((v.isFinite ? v : 0).description) }

    /// `s` as a JSON string literal (TouchOutputs' `appendJSONString`).
    static func json(_ s: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}

@main
struct Firmware {
    static func main() {
        let engine = makeBoardEngine()
        let sink = JSONLineSink(engine: engine)
        engine.sink = sink
        twMark(0)  // set-up done: the frames start
        var contact: Int32 = 0
        var frame = TouchFrame(timestamp: .zero)
        let frames = twFrameCount()
        var i: Int32 = 0
        while i < frames {
            let n = twFrameContacts(i)
            let t = Instant(microseconds: twFrameTime(i))
            if n < 0 {
                frame = .cancel(at: t)
            } else {
                frame = TouchFrame(timestamp: t)
                for _ in 0..<n {
                    frame.append(
                        Contact(
                            id: twContactId(contact),
                            position: Point(x: twContactX(contact), y: twContactY(contact)),
                            pressure: twContactPressure(contact), area: twContactArea(contact)))
                    contact += 1
                }
            }
            twFrameBegin()
            engine.process(frame)
            twFrameEnd(i)
            i += 1
        }
        engine.drainTimers()
        twMark(1)  // the frames and the timers after them are done
        if engine.droppedActions > 0 || engine.droppedTouches > 0 {
            let note = "firmware: dropped \(engine.droppedActions) actions, \(engine.droppedTouches) touches\n"
            var bytes = Array(note.utf8)
            bytes.withUnsafeMutableBufferPointer { twWrite($0.baseAddress!, Int32($0.count)) }
        }
        twReport(frames)
        engine.sink = nil
        withExtendedLifetime(sink) {}
    }
}
