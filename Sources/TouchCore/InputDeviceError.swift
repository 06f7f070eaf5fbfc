/// Why an input device could not be used. Each case names the device.
public enum InputDeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such node.
    case missing(path: String)
    /// The device went away while open (`read` gave ENODEV: unplugged, or its driver unbound).
    case unplugged(path: String)
    /// EACCES/EPERM opening the node: the user must be in group `input`.
    case permissionDenied(path: String)
    /// The device is not a touchscreen; `reason` says what it is instead (udev's classification:
    /// a tablet, a touchpad, a mouse, no absolute axes…).
    case notATouchscreen(path: String, name: String, reason: String)
    /// No input device has that name; `available` lists "path: name" of every device found.
    case noDeviceNamed(String, available: [String])
    /// Another program grabbed the device (EVIOCGRAB: EBUSY).
    case busy(path: String)
    /// Anything else: what was attempted and the errno.
    case failed(path: String, operation: String, errno: Int32)

    public var description: String {
        switch self {
        case .missing(let p): return "input device \(p) does not exist"
        case .unplugged(let p): return "input device \(p) went away (unplugged?); it is reopened when it is back"
        case .permissionDenied(let p):
            return "permission denied opening \(p) (run as root or add the user to group input: "
                + "sudo usermod -aG input $USER)"
        case .notATouchscreen(let p, let n, let reason):
            return "input device \(p) (\"\(n)\") is not a touchscreen: \(reason)"
        case .noDeviceNamed(let n, let available):
            let list = available.isEmpty ? "no input devices found" : "devices: " + available.joined(separator: "; ")
            return "no input device named \"\(n)\" (\(list))"
        case .busy(let p): return "input device \(p) is grabbed by another program"
        case .failed(let p, let op, let e): return "input device \(p): \(op) failed (errno \(e))"
        }
    }
}
