import TouchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Which kernel driver, if any, is bound to an I2C device, read from sysfs
/// (`/sys/bus/i2c/devices/<bus>-<addr 4 hex>/driver` is a symlink to the driver's directory).
///
/// User-needs "Bring-up": if edt-ft5x06, goodix or hynitron already owns the controller, say so
/// and how to release it rather than fight it on the bus (raspberry-fast-ts #6).
package struct KernelDriverBinding: Hashable, Sendable {
    /// The sysfs device name, e.g. "1-0038".
    package var device: String
    /// The driver name, e.g. "edt_ft5x06", "Goodix-TS", "hynitron-cst816x"; nil when none is bound
    /// (a device declared by an overlay but not probed successfully).
    package var driver: String?

    package init(device: String, driver: String?) {
        self.device = device
        self.driver = driver
    }

    /// The sysfs name for a bus number and address: "1-0038".
    package static func deviceName(bus: Int, address: I2CAddress) -> String {
        let hex = String(address.rawValue, radix: 16)
        return "\(bus)-" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The bus number of "/dev/i2c-N", nil for anything else.
    package static func busNumber(path: String) -> Int? {
        guard let name = path.split(separator: "/").last, name.hasPrefix("i2c-") else { return nil }
        return Int(name.dropFirst(4))
    }

    /// Reads the binding under `root` (tests point it at a fake tree); nil when the device does not exist.
    package static func read(bus: Int, address: I2CAddress, root: String = "/sys/bus/i2c/devices")
        -> KernelDriverBinding?
    {
        let name = deviceName(bus: bus, address: address)
        let dir = root + "/" + name
        guard system_listDirectory(dir).isEmpty == false else { return nil }
        let target = readLink(dir + "/driver")
        let driver = target.flatMap { $0.split(separator: "/").last.map(String.init) }
        return KernelDriverBinding(device: name, driver: driver)
    }

    /// How to release the device, in words a user can act on.
    package var releaseAdvice: String {
        guard let driver else {
            return
                "a kernel device \(device) is declared (no driver bound); "
                + "remove its dtoverlay from /boot/firmware/config.txt"
        }
        let overlay: String
        switch driver.lowercased() {
        case let d where d.contains("edt") || d.contains("ft5x06"): overlay = "edt-ft5406 / a touchscreen dtoverlay"
        case let d where d.contains("goodix"): overlay = "goodix"
        case let d where d.contains("hynitron") || d.contains("cst"): overlay = "the hynitron/cst816 overlay"
        default: overlay = "the overlay that declares it"
        }
        return "kernel driver \(driver) owns \(device): release it now with "
            + "`echo \(device) | sudo tee /sys/bus/i2c/drivers/\(driver)/unbind`, "
            + "and for good remove dtoverlay=\(overlay) from /boot/firmware/config.txt "
            + "(or disable_touchscreen=1 for the official panel)"
    }
}

/// The target of a symbolic link, nil when `path` is not one.
///
/// The corresponding C function is `readlink`.
private func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink(path, &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
