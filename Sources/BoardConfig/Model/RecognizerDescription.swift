import Gestures

/// One gesture recognizer (`[[recognizer]]`), with UIKit's defaults for the common keys.
public struct RecognizerDescription: Sendable, Equatable {
    /// Unique among the board's recognizers; used in events and relations.
    public var name: String
    /// The kind and its parameters.
    public var parameters: RecognizerParameters
    /// The name of the region it is attached to (always an existing region).
    public var region: String
    public var enabled: Bool
    /// cancelsTouchesInView.
    public var cancelsTouches: Bool
    /// delaysTouchesBegan.
    public var delaysBegan: Bool
    /// delaysTouchesEnded.
    public var delaysEnded: Bool
    /// require(toFail:): names of other recognizers; never itself; acyclic across the board.
    public var requireFail: [String]
    /// Recognizers this one may recognize simultaneously with.
    public var simultaneous: [String]

    public init(
        name: String, parameters: RecognizerParameters, region: String, enabled: Bool = true,
        cancelsTouches: Bool = true, delaysBegan: Bool = false, delaysEnded: Bool = true, requireFail: [String] = [],
        simultaneous: [String] = []
    ) {
        self.name = name
        self.parameters = parameters
        self.region = region
        self.enabled = enabled
        self.cancelsTouches = cancelsTouches
        self.delaysBegan = delaysBegan
        self.delaysEnded = delaysEnded
        self.requireFail = requireFail
        self.simultaneous = simultaneous
    }

    public var kind: GestureKind { parameters.kind }
}
