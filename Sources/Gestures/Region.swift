import TouchCore

/// A rectangle of the panel that recognizers attach to and touches are delivered to (UIView).
///
/// Regions form a tree; a touch is hit-tested to the deepest region containing it (later
/// siblings are on top, as UIKit's subviews). Recognizers attached to a region observe touches
/// hit-tested to it and to its sub-regions (S8).
public final class Region {
    public let name: String
    /// In panel pixels.
    public let frame: Rect
    /// S28: a control (button) whose default action wins over an ancestor's tap recognizer.
    public let isControl: Bool
    /// S29: whether deliveries of a second simultaneous touch reach this region.
    public let isMultipleTouchEnabled: Bool
    /// The region's mutable fields: its only `@exclusivity(unchecked)` stored property, written
    /// while the tree is built (`addChild`, the engine's `init`) and read by the thread holding
    /// the recognizer stage (docs/ARCHITECTURE.md, "Unchecked storage").
    @exclusivity(unchecked) private var links = RegionLinks()

    /// The enclosing region, an `UnownedLink`: a parent owns its children (`children`), and the
    /// engine owns the whole tree through its root, so a region's parent lives at least as long
    /// as the region stays in a tree. Keep a sub-region only while its tree (its root, or the
    /// engine built from it) is alive.
    public var parent: Region? { links.parent.object }
    public var children: [Region] { links.children }
    /// Position in the engine's region table; set when the engine is built.
    public internal(set) var index: Int {
        @inline(__always) get { links.index }
        set { links.index = newValue }
    }

    public init(name: String, frame: Rect, isControl: Bool = false, isMultipleTouchEnabled: Bool = false) {
        self.name = name
        self.frame = frame
        self.isControl = isControl
        self.isMultipleTouchEnabled = isMultipleTouchEnabled
    }

    /// Adds `child` on top of the existing children (UIView.addSubview).
    public func addChild(_ child: Region) {
        precondition(child.links.parent.isEmpty, "Region.addChild: \(child.name) already has a parent")
        child.links.parent = UnownedLink(self)
        links.children.append(child)
    }

    /// The deepest region containing `point`, searching topmost children first; nil if outside.
    public func hitTest(_ point: Point) -> Region? {
        guard frame.contains(point) else { return nil }
        var i = children.count - 1
        while i >= 0 {
            if let hit = children[i].hitTest(point) { return hit }
            i -= 1
        }
        return self
    }

    /// True when `self` is `other` or one of its descendants.
    public func isDescendant(of other: Region) -> Bool {
        var r: Region? = self
        while let current = r {
            if current === other { return true }
            r = current.parent
        }
        return false
    }

    /// The nearest control among `self` and its ancestors, if any.
    public var enclosingControl: Region? {
        var r: Region? = self
        while let current = r {
            if current.isControl { return current }
            r = current.parent
        }
        return nil
    }

    /// Self followed by every descendant, depth first.
    func flattened() -> [Region] { [self] + children.flatMap { $0.flattened() } }
}

/// A region's links in its tree (`Region.links`): its parent (an `UnownedLink`, the parent owning
/// the child), its children (owned) and its index in the engine's region table.
struct RegionLinks {
    var parent = UnownedLink<Region>(nil)
    var children: [Region] = []
    var index = -1
}
