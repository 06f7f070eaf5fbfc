import TouchCore

/// The edges of a region (UIRectEdge), as an option set.
public struct RegionEdges: OptionSet, Sendable, BitwiseCopyable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let top = RegionEdges(rawValue: 1)
    public static let left = RegionEdges(rawValue: 2)
    public static let bottom = RegionEdges(rawValue: 4)
    public static let right = RegionEdges(rawValue: 8)
    public static let all: RegionEdges = [.top, .left, .bottom, .right]

    /// A single edge by its board-file name ("top", "left", "bottom", "right").
    public init?(name: String) {
        switch name {
        case "top": self = .top
        case "left": self = .left
        case "bottom": self = .bottom
        case "right": self = .right
        default: return nil
        }
    }

    /// The names of the edges in the set, in the order top, left, bottom, right.
    public var names: [String] {
        [(RegionEdges.top, "top"), (.left, "left"), (.bottom, "bottom"), (.right, "right")]
            .filter { contains($0.0) }.map { $0.1 }
    }
}

/// UIScreenEdgePanGestureRecognizer: a one-finger pan (S3, continuous) that begins only for a
/// touch that lands within `edgeBand` pixels of one of `edges` of its region's frame and then
/// moves away from that edge (more across the edge than along it). A touch landing elsewhere
/// fails the recognizer at once, so other recognizers of the region are not held up (S15);
/// a touch moving along or toward the edge fails it once it has moved `minimumDistance`.
///
/// Built only on the public recognizer API (a `PanGestureRecognizer` subclass, as UIKit's is a
/// UIPanGestureRecognizer subclass): its events are pan events — `kind` "pan" with translation
/// and velocity — told apart by the recognizer's name.
open class EdgePanGestureRecognizer: PanGestureRecognizer {
    /// The edge pan's own fields: its only `@exclusivity(unchecked)` stored property
    /// (`EdgePanFields`; the contract is `RecognizerFields`'). The properties below forward to it.
    @exclusivity(unchecked) final var edgeFields: EdgePanFields

    /// The edges a pan may start from (UIScreenEdgePanGestureRecognizer.edges).
    public final var edges: RegionEdges {
        @inline(__always) get { edgeFields.edges }
        @inline(__always) set { edgeFields.edges = newValue }
    }
    /// How close to an edge, in pixels, a touch must land.
    public final var edgeBand: Double {
        @inline(__always) get { edgeFields.edgeBand }
        @inline(__always) set { edgeFields.edgeBand = newValue }
    }
    /// The edge the current touch landed at; nil when none (yet).
    public private(set) final var landedEdge: RegionEdges? {
        @inline(__always) get { edgeFields.landedEdge }
        @inline(__always) set { edgeFields.landedEdge = newValue }
    }

    public init(name: String, edges: RegionEdges, edgeBand: Double = 20, minimumDistance: Double = 10) {
        edgeFields = EdgePanFields(edges: edges, edgeBand: edgeBand)
        super.init(name: name, minimumTouches: 1, maximumTouches: 1, minimumDistance: minimumDistance)
    }

    /// The configured edge whose band holds `p` (the nearest when bands overlap in a corner), or nil.
    public func edge(at p: Point, in frame: Rect) -> RegionEdges? {
        var best: RegionEdges? = nil
        var bestDistance = Double.infinity
        func consider(_ edge: RegionEdges, _ distance: Double) {
            if edges.contains(edge) && distance >= 0 && distance <= edgeBand && distance < bestDistance {
                best = edge
                bestDistance = distance
            }
        }
        consider(.top, p.y - frame.y)
        consider(.left, p.x - frame.x)
        consider(.bottom, frame.y + frame.height - p.y)
        consider(.right, frame.x + frame.width - p.x)
        return best
    }

    open override func touchesBegan(_ touches: TouchSet) {
        if state == .possible && landedEdge == nil, touches.count > 0 {
            guard let frame = region?.frame, let edge = edge(at: touches[0].location, in: frame) else {
                fail(
                    because: "landed outside the \(edgeBand) px band of the \(edges.names.joined(separator: "/")) edge")
                return
            }
            landedEdge = edge
        }
        super.touchesBegan(touches)
    }

    open override func touchesMoved(_ touches: TouchSet) {
        if state == .possible, let edge = landedEdge, touches.count > 0 {
            let t = touches[0]
            let dx = t.location.x - t.startLocation.x
            let dy = t.location.y - t.startLocation.y
            let away: Double
            let along: Double
            switch edge {
            case .top: (away, along) = (dy, abs(dx))
            case .bottom: (away, along) = (-dy, abs(dx))
            case .left: (away, along) = (dx, abs(dy))
            default: (away, along) = (-dx, abs(dy))
            }
            if (dx * dx + dy * dy).squareRoot() >= minimumDistance && away <= along {
                fail(because: "moved along or toward the \(edge.names.first ?? "") edge, not away from it")
                return
            }
        }
        super.touchesMoved(touches)
    }

    open override func reset() {
        landedEdge = nil
        super.reset()
    }
}

/// An edge pan recognizer's own fields (beyond the pan's `PanFields`), in one value held by its
/// only `@exclusivity(unchecked)` stored property (`EdgePanGestureRecognizer.edgeFields`). The
/// contract is `RecognizerFields`' (Ownership.swift; docs/ARCHITECTURE.md, "Unchecked storage"):
/// only the thread holding the recognizer stage reads or writes them once the recognizer is
/// installed (before, only the thread building it).
struct EdgePanFields {
    var edges: RegionEdges
    var edgeBand: Double
    /// Per touch sequence (cleared by `reset`).
    var landedEdge: RegionEdges?
}
