import BoardConfig
import TouchCore
import TouchDrivers
import TouchLinux
import TouchService

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
}
