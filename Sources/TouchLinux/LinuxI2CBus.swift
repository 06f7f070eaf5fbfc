import CLinux
import SystemPackage
import TouchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An I2C adapter through the Linux character device `/dev/i2c-N` (the `i2c-dev` module).
///
/// Every transfer is one `I2C_RDWR` ioctl — a write message and, after a repeated start, a
/// read message — as the kernel's own touch drivers (`edt-ft5x06`, `goodix`) do, so no
/// other master can slip between the register address and the data. The address is given
/// per transfer; no `I2C_SLAVE` binding is needed, so addresses claimed by kernel drivers
/// still work for probing (the adapter answers EBUSY only for conflicting operations).
///
/// Sendable: the only stored property is an immutable, uniquely owned descriptor, and the
/// kernel serialises transfers on an adapter.
package final class LinuxI2CBus: I2CBus, Sendable {
    /// The device node, e.g. "/dev/i2c-1".
    package let path: String
    private let handle: DescriptorHandle

    /// Opens `path` read-write with `O_CLOEXEC`.
    ///
    /// - Throws: `.missingBus` (ENOENT, ENODEV, ENXIO), `.permissionDenied` (EACCES, EPERM),
    ///   `.failed` for anything else.
    ///
    /// The corresponding C function is `open`.
    package init(path: String) throws(I2CError) {
        switch system_open(path, O_RDWR | O_CLOEXEC) {
        case .success(let fd):
            self.path = path
            self.handle = DescriptorHandle(adopting: fd)
        case .failure(let e):
            switch e {
            case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice:
                throw .missingBus(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            default: throw .failed(operation: "open \(path)", address: I2CAddress(0), errno: e.rawValue)
            }
        }
    }

    /// Opens `/dev/i2c-<number>`.
    package convenience init(bus number: Int) throws(I2CError) {
        try self.init(path: "/dev/i2c-\(number)")
    }

    /// The I2C device nodes present, sorted by bus number ("/dev/i2c-1" before "/dev/i2c-10").
    /// Empty when none exist (I2C disabled) or `/dev` cannot be read.
    package static func busPaths(directory: String = "/dev") -> [String] {
        let numbers = system_listDirectory(directory).compactMap { name -> Int? in
            guard name.hasPrefix("i2c-") else { return nil }
            return Int(name.dropFirst(4))
        }
        return numbers.sorted().map { "\(directory)/i2c-\($0)" }
    }

    /// One combined transfer: writes `command`, then, if `response` is not empty, reads
    /// `response.count` bytes after a repeated start. EINTR is retried.
    ///
    /// - Throws: `.noAcknowledge` (ENXIO, EREMOTEIO, ENODEV), `.remoteIO` (EIO), `.timeout`
    ///   (ETIMEDOUT), `.busy` (EBUSY), `.failed` otherwise, including messages longer than
    ///   65535 bytes (EINVAL).
    ///
    /// The corresponding C function is `ioctl(fd, I2C_RDWR, …)` (through `tw_i2c_write_read`).
    package func transfer(
        _ address: I2CAddress, write command: UnsafeRawBufferPointer, read response: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        guard let wlen = UInt16(exactly: command.count), let rlen = UInt16(exactly: response.count) else {
            throw .failed(operation: "I2C_RDWR (message too long)", address: address, errno: EINVAL)
        }
        let fd = handle.rawValue
        let result = valueOrErrno(retryOnInterrupt: true) {
            tw_i2c_write_read(
                fd, address.rawValue, command.baseAddress?.assumingMemoryBound(to: UInt8.self), wlen,
                response.baseAddress?.assumingMemoryBound(to: UInt8.self), rlen)
        }
        if case .failure(let e) = result { throw LinuxI2CBus.error(for: e, address: address) }
    }

    /// The `I2CError` for an errno from `I2C_RDWR`.
    static func error(for e: Errno, address: I2CAddress) -> I2CError {
        switch e {
        case .noSuchAddressOrDevice, .operationNotSupportedByDevice, Errno(rawValue: EREMOTEIO):
            return .noAcknowledge(address: address, errno: e.rawValue)
        case .ioError: return .remoteIO(address: address, errno: e.rawValue)
        case .timedOut: return .timeout(address: address)
        case .resourceBusy: return .busy(address: address)
        default: return .failed(operation: "I2C_RDWR", address: address, errno: e.rawValue)
        }
    }
}
