import Gestures
import TouchCore

/// Gesture events and region deliveries as the JSON lines of `formats.md` §2.
///
/// Pure and deterministic: the same event gives the same bytes on any machine. Keys always
/// come in the order `t_us, recognizer, kind, state, region, x, y, touches`, followed by the
/// kind's own fields — tap `taps`; swipe `direction`; pan `translation_x, translation_y,
/// velocity_x, velocity_y`; pinch `scale, velocity`; rotation `rotation, velocity`; stroke
/// `stroke, score` (the template name, the score to three decimals); none for
/// control `control` (the control region's name, when the event carries it); none for long
/// press, checkmark and custom. Doubles use Swift's shortest round-trip form
/// ("233.0"), with NaN/infinity written as 0.0; every line ends in "\n".
package struct EventJSONEncoder: Sendable {
    package let names: EventNames

    package init(names: EventNames) { self.names = names }

    /// Appends one event line to `out` (no allocation once `out` has capacity, for the usual values).
    package func encode(_ event: GestureEvent, into out: inout [UInt8]) { write(event, to: &out) }

    /// Appends one event line to a block of lines (replay: many lines, one write).
    package func encode(_ event: GestureEvent, into out: inout LineBlock) { write(event, to: &out) }

    /// Appends one delivery line to `out`.
    package func encode(_ delivery: RegionDelivery, into out: inout [UInt8]) { write(delivery, to: &out) }

    /// Appends one delivery line to a block of lines.
    package func encode(_ delivery: RegionDelivery, into out: inout LineBlock) { write(delivery, to: &out) }

    private func write<Out: ByteAppending & ~Copyable>(_ event: GestureEvent, to out: inout Out) {
        out.appendLiteral("{\"t_us\":")
        out.appendInteger(event.time.microseconds)
        out.appendLiteral(",\"recognizer\":")
        names.appendRecognizerJSON(for: event, to: &out)
        out.appendLiteral(",\"kind\":\"")
        out.appendUTF8(event.kind.description)
        out.appendLiteral("\",\"state\":\"")
        out.appendUTF8(event.state.description)
        out.appendLiteral("\",\"region\":")
        names.appendRegionJSON(event.region, to: &out)
        out.appendLiteral(",\"x\":")
        out.appendDouble(event.location.x)
        out.appendLiteral(",\"y\":")
        out.appendDouble(event.location.y)
        out.appendLiteral(",\"touches\":")
        out.appendInteger(event.touches)
        switch event.kind {
        case .tap:
            out.appendLiteral(",\"taps\":")
            out.appendInteger(event.taps)
        case .swipe:
            out.appendLiteral(",\"direction\":\"")
            out.appendUTF8(event.direction.name)
            out.appendByte(UInt8(ascii: "\""))
        case .pan:
            out.appendLiteral(",\"translation_x\":")
            out.appendDouble(event.translation.x)
            out.appendLiteral(",\"translation_y\":")
            out.appendDouble(event.translation.y)
            out.appendLiteral(",\"velocity_x\":")
            out.appendDouble(event.velocity.x)
            out.appendLiteral(",\"velocity_y\":")
            out.appendDouble(event.velocity.y)
        case .pinch:
            out.appendLiteral(",\"scale\":")
            out.appendDouble(event.value)
            out.appendLiteral(",\"velocity\":")
            out.appendDouble(event.scalarVelocity)
        case .rotation:
            out.appendLiteral(",\"rotation\":")
            out.appendDouble(event.value)
            out.appendLiteral(",\"velocity\":")
            out.appendDouble(event.scalarVelocity)
        case .stroke:
            out.appendLiteral(",\"stroke\":")
            names.appendStrokeJSON(recognizer: event.recognizer, stroke: event.stroke, to: &out)
            out.appendLiteral(",\"score\":")
            out.appendDouble((event.value * 1000).rounded() / 1000)
        case .longPress, .checkmark, .custom:
            break
        case .control:
            if event.isControlAction {
                out.appendLiteral(",\"control\":")
                names.appendRegionJSON(event.control, to: &out)
            }
        }
        out.appendLiteral("}\n")
    }

    /// One delivery line: `{"t_us":…,"region":"screen","delivery":"began","touch":0,"serial":1}`:
    /// `touch` is the controller's tracking id (reused by the next finger), `serial` the physical
    /// touch's own number (`Touch.serial`, never reused).
    private func write<Out: ByteAppending & ~Copyable>(_ delivery: RegionDelivery, to out: inout Out) {
        out.appendLiteral("{\"t_us\":")
        out.appendInteger(delivery.time.microseconds)
        out.appendLiteral(",\"region\":")
        names.appendRegionJSON(delivery.region, to: &out)
        out.appendLiteral(",\"delivery\":\"")
        out.appendUTF8(delivery.phase.description)
        out.appendLiteral("\",\"touch\":")
        out.appendInteger(delivery.touch)
        out.appendLiteral(",\"serial\":")
        out.appendInteger(delivery.serial)
        out.appendLiteral("}\n")
    }

    /// The event's line as a String (allocates; for tests and tools).
    package func line(for event: GestureEvent) -> String {
        var out: [UInt8] = []
        encode(event, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The delivery's line as a String (allocates; for tests and tools).
    package func line(for delivery: RegionDelivery) -> String {
        var out: [UInt8] = []
        encode(delivery, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
