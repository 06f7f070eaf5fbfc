import TouchCore

/// A region (UIView) of the panel (`[[region]]`).
package struct RegionDescription: Sendable, Equatable {
    /// Unique among the board's regions.
    package var name: String
    /// In panel pixels; width and height > 0.
    package var frame: Rect
    /// The enclosing region's name; nil only for the root (the first region without a parent).
    package var parent: String?
    /// S28: a control (button) whose default action wins over its ancestors' tap recognizers.
    package var control: Bool
    /// S29: `multipleTouchEnabled` (default false).
    package var multipleTouch: Bool
    /// `passthrough = false`: with `[passthrough]`, the UI never sees this region's touches (a
    /// reserved edge strip). Default true.
    package var passthrough: Bool = true

    package init(name: String, frame: Rect, parent: String? = nil, control: Bool = false, multipleTouch: Bool = false) {
        self.name = name
        self.frame = frame
        self.parent = parent
        self.control = control
        self.multipleTouch = multipleTouch
    }
}
