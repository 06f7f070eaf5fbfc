import Gestures
import TouchCore
import TouchDrivers

/// The virtual keyboard of key bindings: presses chords on a `VirtualInputDevice` declaring
/// exactly the bound keys (a uinput keyboard in `run`, a `RecordingInputDevice` in tests).
package final class VirtualKeyboard {
    package let device: any VirtualInputDevice
    private var buffer: [UInt8] = []
    /// Chords the device did not take whole (the kernel's queue was full).
    package private(set) var failedChords = 0

    package init(device: any VirtualInputDevice) {
        self.device = device
        buffer.reserveCapacity(64 * InputEvent.byteCount)
    }

    /// The device's name under /sys/devices/virtual/input.
    package var sysName: String { device.sysName }

    /// Removes the virtual keyboard; chords pressed after it are lost.
    package func close() { device.close() }

    /// Presses `codes` in order, then releases them in reverse: one report each (a chord, as a
    /// user pressing Ctrl+Alt+T lets go of T first and Ctrl last), all in one write. No
    /// allocation once the buffer has grown to the longest chord.
    package func press(_ codes: ArraySlice<Int>) {
        buffer.removeAll(keepingCapacity: true)
        for c in codes {
            InputEvent(type: EvdevCode.EV_KEY, code: UInt16(c), value: 1).encode(into: &buffer)
            InputEvent.synReport.encode(into: &buffer)
        }
        for c in codes.reversed() {
            InputEvent(type: EvdevCode.EV_KEY, code: UInt16(c), value: 0).encode(into: &buffer)
            InputEvent.synReport.encode(into: &buffer)
        }
        if !buffer.withUnsafeBytes({ device.write($0) }) { failedChords += 1 }
    }
}

/// Key and exec bindings on the output stage: a matching event presses a chord on the virtual
/// keyboard or asks the command runner to start a program (never forking here).
///
/// Built by the composition root from the board's bindings (`CommandSetup` in TouchComposition)
/// with the parts already open: the keyboard's device and the runner.
package final class CommandActuator {
    /// One binding, resolved against the engine.
    package struct Binding: Equatable, Sendable {
        /// What a matching event does.
        package enum Action: Equatable, Sendable {
            /// Press these key codes as one chord.
            case keys([Int])
            /// Start the runner's program `index`.
            case exec(Int)
        }
        /// The recognizer's index in the engine, or the region's for a control event.
        package var recognizer: Int
        /// True when `recognizer` is a region index (the event is a region's `control` delivery).
        package var isControl: Bool
        package var state: GestureState
        package var action: Action

        package init(recognizer: Int, isControl: Bool, state: GestureState, action: Action) {
            self.recognizer = recognizer
            self.isControl = isControl
            self.state = state
            self.action = action
        }
    }

    struct Entry {
        var recognizer: Int
        var isControl: Bool
        var state: GestureState
        /// Key codes range in `codes`, or the exec binding's index in the runner.
        var keys: Range<Int>?
        var exec: Int?
    }

    let entries: [Entry]
    let codes: [Int]
    package let keyboard: VirtualKeyboard?
    package let spawner: (any CommandRunner)?

    /// `keyboard` presses the `.keys` bindings, `spawner` runs the `.exec` ones (each may be nil
    /// when no binding needs it).
    package init(bindings: [Binding], keyboard: VirtualKeyboard?, spawner: (any CommandRunner)?) {
        var entries: [Entry] = []
        var codes: [Int] = []
        for b in bindings {
            var e = Entry(recognizer: b.recognizer, isControl: b.isControl, state: b.state, keys: nil, exec: nil)
            switch b.action {
            case .keys(let c):
                e.keys = codes.count..<(codes.count + c.count)
                codes += c
            case .exec(let index):
                e.exec = index
            }
            entries.append(e)
        }
        self.entries = entries
        self.codes = codes
        self.keyboard = keyboard
        self.spawner = spawner
    }

    /// Every key code the bindings press, in binding order: what the virtual keyboard must
    /// declare (a code listed twice is declared once).
    package static func keyCodes(of bindings: [Binding]) -> [Int] {
        var out: [Int] = []
        for b in bindings {
            if case .keys(let c) = b.action { out += c }
        }
        return out
    }

    /// Acts on `event` for every binding it matches.
    package func handle(_ event: GestureEvent) {
        for e in entries
        where e.state == event.state && e.recognizer == event.recognizer
            && e.isControl == (event.kind == .control)
        {
            if let k = e.keys { keyboard?.press(codes[k]) }
            if let x = e.exec { spawner?.request(x) }
        }
    }
}
