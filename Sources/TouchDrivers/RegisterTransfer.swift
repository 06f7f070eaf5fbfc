import TouchCore

/// One fixed combined transfer, allocated once for the life of a driver: a command (the
/// register address, 8- or 16-bit, perhaps followed by data) and a response area the chip's
/// reply is read into. `run` is a single `I2C_RDWR`-style transfer with no allocation, which is
/// what keeps a driver's per-report path allocation-free.
///
/// Move-only: the buffer is released exactly once, when its owner goes away.
package struct RegisterTransfer: ~Copyable {
    private let storage: UnsafeMutableRawBufferPointer
    private let commandLength: Int

    /// A transfer that writes `command` and then reads `responseLength` bytes (0: write only).
    package init(command: [UInt8], responseLength: Int) {
        precondition(!command.isEmpty && responseLength >= 0, "RegisterTransfer needs a command")
        commandLength = command.count
        storage = .allocate(byteCount: command.count + responseLength, alignment: 8)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        for (i, byte) in command.enumerated() { storage[i] = byte }
    }

    deinit { storage.deallocate() }

    /// Runs the transfer against `address` on `bus`; the reply lands in `response`.
    package func run(on bus: some I2CBus, address: I2CAddress) throws(I2CError) {
        try bus.transfer(
            address, write: UnsafeRawBufferPointer(rebasing: storage[0..<commandLength]),
            read: UnsafeMutableRawBufferPointer(rebasing: storage[commandLength...]))
    }

    /// The bytes the last `run` read (zeros before the first).
    package var response: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[commandLength...]) }
}
