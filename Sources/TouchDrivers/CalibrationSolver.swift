import TouchCore

/// One calibration press: where the driver saw it and where the target was.
package struct CalibrationPair: Hashable, Sendable {
    /// The point as the driver reports it before calibration: after `invert_*` and `swap_xy`,
    /// before calibration and rotation (`PanelTransform.oriented`).
    package var raw: Point
    /// The target in the unrotated display's pixels (`PanelTransform.unrotated` of the panel point).
    package var target: Point

    package init(raw: Point, target: Point) {
        self.raw = raw
        self.target = target
    }
}

/// Why no calibration could be fitted.
package enum CalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An affine fit needs at least 3 points.
    case tooFewPoints(Int)
    /// The raw points are (nearly) on one line or all the same: the fit is not determined.
    case collinear
    /// A coordinate is NaN or infinite.
    case nonFinite

    package var description: String {
        switch self {
        case .tooFewPoints(let n): return "an affine calibration needs at least 3 points, got \(n)"
        case .collinear:
            return "the touched points lie on one line (or on one spot); touch each target where it is shown"
        case .nonFinite: return "a coordinate is not a finite number"
        }
    }
}

/// A fitted calibration and how well it matches the presses.
package struct CalibrationFit: Hashable, Sendable {
    /// The fit in tslib's integer pointercal form (`a6` = `scale`, the others rounded), as written
    /// to the board file and `/etc/pointercal`. The residuals are those of this rounded form.
    package var calibration: AffineCalibration
    /// The unrounded least-squares fit (`a6` = 1).
    package var exact: AffineCalibration
    /// Distance in pixels between each target and its calibrated press, in input order.
    package var residuals: [Double]
    /// The largest residual, pixels.
    package var maxResidual: Double
    /// Root mean square of the residuals, pixels.
    package var rmsResidual: Double
}

/// tslib's `ts_calibrate` fit: `x' = a + b·x + c·y` and `y' = d + e·x + f·y` by least squares
/// over N ≥ 3 presses (tslib uses 5: the four corners inset and the centre), returned in
/// pointercal form `(a2 + a0·x + a1·y) / a6` with `a6 = 65536` and integer coefficients, as
/// tslib writes `/etc/pointercal`. Pure, deterministic.
///
/// The sums are taken about the presses' mean (tslib sums raw values; centring gives the
/// same solution with far better conditioning). Exact for N = 3 (it interpolates), and for any
/// N when the presses are an exact affine image of the targets.
package enum CalibrationSolver {
    /// tslib's fixed-point divisor.
    package static let tslibScale: Double = 65536

    /// The least-squares fit; `scale` is `a6` (the other six are rounded to integers when it is
    /// not 1 — pass 1 for an unrounded fit).
    package static func solve(_ pairs: [CalibrationPair], scale: Double = tslibScale) throws(CalibrationError)
        -> CalibrationFit
    {
        guard pairs.count >= 3 else { throw .tooFewPoints(pairs.count) }
        guard
            pairs.allSatisfy({ $0.raw.x.isFinite && $0.raw.y.isFinite && $0.target.x.isFinite && $0.target.y.isFinite })
        else { throw .nonFinite }
        let n = Double(pairs.count)
        var mx = 0.0
        var my = 0.0
        var mu = 0.0
        var mv = 0.0
        for p in pairs {
            mx += p.raw.x
            my += p.raw.y
            mu += p.target.x
            mv += p.target.y
        }
        mx /= n
        my /= n
        mu /= n
        mv /= n
        var sxx = 0.0
        var sxy = 0.0
        var syy = 0.0
        var sxu = 0.0
        var syu = 0.0
        var sxv = 0.0
        var syv = 0.0
        for p in pairs {
            let x = p.raw.x - mx
            let y = p.raw.y - my
            let u = p.target.x - mu
            let v = p.target.y - mv
            sxx += x * x
            sxy += x * y
            syy += y * y
            sxu += x * u
            syu += y * u
            sxv += x * v
            syv += y * v
        }
        // Collinear (or coincident) presses make the 2×2 normal matrix singular. Relative test:
        // det / (sxx·syy) is sin² of the angle the presses span, scale-free.
        let det = sxx * syy - sxy * sxy
        guard sxx > 0, syy > 0, det > 1e-4 * sxx * syy else { throw .collinear }
        // [b c] = [sxu syu] · inv([[sxx sxy][sxy syy]]), likewise for e, f.
        let b = (sxu * syy - syu * sxy) / det
        let c = (syu * sxx - sxu * sxy) / det
        let e = (sxv * syy - syv * sxy) / det
        let f = (syv * sxx - sxv * sxy) / det
        let a = mu - b * mx - c * my
        let d = mv - e * mx - f * my
        let exact = AffineCalibration(a0: b, a1: c, a2: a, a3: e, a4: f, a5: d, a6: 1)
        let calibration: AffineCalibration
        if scale == 1 {
            calibration = exact
        } else {
            func q(_ value: Double) -> Double { (value * scale).rounded() }
            calibration = AffineCalibration(a0: q(b), a1: q(c), a2: q(a), a3: q(e), a4: q(f), a5: q(d), a6: scale)
        }
        let residuals = pairs.map { calibration.apply($0.raw).distance(to: $0.target) }
        let rms = (residuals.reduce(0) { $0 + $1 * $1 } / n).squareRoot()
        return CalibrationFit(
            calibration: calibration, exact: exact, residuals: residuals, maxResidual: residuals.max() ?? 0,
            rmsResidual: rms)
    }
}

extension AffineCalibration {
    /// The seven numbers in pointercal order `a0 … a6`.
    package var pointercal: [Double] { [a0, a1, a2, a3, a4, a5, a6] }

    /// The TOML array for a board file: `[a0, a1, a2, a3, a4, a5, a6]`, integers written without
    /// a fraction (tslib's form), other values in full precision.
    package var boardFileArray: String {
        "[" + pointercal.map(Self.format).joined(separator: ", ") + "]"
    }

    /// `/etc/pointercal`'s text: the seven numbers separated by spaces.
    package var pointercalText: String { pointercal.map(Self.format).joined(separator: " ") }

    static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

/// Where `touchwire calibrate` shows its targets, in panel pixels (what the user sees, after rotation).
package enum CalibrationTargets {
    /// The supported target counts.
    package static let supportedCounts = [4, 5, 9]

    /// `count` targets inset `inset` (a fraction of the width/height, default 10 %) from the edges:
    /// 5 (tslib: top-left, top-right, bottom-right, bottom-left, centre), 4 (the corners), or 9
    /// (a 3×3 grid, row by row). Nil for other counts.
    package static func points(count: Int, panelWidth: Int, panelHeight: Int, inset: Double = 0.1)
        -> [(name: String, point: Point)]?
    {
        let w = Double(panelWidth)
        let h = Double(panelHeight)
        let left = (w * inset).rounded()
        let right = (w * (1 - inset)).rounded() - 1
        let top = (h * inset).rounded()
        let bottom = (h * (1 - inset)).rounded() - 1
        let cx = (w / 2).rounded(.down)
        let cy = (h / 2).rounded(.down)
        let corners: [(String, Point)] = [
            ("top-left", Point(x: left, y: top)), ("top-right", Point(x: right, y: top)),
            ("bottom-right", Point(x: right, y: bottom)), ("bottom-left", Point(x: left, y: bottom)),
        ]
        switch count {
        case 4: return corners.map { (name: $0.0, point: $0.1) }
        case 5: return (corners + [("centre", Point(x: cx, y: cy))]).map { (name: $0.0, point: $0.1) }
        case 9:
            let rows: [(String, Double)] = [("top", top), ("middle", cy), ("bottom", bottom)]
            let columns: [(String, Double)] = [("left", left), ("centre", cx), ("right", right)]
            var out: [(name: String, point: Point)] = []
            for (rn, y) in rows {
                for (cn, x) in columns {
                    let name = rn == "middle" && cn == "centre" ? "centre" : "\(rn)-\(cn)"
                    out.append((name: name, point: Point(x: x, y: y)))
                }
            }
            return out
        default: return nil
        }
    }
}
