/// A 7-bit I2C slave address (0x08…0x77 for ordinary devices).
public struct I2CAddress: RawRepresentable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ value: UInt16) { self.rawValue = value }
    /// "0x38".
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}

/// What went wrong on an I2C transfer. Each case names the address; kernel errors carry the errno.
public enum I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device did not acknowledge its address (ENXIO / EREMOTEIO from most adapters): absent,
    /// asleep or held in reset.
    case noAcknowledge(address: I2CAddress, errno: Int32)
    /// The adapter reported a bus-level I/O error (EIO).
    case remoteIO(address: I2CAddress, errno: Int32)
    /// The transfer timed out (ETIMEDOUT): clock stretching too long or a stuck bus.
    case timeout(address: I2CAddress)
    /// The bus device node does not exist.
    case missingBus(path: String)
    /// The bus device node exists but may not be opened (EACCES/EPERM): add the user to group `i2c`.
    case permissionDenied(path: String)
    /// The bus is in use by a kernel driver bound to this address (EBUSY).
    case busy(address: I2CAddress)
    /// Any other failure: what was attempted and the errno.
    case failed(operation: String, address: I2CAddress, errno: Int32)

    public var description: String {
        switch self {
        case .noAcknowledge(let a, let e): return "no acknowledge from I2C address \(a) (errno \(e))"
        case .remoteIO(let a, let e): return "I/O error talking to I2C address \(a) (errno \(e))"
        case .timeout(let a): return "timeout talking to I2C address \(a)"
        case .missingBus(let p): return "I2C bus \(p) does not exist (is the I2C interface enabled?)"
        case .permissionDenied(let p): return "permission denied opening \(p) (run as root or join group i2c)"
        case .busy(let a): return "I2C address \(a) is claimed by a kernel driver"
        case .failed(let op, let a, let e): return "\(op) on I2C address \(a) failed (errno \(e))"
        }
    }
}

/// An I2C bus as Linux `I2C_RDWR` presents it: combined write-then-read transfers.
///
/// Two implementations: `LinuxI2CBus` (`/dev/i2c-N`) and `SimulatedI2CBus` (register-level
/// device models). Drivers see only this protocol, so the simulated world exercises the
/// same code paths as the real one.
public protocol I2CBus: AnyObject {
    /// Writes `command` (a register address, possibly 16-bit, possibly followed by data) and,
    /// when `response` is not empty, reads `response.count` bytes after a repeated start —
    /// one transfer, as `i2c_transfer(adapter, msgs, 2)` does.
    func transfer(
        _ address: I2CAddress, write command: UnsafeRawBufferPointer, read response: UnsafeMutableRawBufferPointer
    ) throws(I2CError)
}

extension I2CBus {
    /// Runs one transfer over Swift arrays (allocates; for identification and set-up, not per frame).
    public func transfer(_ address: I2CAddress, write command: [UInt8], readCount: Int) throws(I2CError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: readCount)
        var failure: I2CError?
        command.withUnsafeBytes { cmd in
            out.withUnsafeMutableBytes { resp in
                do throws(I2CError) { try transfer(address, write: cmd, read: resp) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return out
    }

    /// Reads `count` bytes starting at an 8-bit register.
    public func readRegisters(_ address: I2CAddress, register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        try transfer(address, write: [register], readCount: count)
    }

    /// Reads `count` bytes starting at a 16-bit register, sent high byte first (GT911).
    public func readRegisters16(_ address: I2CAddress, register: UInt16, count: Int) throws(I2CError) -> [UInt8] {
        try transfer(address, write: [UInt8(register >> 8), UInt8(register & 0xFF)], readCount: count)
    }

    /// Writes `bytes` (register address first) in one message.
    public func write(_ address: I2CAddress, _ bytes: [UInt8]) throws(I2CError) {
        _ = try transfer(address, write: bytes, readCount: 0)
    }
}
