import TouchCore
import TouchDrivers
import TouchLinux
import TouchService

/// `touchwire probe`'s list of Linux input devices that are touchscreens: for boards with
/// `chip = "evdev"`, where the kernel's driver keeps the panel.
package enum InputProbe {
    /// One line per `/dev/input/eventN` under `directory` that is a touchscreen (name, protocol,
    /// axis ranges and the board keys that select it), plus one line per device that could not be
    /// opened for lack of permission (naming group `input`). Other devices are left out.
    package static func touchscreenLines(directory: String = "/dev/input") -> [String] {
        var lines: [String] = []
        var denied: [String] = []
        for path in EvdevDevice.devicePaths(directory: directory) {
            do throws(InputDeviceError) {
                let source = try LinuxInputSource(path: path, grab: false)
                let (name, g) = try source.describe()
                let kind = g.multiTouch ? "multi-touch, \(g.slotCount) slots" : "single-touch"
                lines.append(
                    "\(path): touchscreen \"\(name)\" (\(kind), x \(g.x.minimum)…\(g.x.maximum), "
                        + "y \(g.y.minimum)…\(g.y.maximum)); board: chip = \"evdev\", name = \"\(name)\"")
            } catch {
                if case .permissionDenied = error { denied.append(path) }
            }
        }
        if !denied.isEmpty {
            lines.append(
                "\(denied.joined(separator: ", ")): permission denied (run as root or add the user to group input)")
        }
        return lines
    }
}
