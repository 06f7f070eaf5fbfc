import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a backlight could not be used. Each case names the path.
package enum BacklightError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No such device; `available` lists the names under the root.
    case missing(path: String, available: [String])
    /// A file could not be read or written (permission: a udev rule, docs/kiosk.md).
    case failed(path: String, operation: String, errno: Errno)
    /// A file held something other than a number.
    case malformed(path: String)

    package var description: String {
        switch self {
        case .missing(let p, let a):
            let list = a.isEmpty ? "none" : a.sorted().joined(separator: ", ")
            return "\(p): no such backlight (backlights here: \(list))"
        case .failed(let p, let op, let e):
            let hint = e == .permissionDenied ? " (permission: see docs/kiosk.md, \"Backlight permissions\")" : ""
            return "\(p): \(op) failed (\(e))\(hint)"
        case .malformed(let p): return "\(p): not a number"
        }
    }
}

/// A backlight class device (`/sys/class/backlight/NAME`, Documentation/ABI/stable/sysfs-class-backlight):
/// `brightness` (0…`max_brightness`) and `bl_power` (0 = FB_BLANK_UNBLANK, 4 = FB_BLANK_POWERDOWN).
///
/// The one place of the package for the backlight's files. `root` is injectable: tests make a
/// directory with the same files. Blocking file writes (a DSI panel's driver may talk I2C to its
/// MCU): used by the display switch's own thread only, never by the real-time threads.
package final class Backlight {
    package let directory: String
    package let maxBrightness: Int

    /// Opens `root/name`: reads `max_brightness` and checks that `brightness` and `bl_power` can
    /// be read and written, so a missing device or a permission problem is one error at start.
    package init(name: String, root: String = "/sys/class/backlight") throws(BacklightError) {
        directory = root + "/" + name
        if system_listDirectory(directory).isEmpty {
            throw .missing(path: directory, available: system_listDirectory(root))
        }
        maxBrightness = try Self.readNumber(directory + "/max_brightness")
        _ = try Self.readNumber(directory + "/brightness")
        _ = try Self.readNumber(directory + "/bl_power")
        for file in ["brightness", "bl_power"] {
            let path = directory + "/" + file
            switch system_open(path, O_WRONLY | O_CLOEXEC) {
            case .success(let fd): _ = system_close(fd)
            case .failure(let e): throw .failed(path: path, operation: "open for writing", errno: e)
            }
        }
    }

    /// The current `brightness`.
    package func brightness() throws(BacklightError) -> Int { try Self.readNumber(directory + "/brightness") }

    /// Writes `brightness` (clamped to 0…max).
    package func setBrightness(_ value: Int) throws(BacklightError) {
        try Self.write(directory + "/brightness", min(max(0, value), maxBrightness))
    }

    /// Writes `bl_power`: 0 (on) or 4 (powered down).
    package func setPower(on: Bool) throws(BacklightError) { try Self.write(directory + "/bl_power", on ? 0 : 4) }

    /// The current `bl_power` is 0.
    package func isPoweredOn() throws(BacklightError) -> Bool { try Self.readNumber(directory + "/bl_power") == 0 }

    private static func readNumber(_ path: String) throws(BacklightError) -> Int {
        let fd: CInt
        switch system_open(path, O_RDONLY | O_CLOEXEC) {
        case .success(let f): fd = f
        case .failure(let e): throw .failed(path: path, operation: "open", errno: e)
        }
        defer { _ = system_close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n: Int
        switch buffer.withUnsafeMutableBytes({ system_read(fd, $0) }) {
        case .success(let k): n = k
        case .failure(let e): throw .failed(path: path, operation: "read", errno: e)
        }
        let text = String(decoding: buffer[0..<n], as: UTF8.self).split(whereSeparator: \.isWhitespace).first
        guard let text, let value = Int(text), value >= 0 else { throw .malformed(path: path) }
        return value
    }

    private static func write(_ path: String, _ value: Int) throws(BacklightError) {
        let fd: CInt
        switch system_open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) {
        case .success(let f): fd = f
        case .failure(let e): throw .failed(path: path, operation: "open", errno: e)
        }
        defer { _ = system_close(fd) }
        let bytes = Array("\(value)\n".utf8)
        switch bytes.withUnsafeBytes({ system_write(fd, $0) }) {
        case .success: return
        case .failure(let e): throw .failed(path: path, operation: "write", errno: e)
        }
    }
}
