/// The questions an engine asks about a recognizer (UIGestureRecognizerDelegate). Every
/// method has a default, so a delegate implements only what it cares about.
public protocol GestureRecognizerDelegate: AnyObject {
    /// S21: asked when `recognizer` tries to leave `possible`; false makes it fail at once.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// S20: asked once per new touch before `touchesBegan`; false hides the touch from the recognizer.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
    /// S17: true lets both recognize in one sequence.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool
    /// S19: true makes `recognizer` wait for `other` to fail.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// S19: true makes `other` wait for `recognizer` to fail.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
    ) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer)
        -> Bool
    { false }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
    ) -> Bool { false }
}
