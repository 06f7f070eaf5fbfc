// The few C math functions the engine uses (stroke resampling and rejection, the rotation
// recognizer's angle), behind one shim so that the module builds in two configurations from the
// same sources: the host build maps them to Glibc (Foundation on Darwin), the Embedded Swift build
// (`mcu/`, docs/mcu.md) to the C library the firmware links (picolibc or newlib), declared here.
// Call sites read `CMath.sin(x)`: a namespace, so that no module-level `sin` competes with the C
// library's in files (tests with `@testable import`) that import both.

#if hasFeature(Embedded)
    @_extern(c, "sin") @usableFromInline func cSin(_ x: Double) -> Double
    @_extern(c, "cos") @usableFromInline func cCos(_ x: Double) -> Double
    @_extern(c, "tan") @usableFromInline func cTan(_ x: Double) -> Double
    @_extern(c, "acos") @usableFromInline func cAcos(_ x: Double) -> Double
    @_extern(c, "atan2") @usableFromInline func cAtan2(_ y: Double, _ x: Double) -> Double
#elseif canImport(Glibc)
    import Glibc
    @usableFromInline func cSin(_ x: Double) -> Double { Glibc.sin(x) }
    @usableFromInline func cCos(_ x: Double) -> Double { Glibc.cos(x) }
    @usableFromInline func cTan(_ x: Double) -> Double { Glibc.tan(x) }
    @usableFromInline func cAcos(_ x: Double) -> Double { Glibc.acos(x) }
    @usableFromInline func cAtan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
#else
    import Foundation
    @usableFromInline func cSin(_ x: Double) -> Double { Foundation.sin(x) }
    @usableFromInline func cCos(_ x: Double) -> Double { Foundation.cos(x) }
    @usableFromInline func cTan(_ x: Double) -> Double { Foundation.tan(x) }
    @usableFromInline func cAcos(_ x: Double) -> Double { Foundation.acos(x) }
    @usableFromInline func cAtan2(_ y: Double, _ x: Double) -> Double { Foundation.atan2(y, x) }
#endif

@usableFromInline enum CMath {
    @inlinable @inline(__always) static func sin(_ x: Double) -> Double { cSin(x) }
    @inlinable @inline(__always) static func cos(_ x: Double) -> Double { cCos(x) }
    @inlinable @inline(__always) static func tan(_ x: Double) -> Double { cTan(x) }
    @inlinable @inline(__always) static func acos(_ x: Double) -> Double { cAcos(x) }
    @inlinable @inline(__always) static func atan2(_ y: Double, _ x: Double) -> Double { cAtan2(y, x) }
}
