import TouchCore
import TouchDrivers
import TouchLinux
import TouchService

/// `touchwire probe`'s list of Linux input devices that are touchscreens: for boards with
/// `chip = "evdev"`, where the kernel's driver keeps the panel.
package enum InputProbe {
    /// One line per `/dev/input/eventN` under `directory` that is a touchscreen (name, protocol —
    /// multi-touch protocol B with its slots, protocol A, or single-touch —, axis ranges and the
    /// board keys that select it); one line per device that has absolute axes but is refused,
    /// with the reason (a pen tablet, a touchpad…); plus one line for the devices that could
    /// not be opened for lack of permission (naming group `input`). Devices without absolute
    /// axes (keyboards, mice) are left out.
    package static func touchscreenLines(directory: String = "/dev/input") -> [String] {
        var lines: [String] = []
        var denied: [String] = []
        for path in EvdevDevice.devicePaths(directory: directory) {
            do throws(InputDeviceError) {
                let source = try LinuxInputSource(path: path, grab: false)
                let (name, g) = try source.describe()
                lines.append(
                    "\(path): touchscreen \"\(name)\" (\(g.protocolDescription), x \(g.x.minimum)…\(g.x.maximum), "
                        + "y \(g.y.minimum)…\(g.y.maximum)); board: chip = \"evdev\", name = \"\(name)\"")
            } catch {
                switch error {
                case .permissionDenied: denied.append(path)
                case .notATouchscreen(_, let name, let reason) where !reason.hasPrefix("it has no absolute"):
                    lines.append("\(path): \"\(name)\" refused: \(reason)")
                default: break
                }
            }
        }
        if !denied.isEmpty {
            lines.append(
                "\(denied.joined(separator: ", ")): permission denied (run as root or add the user to group input)")
        }
        return lines
    }
}
