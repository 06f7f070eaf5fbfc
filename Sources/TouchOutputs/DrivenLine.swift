import TouchCore

/// Owns one requested output line and returns it to its inactive level when released.
///
/// The line is driven inactive by `release()` or, failing that, when the handle is destroyed —
/// so every exit path (a normal stop after SIGINT/SIGTERM, an error thrown while the service is
/// being built, a test that forgets) leaves the line inactive before the kernel gets it back.
/// (A process killed by SIGKILL cannot do this; the kernel then keeps the last level.)
package final class DrivenLine {
    package let id: GPIOLineID
    private var output: (any GPIOOutput)?
    /// The logical level last set (true = active).
    package private(set) var isActive: Bool

    /// Requests `id` from `provider` with consumer "touchwire", initially `active`.
    package init(_ id: GPIOLineID, activeLow: Bool, active: Bool, provider: any GPIOProvider) throws(GPIOError) {
        self.id = id
        output = try provider.requestOutput(id, activeLow: activeLow, active: active)
        isActive = active
    }

    /// Drives the line; a no-op after `release()`. One ioctl on a real chip.
    package func set(_ active: Bool) throws(GPIOError) {
        guard let output else { return }
        try output.setActive(active)
        isActive = active
    }

    /// True until `release()`.
    package var isHeld: Bool { output != nil }

    /// Drives the line inactive and gives it back to the kernel. Idempotent.
    package func release() {
        guard let output else { return }
        try? output.setActive(false)
        isActive = false
        self.output = nil
    }

    deinit { release() }
}
