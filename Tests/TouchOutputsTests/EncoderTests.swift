import Gestures
import TouchCore
import TouchOutputs
import XCTest

final class EventJSONEncoderTests: XCTestCase {
    let names = EventNames(
        recognizers: ["double-tap", "swipe-left", "drag", "zoom", "twist", "hold"], regions: ["screen", "ok-button"])

    func event(_ recognizer: Int, _ kind: GestureKind, _ state: GestureState, x: Double = 401.5, y: Double = 233.0)
        -> GestureEvent
    {
        GestureEvent(
            time: Instant(microseconds: 130_000), recognizer: recognizer, kind: kind, state: state, region: 0,
            location: Point(x: x, y: y), touches: 1)
    }

    func testTapMatchesTheFormatsExampleByteForByte() {
        var e = event(0, .tap, .recognized)
        e.taps = 2
        var out: [UInt8] = []
        EventJSONEncoder(names: names).encode(e, into: &out)
        let expected =
            #"{"t_us":130000,"recognizer":"double-tap","kind":"tap","state":"recognized","#
            + #""region":"screen","x":401.5,"y":233.0,"touches":1,"taps":2}"#
            + "\n"
        XCTAssertEqual(out, Array(expected.utf8))
    }

    func testSwipe() {
        var e = event(1, .swipe, .recognized, x: 10, y: 20.25)
        e.direction = .left
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"swipe-left","kind":"swipe","state":"recognized","#
                + #""region":"screen","x":10.0,"y":20.25,"touches":1,"direction":"left"}"#
                + "\n")
    }

    func testPan() {
        var e = event(2, .pan, .changed)
        e.touches = 2
        e.translation = Point(x: 12.5, y: -3)
        e.velocity = Point(x: 250, y: -0.125)
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"drag","kind":"pan","state":"changed","region":"screen","x":401.5,"#
                + #""y":233.0,"touches":2,"translation_x":12.5,"#
                + #""translation_y":-3.0,"velocity_x":250.0,"velocity_y":-0.125}"#
                + "\n")
    }

    func testPinchWritesNonFiniteAsZero() {
        var e = event(3, .pinch, .began)
        e.touches = 2
        e.value = 1.5
        e.scalarVelocity = .nan
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"zoom","kind":"pinch","state":"began","#
                + #""region":"screen","x":401.5,"y":233.0,"touches":2,"scale":1.5,"velocity":0.0}"#
                + "\n")
        e.scalarVelocity = -.infinity
        XCTAssertTrue(EventJSONEncoder(names: names).line(for: e).hasSuffix(#""velocity":0.0}"# + "\n"))
    }

    func testRotation() {
        var e = event(4, .rotation, .ended)
        e.touches = 2
        e.value = Double.pi / 4
        e.scalarVelocity = -1
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"twist","kind":"rotation","state":"ended","region":"screen","#
                + #""x":401.5,"y":233.0,"touches":2,"rotation":0.7853981633974483,"velocity":-1.0}"#
                + "\n")
    }

    func testLongPressHasOnlyCommonFields() {
        var e = event(5, .longPress, .cancelled)
        e.taps = 3  // must not leak into the line
        e.value = 9
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"hold","kind":"long_press","#
                + #""state":"cancelled","region":"screen","x":401.5,"y":233.0,"touches":1}"#
                + "\n")
    }

    func testControlNamesTheControlRegionAsRecognizer() {
        var e = event(1, .control, .recognized)
        e.region = 1
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"ok-button","kind":"control","#
                + #""state":"recognized","region":"ok-button","x":401.5,"y":233.0,"touches":1}"#
                + "\n")
    }

    // formats.md §2: a control's action carries its region as its own field, after the common ones.
    func testControlActionCarriesTheControlField() {
        var e = event(1, .control, .recognized)
        e.region = 1
        e.control = 1
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: e),
            #"{"t_us":130000,"recognizer":"ok-button","kind":"control","state":"recognized","#
                + #""region":"ok-button","x":401.5,"y":233.0,"touches":1,"control":"ok-button"}"#
                + "\n")
    }

    func testNamesAreEscapedAndUnknownIndicesDoNotCrash() {
        let odd = EventNames(recognizers: ["a\"b\\c\nd\u{1}é"], regions: [])
        var e = event(0, .longPress, .began)
        e.time = Instant(microseconds: -5)
        XCTAssertEqual(
            EventJSONEncoder(names: odd).line(for: e),
            ##"{"t_us":-5,"recognizer":"a\"b\\c\nd\u0001é","kind":"long_press","##
                + ##""state":"began","region":"#0","x":401.5,"y":233.0,"touches":1}"##
                + "\n")
        e.recognizer = 7
        XCTAssertTrue(EventJSONEncoder(names: odd).line(for: e).contains(##""recognizer":"#7""##))
    }

    func testDeliveryLine() {
        let d = RegionDelivery(
            time: Instant(microseconds: 120_000), region: 0, phase: .began, touch: 0, location: Point(x: 1, y: 2))
        var out: [UInt8] = []
        EventJSONEncoder(names: names).encode(d, into: &out)
        XCTAssertEqual(
            String(decoding: out, as: UTF8.self),
            #"{"t_us":120000,"region":"screen","delivery":"began","touch":0,"serial":0}"# + "\n")
        let cancelled = RegionDelivery(
            time: Instant(microseconds: 9), region: 1, phase: .cancelled, touch: 3, location: .zero, serial: 12)
        XCTAssertEqual(
            EventJSONEncoder(names: names).line(for: cancelled),
            #"{"t_us":9,"region":"ok-button","delivery":"cancelled","touch":3,"serial":12}"# + "\n")
    }

    func testEncodingAppendsAndIsDeterministic() {
        var e = event(0, .tap, .recognized)
        e.taps = 1
        let encoder = EventJSONEncoder(names: names)
        var out: [UInt8] = []
        encoder.encode(e, into: &out)
        let one = out
        encoder.encode(e, into: &out)
        XCTAssertEqual(out, one + one)
    }
}

final class EventTextEncoderTests: XCTestCase {
    let names = EventNames(recognizers: ["double-tap", "drag"], regions: ["screen"])

    func testDefaultTemplate() {
        var e = GestureEvent(
            time: Instant(microseconds: 130_000), recognizer: 0, kind: .tap, state: .recognized, region: 0,
            location: Point(x: 401.5, y: 233), touches: 1)
        e.taps = 2
        XCTAssertEqual(EventTextEncoder.defaultTemplate, "{recognizer} {state} {x} {y}")
        XCTAssertEqual(EventTextEncoder(names: names).line(for: e), "double-tap recognized 401.5 233.0\n")
    }

    func testAllFieldsAndFieldsOfOtherKindsAreEmpty() {
        var e = GestureEvent(
            time: Instant(microseconds: 42), recognizer: 1, kind: .pan, state: .changed, region: 0,
            location: Point(x: 1, y: 2), touches: 2)
        e.translation = Point(x: 3, y: -4)
        e.velocity = Point(x: 5.5, y: 6)
        let encoder = EventTextEncoder(
            template:
                "{t_us},{recognizer},{kind},{state},{region},{x},{y},{touches},{taps},{direction},"
                + "{translation_x},{translation_y},{velocity_x},{velocity_y},{scale},{rotation},{velocity}",
            names: names)
        XCTAssertEqual(encoder.line(for: e), "42,drag,pan,changed,screen,1.0,2.0,2,,,3.0,-4.0,5.5,6.0,,,\n")
    }

    func testUnknownPlaceholdersAreReportedAndCopiedLiterally() {
        XCTAssertEqual(EventTextEncoder.validate(template: EventTextEncoder.defaultTemplate), [])
        XCTAssertEqual(EventTextEncoder.validate(template: "{x} {bogus} {y} {nope} {bogus} {"), ["bogus", "nope"])
        var e = GestureEvent(
            time: .zero, recognizer: 0, kind: .tap, state: .recognized, region: 0, location: .zero, touches: 1)
        e.taps = 1
        XCTAssertEqual(
            EventTextEncoder(template: "TAP {taps} {bogus} {", names: names).line(for: e), "TAP 1 {bogus} {\n")
    }
}
