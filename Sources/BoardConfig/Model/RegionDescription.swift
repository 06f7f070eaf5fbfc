import TouchCore

/// A region (UIView) of the panel (`[[region]]`).
public struct RegionDescription: Sendable, Equatable {
    /// Unique among the board's regions.
    public var name: String
    /// In panel pixels; width and height > 0.
    public var frame: Rect
    /// The enclosing region's name; nil only for the root (the first region without a parent).
    public var parent: String?
    /// S28: a control (button) whose default action wins over its ancestors' tap recognizers.
    public var control: Bool
    /// S29: `multipleTouchEnabled` (default false).
    public var multipleTouch: Bool
    /// `passthrough = false`: with `[passthrough]`, the UI never sees this region's touches (a
    /// reserved edge strip). Default true.
    public var passthrough: Bool = true

    public init(name: String, frame: Rect, parent: String? = nil, control: Bool = false, multipleTouch: Bool = false) {
        self.name = name
        self.frame = frame
        self.parent = parent
        self.control = control
        self.multipleTouch = multipleTouch
    }
}
