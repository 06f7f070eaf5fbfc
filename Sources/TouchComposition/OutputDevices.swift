import BoardConfig
import Logging
import Synchronization
import TouchCore
import TouchLinux
import TouchService

/// Opens the devices the pipeline writes to but does not own: the `[passthrough]` touchscreen,
/// the key bindings' keyboard, the exec bindings' runner. `SystemOutputDevices` opens the real
/// ones (uinput nodes, the `CommandSpawner`); `SimulatedOutputDevices` hands out recording twins
/// and keeps them for the caller to read, so the success paths of passthrough, keys and exec run
/// on any machine.
package protocol OutputDevices {
    /// A keyboard declaring `keys` (kernel key codes).
    func keyboard(keys: [Int]) throws(UInputError) -> any VirtualInputDevice
    /// A direct multi-touch touchscreen of the panel's size (`UInputDevice.touchscreen`).
    func touchscreen(
        name: String, width: Int, height: Int, slots: Int, widthMillimetres: Double?, heightMillimetres: Double?
    ) throws(UInputError) -> any VirtualInputDevice
    /// The runner of exec bindings: `commands[i]` is binding `i`, named `names[i]` in logs.
    func commands(
        _ commands: [ExecCommand], names: [String], environment: [String: String], user: String?,
        log: @escaping @Sendable (String) -> Void
    ) -> any CommandRunner
}

/// A uinput node as the pipeline's `VirtualInputDevice`.
package final class UInputVirtualDevice: VirtualInputDevice {
    private let device: UInputDevice
    package init(_ device: consuming UInputDevice) { self.device = device }
    package var sysName: String { device.sysName }
    package func write(_ records: UnsafeRawBufferPointer) -> Bool { device.write(records) }
    package func close() { device.destroy() }
}

extension CommandSpawner: CommandRunner {}

/// The real devices: uinput nodes through /dev/uinput, programs started by a `CommandSpawner`.
package struct SystemOutputDevices: OutputDevices {
    /// The clock the spawner times its programs on.
    package let clock: any TouchClock
    package init(clock: any TouchClock = SystemClock.shared) { self.clock = clock }

    package func keyboard(keys: [Int]) throws(UInputError) -> any VirtualInputDevice {
        UInputVirtualDevice(try UInputDevice.keyboard(name: "touchwire keyboard", keys: keys))
    }

    package func touchscreen(
        name: String, width: Int, height: Int, slots: Int, widthMillimetres: Double?, heightMillimetres: Double?
    ) throws(UInputError) -> any VirtualInputDevice {
        UInputVirtualDevice(
            try UInputDevice.touchscreen(
                name: name, width: width, height: height, slots: slots, widthMillimetres: widthMillimetres,
                heightMillimetres: heightMillimetres))
    }

    package func commands(
        _ commands: [ExecCommand], names: [String], environment: [String: String], user: String?,
        log: @escaping @Sendable (String) -> Void
    ) -> any CommandRunner {
        CommandSpawner(
            commands: commands, names: names, environment: environment, user: user, clock: clock, log: log)
    }
}

/// Recording twins of the output devices, kept in the order they were opened so that a test can
/// read what the UI (`touchscreens`), the desktop (`keyboards`) or the system (`runners`) got.
package final class SimulatedOutputDevices: OutputDevices, @unchecked Sendable {
    // @unchecked Sendable: the lists are behind a Mutex.
    private let made = Mutex<
        (keyboards: [RecordingInputDevice], screens: [RecordingInputDevice], runners: [RecordingCommandRunner])
    >(([], [], []))
    /// What each opened keyboard declared.
    private let declared = Mutex<[[Int]]>([])

    package init() {}

    package var keyboards: [RecordingInputDevice] { made.withLock { $0.keyboards } }
    package var touchscreens: [RecordingInputDevice] { made.withLock { $0.screens } }
    package var runners: [RecordingCommandRunner] { made.withLock { $0.runners } }
    /// The key codes each keyboard was opened with, in order.
    package var declaredKeys: [[Int]] { declared.withLock { $0 } }

    package func keyboard(keys: [Int]) throws(UInputError) -> any VirtualInputDevice {
        let d = RecordingInputDevice(sysName: "input-sim-keyboard")
        made.withLock { $0.keyboards.append(d) }
        declared.withLock { $0.append(keys) }
        return d
    }

    package func touchscreen(
        name: String, width: Int, height: Int, slots: Int, widthMillimetres: Double?, heightMillimetres: Double?
    ) throws(UInputError) -> any VirtualInputDevice {
        let d = RecordingInputDevice(sysName: "input-sim-touchscreen")
        made.withLock { $0.screens.append(d) }
        return d
    }

    /// Records what the real spawner would start: its argv (with the `setpriv` prefix for a
    /// `user`) and its environment, asked of a `CommandSpawner` that is never started.
    package func commands(
        _ commands: [ExecCommand], names: [String], environment: [String: String], user: String?,
        log: @escaping @Sendable (String) -> Void
    ) -> any CommandRunner {
        let real = CommandSpawner(
            commands: commands, names: names, environment: environment, user: user, clock: ManualClock(), log: log)
        let r = RecordingCommandRunner(
            invocations: commands.indices.map { (real.spawnArguments($0), real.environment) })
        made.withLock { $0.runners.append(r) }
        return r
    }
}
