import TouchCore
import XCTest

@testable import Gestures

/// Open-set rejection (`StrokeRejection`), one test at a time on the shapes that define it: a
/// straight line, a gentle arc, an upward scroll and a real check. S2: a stroke that is none of
/// the recognizer's shapes fails. The whole recognizer on everyday data: EverydayStrokeTests.
final class StrokeRejectionTests: XCTestCase {
    /// `points` prepared (`StrokeShape.prepare`).
    func prepared(_ points: [Point]) throws -> [Double] {
        var out = [Double](repeating: 0, count: StrokeShape.stride)
        var scratch = [Double](repeating: 0, count: 2 * StrokeShape.sampleCount)
        let ok = points.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                scratch.withUnsafeMutableBufferPointer { StrokeShape.prepare(p, into: o, scratch: $0) }
            }
        }
        XCTAssertTrue(ok)
        return out
    }

    func measure(_ m: StrokeShape.Measure, _ shape: [Double]) -> Double { shape[m.offset] }

    /// The everyday shapes the built-in table store leaves out (`BuiltInStrokeTable
    /// .excludedEverydayShapes`, stated as the firmware cannot afford to find them) are those
    /// preparing the built-in set leaves out; the shapes it generates one at a time are
    /// `everydayShapes()`, to the bit.
    func testTheTableStoreKeepsTheEverydayShapesThePreparedSetKeeps() throws {
        let all = StrokeRejection.everydayShapes()
        XCTAssertEqual(all.count, StrokeRejection.everydayShapeCount)
        var kept: [Double] = []
        var points = [Point](repeating: .zero, count: StrokeRejection.everydayPointCount)
        for i in 0..<StrokeRejection.everydayShapeCount {
            points.withUnsafeMutableBufferPointer { StrokeRejection.everydayShape(i, into: $0) }
            XCTAssertEqual(points, all[i].points, "everyday shape \(i)")
            if !BuiltInStrokeTable.excludedEverydayShapes.contains(i) { kept += try prepared(points) }
        }
        XCTAssertEqual(kept, StrokeTemplateSet.builtIn.everyday.shapes, "the everyday shapes the built-in set keeps")
    }

    /// A line of `length` px at `degrees` (y down), 25 samples on whole pixels, with a ±1 px
    /// alternating wobble across it (a panel's jitter).
    func line(degrees: Double, length: Double) -> [Point] {
        let a = degrees * Double.pi / 180
        return (0..<25).map { i in
            let s = Double(i) / 24 * length
            let wobble = i % 2 == 0 ? 1.0 : -1.0
            return Point(
                x: (200 + s * cos(a) - wobble * sin(a)).rounded(), y: (200 + s * sin(a) + wobble * cos(a)).rounded())
        }
    }

    /// A circular arc of `sweep` degrees, 150 px along, its chord horizontal, bulging downwards.
    func arc(sweep: Double) -> [Point] {
        let sw = sweep * Double.pi / 180
        let r = 150 / sw
        return (0..<30).map { i in
            let a = -sw / 2 + sw * Double(i) / 29
            return Point(x: 200 + r * sin(a), y: 200 + r * cos(a))
        }
    }

    /// A check as UIKit draws it: a short down leg to the right, then a longer up leg.
    let check: [Point] =
        (0...8).map { Point(x: 100 + 4 * Double($0), y: 200 + 6 * Double($0)) }
        + (1...16).map { Point(x: 132 + 6 * Double($0), y: 248 - 8 * Double($0)) }

    func testAStraightLineIsThinAndACheckIsNot() throws {
        for d in stride(from: 0.0, to: 360, by: 22.5) {
            XCTAssertLessThan(
                measure(.thinness, try prepared(line(degrees: d, length: 60))), StrokeRejection.lineThinness,
                "a 60 px line at \(d)° with 1 px of jitter is straight")
        }
        XCTAssertGreaterThan(measure(.thinness, try prepared(check)), StrokeRejection.lineLikeThinness)
        XCTAssertGreaterThan(measure(.thinness, try prepared(arc(sweep: 90))), StrokeRejection.lineThinness)
    }

    /// A check turns once, down then up; a line, an upward scroll and a 120° arc do not.
    func testTheCheckRuleWantsOneTurnDownThenUp() throws {
        let rule = try XCTUnwrap(StrokeRejection.turnRules.first { $0.gesture == "check" })
        func holds(_ p: [Point]) throws -> Bool {
            let s = try prepared(p)
            return s.withUnsafeBufferPointer { rule.holds(for: $0.baseAddress!) }
        }
        XCTAssertTrue(try holds(check))
        XCTAssertFalse(try holds(line(degrees: 0, length: 250)), "a swipe to the right")
        XCTAssertFalse(try holds(line(degrees: -90, length: 250)), "a scroll upwards")
        XCTAssertFalse(
            try holds(line(degrees: -60, length: 250)), "a swipe up and to the right, the check's up leg alone")
        XCTAssertFalse(try holds(arc(sweep: 120)), "a 120° arc: legs 60° apart")
        let measured = try prepared(check)
        XCTAssertEqual(measure(.descent, measured), 48.0 / 128.0, accuracy: 0.02)
        XCTAssertEqual(measure(.rise, measured), 1, accuracy: 0.01)
    }

    /// The built-in set: lines are `.straight`, arcs `.everyday`, and a check is a check.
    func testTheBuiltInSetRejectsLinesAndArcsAndKeepsTheCheck() throws {
        let set = StrokeTemplateSet.builtIn
        XCTAssertEqual(set.everyday.count, StrokeRejection.everydayShapes().count, "no built-in shape is everyday")
        XCTAssertEqual(StrokeRejection.everydayShapes().count, 344)
        XCTAssertFalse(set.lineLike.contains(true), "none of the sixteen is a line")
        func decide(_ p: [Point]) throws -> StrokeTemplateSet.Decision {
            let s = try prepared(p)
            return s.withUnsafeBufferPointer { set.classify($0.baseAddress!) }
        }
        guard case .straight = try decide(line(degrees: 90, length: 120)) else {
            return XCTFail("a straight scroll down is no gesture: \(try decide(line(degrees: 90, length: 120)))")
        }
        for sweep in [60.0, 90, 120] {
            let d = try decide(arc(sweep: sweep))
            guard case .gesture = d else { continue }
            XCTFail("a \(sweep)° arc is no gesture: \(d)")
        }
        guard case .gesture(let g, _) = try decide(check) else { return XCTFail("a check: \(try decide(check))") }
        XCTAssertEqual(set.names[g], "check")
    }

    /// A set that teaches a line keeps no everyday line near it: a straight stroke along it is
    /// its gesture, a straight stroke across it is not.
    func testATaughtLineKeepsItsEverydayNeighboursOut() throws {
        let slash = (0..<8).map { i in
            StrokeTemplate(name: "slash", points: line(degrees: 120 + Double(i), length: 150))
        }
        let set = try StrokeTemplateSet(slash)
        XCTAssertEqual(set.lineLike, [true])
        XCTAssertLessThan(set.everyday.count, StrokeRejection.everydayShapes().count)
        let along = try prepared(line(degrees: 125, length: 90))
        guard case .gesture = along.withUnsafeBufferPointer({ set.classify($0.baseAddress!) }) else {
            return XCTFail("a slash drawn again is a slash")
        }
        let across = try prepared(line(degrees: 35, length: 90))
        let d = across.withUnsafeBufferPointer { set.classify($0.baseAddress!) }
        guard case .everyday = d else { return XCTFail("a line across the slash is an everyday line: \(d)") }
    }
}
