import BoardConfig
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService
import TouchSimulation

/// The controller of a `chip = "evdev"` board: a Linux input device opened, checked and (with
/// `grab = true`) grabbed before anything starts, so a missing device, a permission problem or a
/// device that is no touchscreen is one clear error and nothing runs.
enum EvdevSetup {
    static func make(
        _ board: BoardDescription, selector: InputDeviceSelector, grab: Bool, transform: PanelTransform,
        protection: TouchProtection, rawW: Int, rawH: Int, pollIntervalMilliseconds: Int
    ) throws(ServiceError) -> ControllerSetup {
        let source: LinuxInputSource
        do throws(InputDeviceError) {
            switch selector {
            case .path(let p): source = try LinuxInputSource(path: p, grab: grab)
            case .name(let n):
                source = try LinuxInputSource(path: try LinuxInputSource.find(name: n), grab: grab, name: n)
            }
        } catch {
            let key = if case .name = selector { "controller.name" } else { "controller.device" }
            throw .device(board: board.location, what: key, reason: "\(error)")
        }
        let controller = EvdevController(source: source, rawWidth: rawW, rawHeight: rawH, timing: .system)
        let period = Int64(pollIntervalMilliseconds) * 1000
        return ControllerSetup(
            controller: controller, simulation: nil, transform: transform, protection: protection,
            schedule: AdaptivePollSchedule(configuredMicroseconds: period), pollIntervalMicroseconds: period)
    }

    /// The evdev controller of a simulated evdev board (`chip = "evdev"`, `bus = "sim"`); nil for other models.
    static func simulatedDriver(
        _ model: any I2CDeviceModel & TouchPresenting, timing: DriverTiming, rawW: Int, rawH: Int
    ) -> (any TouchController)? {
        guard let device = model as? SimulatedInputDevice else { return nil }
        return EvdevController(source: device, rawWidth: rawW, rawHeight: rawH, timing: timing)
    }

    /// `chip = "evdev"` on an I2C bus cannot happen (the board reader gives evdev no I2C bus);
    /// should it, the controller refuses to start with a message instead of trapping.
    static func misrouted(rawW: Int, rawH: Int) -> any TouchController {
        EvdevController(source: MisroutedSource(), rawWidth: rawW, rawHeight: rawH, timing: .immediate)
    }

    private final class MisroutedSource: InputEventSource {
        let path = "an I2C bus"
        func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry) {
            throw .failed(path: path, operation: "chip = \"evdev\" reads /dev/input, not an I2C bus", errno: 0)
        }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int { 0 }
        func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot {
            EvdevSnapshot(trackingIDs: [], xs: [], ys: [])
        }
        func waitReadable(timeoutMicroseconds: Int64) -> Bool { false }
    }
}
