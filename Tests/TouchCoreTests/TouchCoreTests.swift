import TouchCore
import XCTest

/// Instants: the injected clock every frame, timer and event carries.
final class InstantTests: XCTestCase {
    func testMillisecondsAndArithmetic() {
        let t = Instant.milliseconds(250)
        XCTAssertEqual(t.microseconds, 250_000)
        XCTAssertEqual(t.advanced(byMicroseconds: 1_500).microseconds, 251_500)
        XCTAssertEqual(t.advanced(byMicroseconds: -250_000), .zero)
        XCTAssertEqual(Instant.milliseconds(300).microseconds(since: t), 50_000)
        XCTAssertEqual(t.microseconds(since: .milliseconds(300)), -50_000)
        XCTAssertEqual(Instant.milliseconds(1250).seconds(since: t), 1.0, accuracy: 1e-12)
        XCTAssertEqual(t.seconds(since: .milliseconds(1250)), -1.0, accuracy: 1e-12)
    }

    func testOrderingAndNoDeadline() {
        XCTAssertLessThan(Instant(microseconds: 1), Instant(microseconds: 2))
        XCTAssertFalse(Instant(microseconds: 2) < Instant(microseconds: 2))
        XCTAssertLessThanOrEqual(Instant(microseconds: 2), Instant(microseconds: 2))
        XCTAssertLessThan(Instant(microseconds: -5), .zero)
        XCTAssertGreaterThan(Instant.distantFuture, Instant.milliseconds(Int64(Int32.max) * 1000))
        let sorted = [Instant(microseconds: 3), .zero, .milliseconds(1)].sorted()
        XCTAssertEqual(sorted, [.zero, Instant(microseconds: 3), .milliseconds(1)])
    }

    /// Advancing "no deadline" wraps instead of trapping: the hot path never traps on arithmetic.
    func testArithmeticWrapsInsteadOfTrapping() {
        XCTAssertEqual(Instant.distantFuture.advanced(byMicroseconds: 1).microseconds, .min)
        XCTAssertEqual(Instant(microseconds: .min).microseconds(since: Instant(microseconds: 1)), .max)
    }

    func testDescriptionIsMicroseconds() {
        XCTAssertEqual(Instant.milliseconds(2).description, "2000µs")
    }
}

/// Points and rectangles in panel pixels.
final class GeometryTests: XCTestCase {
    func testDistanceIsEuclideanAndSymmetric() {
        let a = Point(x: 1, y: 2)
        let b = Point(x: 4, y: 6)
        XCTAssertEqual(a.distance(to: b), 5)
        XCTAssertEqual(b.distance(to: a), 5)
        XCTAssertEqual(a.distance(to: a), 0)
        XCTAssertEqual(Point(x: -3, y: 0).distance(to: Point(x: 0, y: -4)), 5)
    }

    func testVectorArithmetic() {
        XCTAssertEqual(Point(x: 5, y: 7) - Point(x: 2, y: 10), Point(x: 3, y: -3))
        XCTAssertEqual(Point(x: 5, y: 7) + Point(x: 2, y: -10), Point(x: 7, y: -3))
        XCTAssertEqual(Point.zero, Point(x: 0, y: 0))
        XCTAssertEqual(Point(x: 1.5, y: -2).description, "(1.5, -2.0)")
    }

    /// Half-open containment: a touch on the shared edge of two neighbours belongs to exactly one.
    func testRectContainmentIsHalfOpen() {
        let r = Rect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertTrue(r.contains(Point(x: 10, y: 20)), "top-left corner is inside")
        XCTAssertTrue(r.contains(Point(x: 109.999, y: 69.999)))
        XCTAssertFalse(r.contains(Point(x: 110, y: 30)), "right edge belongs to the neighbour")
        XCTAssertFalse(r.contains(Point(x: 50, y: 70)), "bottom edge belongs to the neighbour")
        XCTAssertFalse(r.contains(Point(x: 9.999, y: 30)))
        XCTAssertFalse(r.contains(Point(x: 50, y: 19.999)))
        let right = Rect(x: 110, y: 20, width: 100, height: 50)
        let edge = Point(x: 110, y: 40)
        XCTAssertEqual([r.contains(edge), right.contains(edge)], [false, true])
    }

    func testEmptyRectContainsNothing() {
        XCTAssertFalse(Rect(x: 0, y: 0, width: 0, height: 10).contains(.zero))
    }
}

/// Frames: fixed-capacity snapshots of the contacts down at one instant.
final class TouchFrameTests: XCTestCase {
    func testEmptyFrameAndCancel() {
        let f = TouchFrame(timestamp: .milliseconds(5))
        XCTAssertTrue(f.isEmpty)
        XCTAssertFalse(f.isCancel)
        XCTAssertEqual(f.count, 0)
        XCTAssertEqual(f.contacts, [])
        let c = TouchFrame.cancel(at: .milliseconds(6))
        XCTAssertTrue(c.isCancel)
        XCTAssertTrue(c.isEmpty)
        XCTAssertEqual(c.timestamp, .milliseconds(6))
        XCTAssertEqual(c.description, "TouchFrame(6000µs, cancel)")
        // A cancel is not the same as "every finger up".
        XCTAssertFalse(c.hasSameContacts(as: TouchFrame(timestamp: .milliseconds(6))))
        XCTAssertNotEqual(c, TouchFrame(timestamp: .milliseconds(6)))
    }

    func testAppendKeepsOrderAndFindsByID() {
        var f = TouchFrame(timestamp: .zero)
        XCTAssertTrue(f.append(Contact(id: 3, x: 10, y: 20)))
        XCTAssertTrue(f.append(Contact(id: 7, position: Point(x: 30, y: 40), pressure: 12, area: 4)))
        XCTAssertEqual(f.count, 2)
        XCTAssertFalse(f.isEmpty)
        XCTAssertFalse(f.isFull)
        XCTAssertEqual(f[0].id, 3)
        XCTAssertEqual(f[1].position, Point(x: 30, y: 40))
        XCTAssertEqual(f.contact(withID: 7)?.pressure, 12)
        XCTAssertEqual(f.contact(withID: 7)?.area, 4)
        XCTAssertNil(f.contact(withID: 4))
        XCTAssertEqual(f.contacts.map(\.id), [3, 7])
        XCTAssertEqual(f.description, "TouchFrame(0µs, [#3@10.0,20.0 #7@30.0,40.0])")
        f[0] = Contact(id: 3, x: 11, y: 21)
        XCTAssertEqual(f.contact(withID: 3)?.position, Point(x: 11, y: 21))
    }

    /// Ten contacts fit (FT5x06, GT911); an eleventh is refused and changes nothing.
    func testCapacityIsTenAndAnEleventhContactIsRefused() {
        var f = TouchFrame(timestamp: .zero)
        for i in 0..<10 { XCTAssertTrue(f.append(Contact(id: UInt8(i), x: Double(i), y: 0))) }
        XCTAssertTrue(f.isFull)
        XCTAssertFalse(f.append(Contact(id: 10, x: 99, y: 99)))
        XCTAssertEqual(f.count, 10)
        XCTAssertNil(f.contact(withID: 10))
        XCTAssertEqual(f.contact(withID: 9)?.position, Point(x: 9, y: 0))
        let twelve = (0..<12).map { Contact(id: UInt8($0), x: 0, y: 0) }
        XCTAssertEqual(TouchFrame(timestamp: .zero, contacts: twelve).count, 10)
    }

    func testEqualityComparesTimestampAndContactsInOrder() {
        let two = [Contact(id: 0, x: 1, y: 1), Contact(id: 1, x: 2, y: 2)]
        let a = TouchFrame(timestamp: .milliseconds(1), contacts: two)
        let sameLater = TouchFrame(timestamp: .milliseconds(2), contacts: two)
        let swapped = TouchFrame(timestamp: .milliseconds(1), contacts: two.reversed())
        let moved = TouchFrame(
            timestamp: .milliseconds(1), contacts: [Contact(id: 0, x: 1, y: 1), Contact(id: 1, x: 2, y: 3)])
        XCTAssertEqual(a, TouchFrame(timestamp: .milliseconds(1), contacts: two))
        XCTAssertTrue(a.hasSameContacts(as: sameLater))
        XCTAssertNotEqual(a, sameLater)
        XCTAssertFalse(a.hasSameContacts(as: swapped))
        XCTAssertFalse(a.hasSameContacts(as: moved))
        XCTAssertFalse(a.hasSameContacts(as: TouchFrame(timestamp: .milliseconds(1), contacts: [a[0]])))
    }
}

/// Issue 30, class 3: the checked conversions every parsed number goes through.
final class CheckedConversionTests: XCTestCase {
    func testCheckingRefusesWhatWouldTrap() {
        XCTAssertNil(Int32(checking: 3e9))
        XCTAssertNil(Int(checking: 1e300))
        XCTAssertNil(Int(checking: .nan))
        XCTAssertNil(Int(checking: -.infinity))
        XCTAssertNil(Int64(checking: 9_223_372_036_854_775_808.0), "2^63 is one past Int64.max")
        XCTAssertEqual(Int64(checking: -9_223_372_036_854_775_808.0), .min)
        XCTAssertEqual(Int32(checking: 2_147_483_647.9), .max)
        XCTAssertNil(Int32(checking: 2_147_483_648.0))
        XCTAssertEqual(UInt8(checking: -0.5), 0)
        XCTAssertEqual(Int(checking: -12.7), -12)
    }

    func testSaturatingHoldsAtTheEnds() {
        XCTAssertEqual(Int32(saturating: 3e9), .max)
        XCTAssertEqual(Int32(saturating: -3e9), .min)
        XCTAssertEqual(Int(saturating: .nan), 0)
        XCTAssertEqual(Int(saturating: .infinity), .max)
        XCTAssertEqual(Int64.saturatingDifference(.max, .min), .max)
        XCTAssertEqual(Int64.saturatingDifference(.min, 1), .min)
        XCTAssertEqual(Int64.saturatingSum(.max, 100_000), .max)
        XCTAssertEqual(Int64.saturatingSum(5, -7), -2)
        XCTAssertEqual(wholeDescription(12.9), "12")
        XCTAssertEqual(wholeDescription(.infinity), "inf")
        XCTAssertEqual(wholeDescription(1e300), "1e+300")
    }
}
