import Gestures

/// One gesture recognizer (`[[recognizer]]`), with UIKit's defaults for the common keys.
package struct RecognizerDescription: Sendable, Equatable {
    /// Unique among the board's recognizers; used in events and relations.
    package var name: String
    /// The kind and its parameters.
    package var parameters: RecognizerParameters
    /// The name of the region it is attached to (always an existing region).
    package var region: String
    package var enabled: Bool
    /// cancelsTouchesInView.
    package var cancelsTouches: Bool
    /// delaysTouchesBegan.
    package var delaysBegan: Bool
    /// delaysTouchesEnded.
    package var delaysEnded: Bool
    /// require(toFail:): names of other recognizers; never itself; acyclic across the board.
    package var requireFail: [String]
    /// Recognizers this one may recognize simultaneously with.
    package var simultaneous: [String]

    package init(
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

    /// The kind its events carry (`formats.md` §2).
    package var kind: GestureKind { parameters.kind }
    /// Its kind as the board names it (`RecognizerKind`).
    package var recognizerKind: RecognizerKind { parameters.recognizerKind }
}
