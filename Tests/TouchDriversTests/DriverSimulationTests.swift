import TouchCore
import TouchDrivers
import TouchSimulation
import XCTest

final class DriverSimulationTests: XCTestCase {
    private func makeWorld(fill: FT6x36Model.SlotFill = .ones)
        -> (SimulatedI2CBus, FT6x36Model, FT6x36Driver<SimulatedI2CBus>)
    {
        let bus = SimulatedI2CBus()
        let model = FT6x36Model(unusedSlotFill: fill)
        bus.attach(model)
        let driver = FT6x36Driver(
            bus: bus, configuration: .ft6x36(panelWidth: 800, panelHeight: 480), timing: .immediate)
        return (bus, model, driver)
    }

    private func frame(_ t: Int64, _ contacts: [Contact]) -> TouchFrame {
        TouchFrame(timestamp: Instant(microseconds: t), contacts: contacts)
    }

    func testRoundTripOneTransferPerFrameFromRegisterZero() throws {
        for fill in [FT6x36Model.SlotFill.zeros, .ones] {
            let (bus, model, driver) = makeWorld(fill: fill)
            let script: [[Contact]] = [
                [],
                [Contact(id: 0, x: 100, y: 200)],
                [Contact(id: 0, x: 110, y: 205), Contact(id: 1, x: 700, y: 50)],
                [Contact(id: 1, x: 690, y: 55)],
                [],
                [],
            ]
            for (i, contacts) in script.enumerated() {
                model.present(frame(Int64(i), contacts))
                bus.resetCounters()
                let t = Instant(microseconds: Int64(i) * 10_000)
                let got = try XCTUnwrap(driver.readFrame(at: t))
                XCTAssertEqual(bus.transferCount, 1)
                XCTAssertEqual(bus.lastTransfer?.firstWriteByte, 0x00)
                XCTAssertEqual(bus.lastTransfer?.writeCount, 1)
                XCTAssertEqual(bus.lastTransfer?.readCount, 3 + 6 * 2)
                XCTAssertFalse(model.interruptPending)
                XCTAssertEqual(got.timestamp, t)
                XCTAssertEqual(got.contacts, contacts, "step \(i), fill \(fill)")
            }
            XCTAssertEqual(driver.counters.framesRead, script.count)
            XCTAssertEqual(driver.counters.framesRejected, 0)
            XCTAssertEqual(bus.finish(), [])
        }
    }

    func testModelEventsAndLiftRecord() throws {
        let (bus, model, _) = makeWorld(fill: .zeros)
        model.present(frame(0, [Contact(id: 0, x: 300, y: 301)]))
        XCTAssertTrue(model.interruptPending)
        var image = try bus.readRegisters(I2CAddress(0x38), register: 0, count: 15)
        XCTAssertFalse(model.interruptPending)
        XCTAssertEqual(image[2], 1)
        XCTAssertEqual(image[3] >> 6, 0)  // press down
        XCTAssertEqual(Array(image[9...]), [UInt8](repeating: 0, count: 6))
        model.present(frame(1, [Contact(id: 0, x: 310, y: 301)]))
        image = try bus.readRegisters(I2CAddress(0x38), register: 0, count: 15)
        XCTAssertEqual(image[3] >> 6, 2)  // contact
        model.present(frame(2, []))
        XCTAssertTrue(model.interruptPending)
        image = try bus.readRegisters(I2CAddress(0x38), register: 0, count: 15)
        XCTAssertEqual(image[2], 0)
        XCTAssertEqual(image[3] >> 6, 1)  // lift up, last coordinates
        XCTAssertEqual(Int(image[3] & 0x0F) << 8 | Int(image[4]), 310)
        model.present(frame(3, []))  // lift record reported once only
        XCTAssertFalse(model.interruptPending)
        image = try bus.readRegisters(I2CAddress(0x38), register: 0, count: 15)
        XCTAssertEqual(image[3], 0x00)
        // More than two contacts: the chip reports two.
        model.present(frame(4, (0..<3).map { Contact(id: UInt8($0), x: 10, y: 10) }))
        XCTAssertEqual(model.droppedContacts, 1)
        image = try bus.readRegisters(I2CAddress(0x38), register: 2, count: 1)
        XCTAssertEqual(image[0], 2)
    }

    func testIdentity() throws {
        let (bus, _, driver) = makeWorld()
        try driver.start()
        let id = try XCTUnwrap(driver.identity)
        XCTAssertEqual(id.chipName, "FT6336U")
        XCTAssertEqual(id.address, I2CAddress(0x38))
        XCTAssertEqual(id.chipID, 0x64)
        XCTAssertEqual(id.firmware, 0x10)
        XCTAssertEqual(id.vendor, 0x11)
        let model = try XCTUnwrap(bus.device(at: I2CAddress(0x38)) as? FT6x36Model)
        XCTAssertEqual(model.interruptMode, FocalTechRegisters.interruptModeTrigger)
        try driver.configure(interruptTrigger: false)
        XCTAssertEqual(model.interruptMode, FocalTechRegisters.interruptModePolling)
        XCTAssertEqual(try bus.readRegisters(I2CAddress(0x38), register: 0x88, count: 1), [0x64])
    }

    func testIdentityToleratesCloneWithoutIDRegisters() throws {
        let (_, model, driver) = makeWorld()
        model.nacksIdentificationReads = true
        let id = try driver.identify()
        XCTAssertEqual(id.chipName, "FT6x36 (unidentified)")
        XCTAssertNil(id.chipID)
        XCTAssertNil(id.firmware)
        XCTAssertNil(id.vendor)
        model.present(TouchFrame(timestamp: .zero, contacts: [Contact(id: 0, x: 1, y: 2)]))
        XCTAssertEqual(try driver.readFrame(at: .zero)?.count, 1)
    }

    func testNackSurfacesAsNoAcknowledgeNaming0x38() {
        let (bus, _, driver) = makeWorld()
        bus.nackNext(1)
        XCTAssertThrowsError(try driver.readFrame(at: .zero)) { error in
            guard case .bus(.noAcknowledge(let address, _)) = error as? TouchInputError else {
                return XCTFail("expected noAcknowledge, got \(error)")
            }
            XCTAssertEqual(address, I2CAddress(0x38))
            XCTAssertTrue("\(error)".contains("0x38"))
        }
        XCTAssertNoThrow(try driver.readFrame(at: .zero))
        XCTAssertEqual(bus.failedTransferCount, 1)
        // Absent device.
        bus.detach(I2CAddress(0x38))
        XCTAssertThrowsError(try driver.start()) { error in
            XCTAssertEqual(error as? TouchInputError, .bus(.noAcknowledge(address: I2CAddress(0x38), errno: 121)))
        }
        XCTAssertNil(driver.identity)
    }

    /// A device that answers every read with a fixed image.
    private final class FixedImage: I2CDeviceModel {
        let address = I2CAddress(0x38)
        var image: [UInt8]
        init(_ image: [UInt8]) { self.image = image }
        func transfer(write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
            for i in 0..<read.count { read[i] = i < image.count ? image[i] : 0xFF }
        }
    }

    func testTooManyPointsFromChipDropsFrame() throws {
        let bus = SimulatedI2CBus()
        bus.attach(FixedImage([0, 0, 3] + [UInt8](repeating: 0x80, count: 12)))
        let driver = FT6x36Driver(
            bus: bus, configuration: .ft6x36(panelWidth: 800, panelHeight: 480), timing: .immediate)
        XCTAssertNil(try driver.readFrame(at: .zero))
        XCTAssertEqual(driver.counters.framesRejected, 1)
        XCTAssertEqual(driver.counters.rejectedTooMany, 1)
        XCTAssertEqual(driver.lastReport?.isValid, false)
    }

    func testScriptPlayerAndDemo() throws {
        let frames = DemoScript.frames(panelWidth: 800, panelHeight: 480)
        XCTAssertEqual(frames, DemoScript.frames(panelWidth: 800, panelHeight: 480))
        XCTAssertTrue(frames.allSatisfy { f in f.contacts.allSatisfy { $0.position.x < 800 && $0.position.y < 480 } })
        XCTAssertLessThanOrEqual(frames.last!.timestamp.microseconds, DemoScript.duration)
        for (a, b) in zip(frames, frames.dropFirst()) { XCTAssertLessThanOrEqual(a.timestamp, b.timestamp) }

        let (bus, model, driver) = makeWorld()
        var player = TouchScriptPlayer(
            frames: frames, start: Instant.milliseconds(1000), loopPeriod: DemoScript.duration)
        var downFrames = 0
        var now = Instant.milliseconds(1000)
        var sawTwoLoops = false
        while now < Instant.milliseconds(1000).advanced(byMicroseconds: DemoScript.duration * 2) {
            player.advance(to: now, model: model)
            if player.currentLoop == 1 { sawTwoLoops = true }
            let f = try XCTUnwrap(driver.readFrame(at: now))
            if !f.isEmpty { downFrames += 1 }
            now = now.advanced(byMicroseconds: 10_000)
        }
        XCTAssertTrue(sawTwoLoops)
        XCTAssertEqual(downFrames, 2 * frames.filter { !$0.isEmpty }.count)
        XCTAssertEqual(driver.counters.framesRejected, 0)
        XCTAssertEqual(bus.finish(), [])

        // Playing once holds the last frame and finishes.
        var once = TouchScriptPlayer(frames: frames)
        XCTAssertNotNil(once.advance(to: .zero, model: model))
        XCTAssertNil(once.advance(to: .zero, model: model))
        once.advance(to: Instant(microseconds: 100_000_000), model: model)
        XCTAssertTrue(once.isFinished)
    }
}
