/// The Gestures module's unchecked storage, gathered in the types of this file, of
/// `GestureEngine+Fields.swift` / `GestureRecognizer+Fields.swift`, and the one `…Fields` value
/// of each built-in recognizer class (`TapFields`, `LongPressFields`, `SwipeFields`, `PanFields`,
/// `EdgePanFields`, `TwoFingerFields`, beside their classes). The contract they rely on is
/// written once, in docs/ARCHITECTURE.md ("Threads" and "Unchecked storage"):
///
/// - **Confinement.** An engine, its recognizers and its region tree are touched by one thread at
///   a time: the thread holding the recognizer stage (the driver thread or the recognizer thread,
///   handed over through one `StageHold`, whose sequentially consistent release/acquire orders
///   every write before the hand-over before every read after it). Their mutable fields live in
///   one storage struct per class (`EngineFields`, `RecognizerFields`, `RegionLinks`, and the
///   recognizer classes' `…Fields`), held in the class's only `@exclusivity(unchecked)` stored
///   property: the compiler's static checks
///   stay, the runtime's dynamic ones (their cost: docs/PERFORMANCE.md, "Unchecked storage")
///   are left out because the confinement already excludes the overlapping accesses they would
///   catch. ThreadSanitizer checks the confinement (`tools/sanitize thread`).
/// - **Ownership.** References that do not keep their object alive are `UnownedLink`s and the
///   engine's `RecognizerTable`; each names the owner that does, and that owner clears or frees
///   them before it lets the object go (OwnershipTests).

/// A reference that does not keep its object alive: the engine's owner → observer links (a
/// recognizer's engine and region, a region's parent, an action's target).
///
/// Contract: whoever stores a link names the owner that keeps the object alive while the link is
/// read, and that owner clears the link before it lets the object go (`GestureEngine.deinit`
/// clears its recognizers' `engine` and `region`; a region's parent keeps it in `children` and is
/// kept by the tree's root; an action's target must outlive its recognizer or remove its
/// actions, as in UIKit). Reading a link is a plain load: no reference count, no weak-reference
/// side table (Embedded Swift has none).
struct UnownedLink<Object: AnyObject> {
    private var raw: Unmanaged<Object>?

    /// A link to `object`, or an empty link for nil.
    @inline(__always) init(_ object: Object?) { raw = object.map { Unmanaged.passUnretained($0) } }

    /// The object, as a strong reference for the caller (set-up paths, queries); nil when empty.
    @inline(__always) var object: Object? { raw?.takeUnretainedValue() }

    /// Whether the link is empty.
    @inline(__always) var isEmpty: Bool { raw == nil }

    /// `body(object)` with a guaranteed reference, no retain/release around the call (the
    /// per-frame path), or `absent` when the link is empty.
    @inline(__always) func with<R>(_ absent: R, _ body: (Object) -> R) -> R {
        guard let raw else { return absent }
        return raw._withUnsafeGuaranteedRef(body)
    }
}

/// The engine's recognizers by index, read without reference counting: the arena the per-frame
/// path finds a recognizer in from a bit of a 64-bit mask.
///
/// Contract: allocated once by the engine's `init` with room for
/// `GestureEngine.maximumRecognizers`; entry `i` is written once, by `GestureEngine.add`, with
/// the recognizer that the engine's `recognizers` array holds at index `i` and keeps alive for
/// the engine's lifetime; entries past `recognizers.count` are never read; freed by the engine's
/// `deinit`. Only the thread holding the recognizer stage reads it.
struct RecognizerTable {
    private let base: UnsafeMutablePointer<Unmanaged<GestureRecognizer>>

    init() { base = .allocate(capacity: GestureEngine.maximumRecognizers) }

    /// Frees the table (the engine's `deinit`; the recognizers themselves are the array's).
    func deallocate() { base.deallocate() }

    /// Makes `recognizer` entry `index` (`GestureEngine.add`, which keeps it in `recognizers`).
    func install(_ recognizer: GestureRecognizer, at index: Int) {
        precondition(index >= 0 && index < GestureEngine.maximumRecognizers, "RecognizerTable: index \(index)")
        (base + index).initialize(to: Unmanaged.passUnretained(recognizer))
    }

    /// Recognizer `i`, as a strong reference for the caller.
    @inline(__always) subscript(i: Int) -> GestureRecognizer { base[i].takeUnretainedValue() }

    /// `body(recognizer i)` with a guaranteed reference: no retain/release around the call.
    @inline(__always) func with<R>(_ i: Int, _ body: (GestureRecognizer) -> R) -> R {
        base[i]._withUnsafeGuaranteedRef(body)
    }
}
