import TouchCore

/// A register-level device behind `SimulatedI2CBus`: it sees what a real chip sees on the wire.
///
/// One call is one combined transfer: the bytes written (register pointer, possibly data),
/// then — when `read` is not empty — the bytes the host clocks in after the repeated start.
/// A model throws (normally `.noAcknowledge` naming `address`) where the real chip would NACK.
package protocol I2CDeviceModel: AnyObject {
    /// The 7-bit address the device answers at.
    var address: I2CAddress { get }
    /// Handles one combined write-then-read transfer.
    func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError)
}

/// An in-memory I2C bus: device models by address, plus fault knobs and transfer counts.
///
/// Mirrors `/dev/i2c-N` with `I2C_RDWR`: a transfer to an address with no device fails with
/// `.noAcknowledge(address:, errno: 121)` (EREMOTEIO, what the Pi's adapter returns).
///
/// Single-threaded by design: the driver thread both feeds the models (a script player
/// presenting frames) and reads them. It is not `Sendable`; do not share it between threads.
package final class SimulatedI2CBus: I2CBus {
    /// EREMOTEIO, the errno of a NACK on the Pi's I2C adapter.
    package static let nackErrno: Int32 = 121

    /// What the last transfer looked like (no allocation to record it).
    package struct TransferSummary: Hashable, Sendable {
        package var address: I2CAddress
        /// Bytes written (register pointer included).
        package var writeCount: Int
        /// The first byte written (the register pointer on 8-bit-register chips), nil for none.
        package var firstWriteByte: UInt8?
        /// Bytes read.
        package var readCount: Int
        /// Whether the transfer failed.
        package var failed: Bool
    }

    private var devices: [I2CAddress: any I2CDeviceModel] = [:]
    private var pendingNacks = 0
    private var pendingRemoteIO = 0

    /// Transfers attempted (including failed ones) since creation or `resetCounters()`.
    package private(set) var transferCount = 0
    /// Transfers that failed since creation or `resetCounters()`.
    package private(set) var failedTransferCount = 0
    /// The last transfer attempted, nil before any.
    package private(set) var lastTransfer: TransferSummary?

    package init() {}

    /// Puts `model` on the bus at `model.address` (replacing any device there).
    package func attach(_ model: any I2CDeviceModel) { devices[model.address] = model }

    /// Removes the device at `address` (it stops acknowledging, like a chip held in reset).
    package func detach(_ address: I2CAddress) { devices[address] = nil }

    /// The device at `address`, if any.
    package func device(at address: I2CAddress) -> (any I2CDeviceModel)? { devices[address] }

    /// Fault knob: the next `count` transfers (to any address) fail with `.noAcknowledge`,
    /// like an -EREMOTEIO burst (rpi/linux #4881). Accumulates.
    package func nackNext(_ count: Int) { pendingNacks += max(count, 0) }

    /// Fault knob: the next `count` transfers fail with `.remoteIO` (EIO, a bus-level error). Accumulates.
    package func remoteIOErrorNext(_ count: Int) { pendingRemoteIO += max(count, 0) }

    /// NACKs armed by `nackNext` and not yet consumed.
    package var pendingNackCount: Int { pendingNacks }

    /// Zeroes `transferCount`, `failedTransferCount` and `lastTransfer`.
    package func resetCounters() {
        transferCount = 0
        failedTransferCount = 0
        lastTransfer = nil
    }

    /// What a test left behind: armed NACKs never consumed. Empty when the world is clean.
    package func finish() -> [String] {
        (pendingNacks > 0 ? ["\(pendingNacks) armed NACK(s) were never consumed"] : [])
            + (pendingRemoteIO > 0 ? ["\(pendingRemoteIO) armed remote I/O error(s) were never consumed"] : [])
    }

    package func transfer(
        _ address: I2CAddress, write command: UnsafeRawBufferPointer, read response: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        transferCount += 1
        var summary = TransferSummary(
            address: address, writeCount: command.count, firstWriteByte: command.first, readCount: response.count,
            failed: true)
        defer { lastTransfer = summary }
        if pendingNacks > 0 {
            pendingNacks -= 1
            failedTransferCount += 1
            throw I2CError.noAcknowledge(address: address, errno: Self.nackErrno)
        }
        if pendingRemoteIO > 0 {
            pendingRemoteIO -= 1
            failedTransferCount += 1
            throw I2CError.remoteIO(address: address, errno: 5)
        }
        guard let device = devices[address] else {
            failedTransferCount += 1
            throw I2CError.noAcknowledge(address: address, errno: Self.nackErrno)
        }
        do {
            try device.transfer(write: command, read: response)
        } catch {
            failedTransferCount += 1
            throw error
        }
        summary.failed = false
    }
}
