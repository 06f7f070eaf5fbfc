import Synchronization
import TouchCore
import TouchDrivers

/// A virtual input device the pipeline writes `struct input_event` records to: the
/// `[passthrough]` touchscreen and the key bindings' keyboard. The pipeline owns the protocol and
/// what is written (`PassthroughTouchscreen`, `VirtualKeyboard`); the composition root hands it
/// the device: a uinput node in `run` (TouchComposition's `UInputVirtualDevice`), a
/// `RecordingInputDevice` in tests, so what a UI or a desktop would receive is checked on any
/// machine. Written by one thread at a time (the stage that owns the writer).
package protocol VirtualInputDevice: AnyObject {
    /// The device's name under /sys/devices/virtual/input ("" when it has none), for logs.
    var sysName: String { get }
    /// Writes whole records (`InputEvent.byteCount` bytes each) in one write; false when the
    /// device did not take them whole (the kernel's queue was full, or it is closed).
    func write(_ records: UnsafeRawBufferPointer) -> Bool
    /// Removes the device; later writes are lost. Idempotent.
    func close()
}

/// Runs the programs of exec bindings (`action = "exec"`) for the output stage. The pipeline owns
/// the protocol; the composition root hands it the real spawner (`CommandSpawner`: its own
/// thread, one instance per binding, timeouts) or a `RecordingCommandRunner` in tests.
package protocol CommandRunner: AnyObject, Sendable {
    /// Asks for binding `index` to run. Never blocks for long, never allocates, never forks: the
    /// recognizing thread may call it.
    func request(_ index: Int)
    /// Starts whatever runs the programs (the service's `run()` calls it before its threads).
    func start()
    /// Stops it; programs still running are ended. `run()` calls it on the way out.
    func stop()
    /// Runs binding `index` once more and returns when it has ended (or was killed at its
    /// timeout), after `stop()`: the screen's last `on_command` (`DisplaySwitch.stop`). The
    /// program gets what `request`ed ones get (no ambient capabilities, `no_new_privs`), whatever
    /// the calling thread holds.
    func runToEnd(_ index: Int)
}

/// The simulated twin of a uinput device: records every event written, in order.
///
/// Not for the allocation-free path: recording appends to an array.
package final class RecordingInputDevice: VirtualInputDevice, @unchecked Sendable {
    // @unchecked Sendable: the recorded state is behind a Mutex.
    package let sysName: String
    private let state = Mutex<(events: [InputEvent], writes: Int, closed: Bool)>(([], 0, false))
    /// When true, writes are refused (as a full kernel queue refuses them) and nothing is recorded.
    package let refusesWrites: Bool

    package init(sysName: String = "input-sim", refusesWrites: Bool = false) {
        self.sysName = sysName
        self.refusesWrites = refusesWrites
    }

    /// Every event written so far, in order (SYN_REPORTs included).
    package var events: [InputEvent] { state.withLock { $0.events } }
    /// How many `write` calls took their records.
    package var writes: Int { state.withLock { $0.writes } }
    /// True after `close()`.
    package var isClosed: Bool { state.withLock { $0.closed } }

    package func write(_ records: UnsafeRawBufferPointer) -> Bool {
        state.withLock { s in
            guard !s.closed, !refusesWrites, records.count % InputEvent.byteCount == 0 else { return false }
            var offset = 0
            while offset + InputEvent.byteCount <= records.count {
                s.events.append(InputEvent.decode(records, at: offset))
                offset += InputEvent.byteCount
            }
            s.writes += 1
            return true
        }
    }

    package func close() { state.withLock { $0.closed = true } }
}

/// The simulated twin of the exec spawner: records the program and environment each request
/// would start, in order, and starts nothing.
package final class RecordingCommandRunner: CommandRunner {
    /// One program start: what would be passed to execve.
    package struct Spawn: Equatable, Sendable {
        package var binding: Int
        package var argv: [String]
        package var environment: [String]
        package init(binding: Int, argv: [String], environment: [String]) {
            self.binding = binding
            self.argv = argv
            self.environment = environment
        }
    }

    /// Per binding: its argv and its environment (`NAME=value`, as the real spawner passes them).
    package let invocations: [(argv: [String], environment: [String])]
    private let state = Mutex<(spawned: [Spawn], running: Bool)>(([], false))

    package init(invocations: [(argv: [String], environment: [String])]) {
        self.invocations = invocations
    }

    /// The starts requested so far, in order.
    package var spawned: [Spawn] { state.withLock { $0.spawned } }
    /// True between `start()` and `stop()`.
    package var isRunning: Bool { state.withLock { $0.running } }

    package func request(_ index: Int) {
        guard index >= 0, index < invocations.count else { return }
        let i = invocations[index]
        state.withLock { $0.spawned.append(Spawn(binding: index, argv: i.argv, environment: i.environment)) }
    }

    package func start() { state.withLock { $0.running = true } }
    package func stop() { state.withLock { $0.running = false } }
    /// Recorded as a start of `index`, as `request` is.
    package func runToEnd(_ index: Int) { request(index) }
}
