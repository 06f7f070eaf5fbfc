import TouchCore

/// Prepares a candidate stroke (`StrokeShape`) and finds its nearest template, in buffers made
/// once at init: a match allocates nothing. One per recognizer; not shared across threads.
public struct StrokeMatcher {
    private var shape: [Double]
    private var scratch: [Double]

    public init() {
        shape = [Double](repeating: 0, count: StrokeShape.stride)
        scratch = [Double](repeating: 0, count: 2 * StrokeShape.sampleCount)
    }

    /// The nearest template of `templates` to the stroke through `points`: its gesture's index in
    /// `templates.names` and its distance. Nil when the stroke has no length or the set is empty.
    public mutating func match(_ points: UnsafeBufferPointer<Point>, in templates: StrokeTemplateSet)
        -> (gesture: Int, distance: Double)?
    {
        let prepared = shape.withUnsafeMutableBufferPointer { s in
            scratch.withUnsafeMutableBufferPointer { sc in StrokeShape.prepare(points, into: s, scratch: sc) }
        }
        guard prepared else { return nil }
        return shape.withUnsafeBufferPointer { templates.nearest($0.baseAddress!) }
    }

    /// The decision on the stroke through `points` with open-set rejection
    /// (`StrokeTemplateSet.classify`); `.noMatch` when the stroke has no length.
    public mutating func classify(
        _ points: UnsafeBufferPointer<Point>, in templates: StrokeTemplateSet, reporting: [Bool]? = nil
    ) -> StrokeTemplateSet.Decision {
        let prepared = shape.withUnsafeMutableBufferPointer { s in
            scratch.withUnsafeMutableBufferPointer { sc in StrokeShape.prepare(points, into: s, scratch: sc) }
        }
        guard prepared else { return .noMatch }
        return shape.withUnsafeBufferPointer { templates.classify($0.baseAddress!, reporting: reporting) }
    }
}
