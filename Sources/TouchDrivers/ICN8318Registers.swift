/// Register map of the Chipone ICN8318 (`controllers.md` §5). 8-bit registers, usually at 7-bit
/// address 0x40; no identification register is known.
///
/// Source: Linux `drivers/input/touchscreen/chipone_icn8318.c` (the only public description;
/// no datasheet).
package enum ICN8318Registers {
    /// The address device trees give the chip (`touchscreen@40`).
    package static let address: UInt16 = 0x40
    /// POWER: 0 active, 1 monitor, 2 hibernate (the chip then answers only after its wake line
    /// is pulsed).
    package static let power: UInt8 = 0x04
    package static let powerActive: UInt8 = 0
    package static let powerHibernate: UInt8 = 2
    /// TOUCHDATA: the start of the touch image.
    package static let touchData: UInt8 = 0x10
    /// Points one image holds.
    package static let maxPoints = 5
    /// Bytes per point record: slot, X (big-endian 16-bit), Y (big-endian 16-bit), width, event.
    package static let recordLength = 7
    /// The image: soft-button byte, record count, then `maxPoints` records.
    package static let imageLength = 2 + maxPoints * recordLength
    /// Offsets in the image.
    package static let softButtonOffset = 0
    package static let countOffset = 1
    package static let firstRecordOffset = 2

    /// A record's event byte.
    package enum Event {
        /// No finger seen since wake-up: no contact.
        package static let noData: UInt8 = 1
        /// New or moved contact (the kernel treats 2 and 3 alike).
        package static let update1: UInt8 = 2
        package static let update2: UInt8 = 3
        /// Finger lifted: the record's coordinates are not a contact.
        package static let end: UInt8 = 4
    }

    /// Wake line held low before it is raised (the kernel gives no figure; a reset-like pulse).
    package static let wakeAssertMicroseconds: Int64 = 10_000
    /// Wait after the wake line rises before the first access.
    package static let wakeReleaseMicroseconds: Int64 = 50_000
}
