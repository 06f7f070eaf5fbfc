import TouchCore
import TouchDrivers
import TouchSimulation
import XCTest

/// GT911 and CST816 drivers against their register-level models, on a `ManualClock` the test
/// moves by hand: the drivers sleep by advancing it (no real sleeping).
final class ChipSimulationTests: XCTestCase {
    let rst = ControllerLine(id: GPIOLineID(chip: "sim-gpio", offset: 27), activeLow: true)
    let int = ControllerLine(id: GPIOLineID(chip: "sim-gpio", offset: 17), activeLow: false)

    private func frame(_ contacts: [Contact]) -> TouchFrame { TouchFrame(timestamp: .zero, contacts: contacts) }

    /// A GT911 on a bus, its reset wired to the simulated GPIO chip the way the factory does.
    private func gt911(
        address: UInt16 = 0x5D, withINT: Bool, wrongAddress: Bool = false, waits: Bool = false
    ) -> (SimulatedI2CBus, GT911Model, GT911Driver<SimulatedI2CBus>, SimulatedGPIO, ManualClock) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let model = GT911Model(clock: clock)
        model.wrongAddressAfterReset = wrongAddress
        bus.attach(model)
        let gpio = SimulatedGPIO(clock: clock)
        let int = self.int
        let rst = self.rst
        gpio.onOutputChange = { [unowned gpio, unowned model, unowned bus] id, active, _ in
            guard id == rst.id else { return }
            let high: Bool? = gpio.isOutput(int.id) ? gpio.isActive(int.id) != int.activeLow : nil
            let before = model.address
            model.setReset(active, intHigh: high)
            bus.detach(before)
            bus.attach(model)
        }
        let lines = ControllerLines(provider: gpio, interrupt: withINT ? int : nil, reset: rst)
        let driver = GT911Driver(
            bus: bus,
            configuration: .init(address: I2CAddress(address), panelWidth: 800, panelHeight: 480, waitsForReady: waits),
            lines: lines, timing: DriverTiming(clock: clock))
        return (bus, model, driver, gpio, clock)
    }

    func testGT911DrivesINTDuringResetToSelectTheConfiguredAddress() throws {
        // GDX goodix_reset_no_int_sync: INT high at RST release → 0x14.
        let (_, model, driver, gpio, _) = gt911(address: 0x14, withINT: true)
        try driver.start()
        XCTAssertEqual(model.address, I2CAddress(0x14))
        XCTAssertEqual(driver.activeAddress, I2CAddress(0x14))
        XCTAssertNil(driver.identity?.note)
        XCTAssertEqual(driver.identity?.chipName, "GT911")
        XCTAssertEqual(driver.identity?.resolutionWidth, 800)
        // RST held ≥ 10 ms ("T2"), INT set ≥ 100 µs before release ("T3"), then INT low 50 ms ("T5").
        let r = gpio.changes(of: rst.id)
        XCTAssertEqual(r.map(\.active), [true, false])
        XCTAssertGreaterThanOrEqual(r[1].at.microseconds(since: r[0].at), 10_000)
        let i = gpio.changes(of: int.id)
        XCTAssertEqual(i.first?.active, true)
        XCTAssertGreaterThanOrEqual(r[1].at.microseconds(since: i[0].at), 100)
        XCTAssertNotNil(driver.interruptInput, "INT back to an input with edges after the reset")
    }

    func testGT911WithoutINTProbesBothAddressesAndSaysWhichAnswered() throws {
        // Floating INT → random address (rpi/linux PR #6547): here the chip latches 0x14.
        let (_, model, driver, _, _) = gt911(address: 0x5D, withINT: false, wrongAddress: true)
        try driver.start()
        XCTAssertEqual(model.address, I2CAddress(0x14))
        XCTAssertEqual(driver.activeAddress, I2CAddress(0x14))
        XCTAssertTrue(
            driver.identity?.note?.contains("alternate address 0x14") ?? false, "\(String(describing: driver.identity))"
        )
    }

    func testGT911ReadClearsStatusAndZeroPointsReleases() throws {
        let (bus, model, driver, _, _) = gt911(withINT: false)
        try driver.start()
        XCTAssertNil(try driver.readFrame(at: .zero), "idle: not ready is nothing new")
        model.present(frame([Contact(id: 1, x: 100, y: 200)]))
        let clearsBefore = model.clearCount
        bus.resetCounters()
        XCTAssertEqual(try driver.readFrame(at: .zero)?.contacts, [Contact(id: 1, x: 100, y: 200)])
        XCTAssertEqual(bus.transferCount, 2, "one read, one clear")
        XCTAssertEqual(model.clearCount, clearsBefore + 1)
        XCTAssertEqual(model.status & 0x80, 0, "ready bit cleared after the read")
        XCTAssertNil(try driver.readFrame(at: .zero), "nothing new until the next scan")
        model.present(frame([]))
        let release = try XCTUnwrap(driver.readFrame(at: .zero))
        XCTAssertTrue(release.isEmpty, "ready with zero points = every contact lifted (Tasmota #24942)")
    }

    func testGT911ReadyLagAndSpuriousINTAfterLift() throws {
        let (_, model, driver, _, clock) = gt911(withINT: true, waits: true)
        try driver.start()
        model.readyLagMicroseconds = 10_000  // GDX: "around 10 ms"
        model.spuriousInterruptAfterLift = true
        model.present(frame([Contact(id: 0, x: 5, y: 6)]))
        let t0 = clock.now
        XCTAssertEqual(try driver.readFrame(at: t0)?.count, 1, "waits for the ready bit")
        XCTAssertGreaterThanOrEqual(clock.now.microseconds(since: t0), 10_000)
        XCTAssertLessThan(clock.now.microseconds(since: t0), 20_000)
        model.present(frame([]))
        XCTAssertEqual(try driver.readFrame(at: clock.now)?.isEmpty, true)
        XCTAssertEqual(model.interruptCount, 3, "press, release, and a spurious pulse")
        // The spurious INT: nothing becomes ready in 20 ms → nil, counted, not an error.
        XCTAssertNil(try driver.readFrame(at: clock.now))
        XCTAssertEqual(driver.counters.notReady, 1)
    }

    func testGT911InResetNacks() {
        let model = GT911Model()
        model.setReset(true, intHigh: nil)
        let bus = SimulatedI2CBus()
        bus.attach(model)
        XCTAssertThrowsError(try bus.readRegisters16(model.address, register: 0x8140, count: 4))
    }

    // MARK: CST816

    private func cst816(ignoresDisable: Bool, reset: Bool = true)
        -> (CST816Model, CST816Driver<SimulatedI2CBus>, ManualClock)
    {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let model = CST816Model(clock: clock)
        model.ignoresAutoSleepDisable = ignoresDisable
        bus.attach(model)
        let gpio = SimulatedGPIO(clock: clock)
        let rst = self.rst
        gpio.onOutputChange = { [unowned model] id, active, _ in if id == rst.id { model.setReset(active) } }
        let lines = ControllerLines(provider: gpio, interrupt: nil, reset: reset ? rst : nil)
        let driver = CST816Driver(
            bus: bus, configuration: .init(panelWidth: 240, panelHeight: 240), lines: lines,
            timing: DriverTiming(clock: clock))
        return (model, driver, clock)
    }

    func testCST816ResetsBeforeProbingSoASleepingChipIsFound() throws {
        // esphome #6293: asleep after 2 s idle, absent from the bus until touched or reset.
        let (model, driver, clock) = cst816(ignoresDisable: false)
        clock.now = .milliseconds(5_000)
        XCTAssertTrue(model.isAsleep)
        try driver.start()
        XCTAssertEqual(driver.identity?.chipName, "CST816S")
        XCTAssertFalse(model.autoSleepEnabled, "DIS_AUTO_SLEEP written")
        clock.now = clock.now.advanced(byMicroseconds: 10_000_000)
        XCTAssertEqual(try driver.readFrame(at: clock.now)?.isEmpty, true, "still answering after 10 s idle")
    }

    func testCST816WithoutResetIsMissingUntilTouched() throws {
        let (model, driver, clock) = cst816(ignoresDisable: false, reset: false)
        clock.now = .milliseconds(3_000)
        XCTAssertThrowsError(try driver.start())
        model.present(frame([Contact(id: 0, x: 10, y: 10)]))
        XCTAssertNoThrow(try driver.start())
    }

    func testCST816AutoSleepNackWhileIdleIsSleepNotError() throws {
        // A part that ignores DIS_AUTO_SLEEP: NACKs after ~2 s idle.
        let (model, driver, clock) = cst816(ignoresDisable: true)
        try driver.start()
        model.nextGesture = CST816Registers.Gesture.singleClick
        model.present(frame([Contact(id: 0, x: 120, y: 60)]))
        XCTAssertEqual(try driver.readFrame(at: clock.now)?.contacts, [Contact(id: 0, x: 120, y: 60)])
        XCTAssertEqual(driver.lastReport?.gestureID, CST816Registers.Gesture.singleClick, "raw gesture kept")
        model.present(frame([]))
        XCTAssertEqual(try driver.readFrame(at: clock.now)?.isEmpty, true, "lift record gives no contact")
        clock.now = clock.now.advanced(byMicroseconds: 2_500_000)
        XCTAssertNil(try driver.readFrame(at: clock.now), "asleep while idle: nothing new, no error")
        XCTAssertEqual(driver.counters.sleepNacks, 1)
        XCTAssertEqual(driver.counters.readErrors, 0)
        XCTAssertTrue(driver.isAsleep)
        model.present(frame([Contact(id: 0, x: 1, y: 2)]))  // a touch wakes it
        XCTAssertEqual(try driver.readFrame(at: clock.now)?.count, 1)
    }

    // MARK: FocalTech

    func testFocalTechStartWritesTriggerModeAndReportRate() throws {
        let bus = SimulatedI2CBus()
        let model = FT6x36Model()
        bus.attach(model)
        let clock = ManualClock()
        let gpio = SimulatedGPIO(clock: clock)
        let lines = ControllerLines(provider: gpio, interrupt: int, reset: rst)
        let config = FT6x36Driver<SimulatedI2CBus>.Configuration(
            maxPoints: 2, panelWidth: 800, panelHeight: 480, interruptTrigger: false, reportRate: 0x3C)
        let driver = FT6x36Driver(bus: bus, configuration: config, lines: lines, timing: DriverTiming(clock: clock))
        try driver.start()
        XCTAssertEqual(
            model.interruptMode, FocalTechRegisters.interruptModeTrigger, "INT wired → trigger mode (0xA4)")
        XCTAssertEqual(model.reportRate, 0x3C, "PERIOD_ACTIVE (0x88)")
        let r = gpio.changes(of: rst.id)
        XCTAssertEqual(r.map(\.active), [true, false])
        XCTAssertGreaterThanOrEqual(r[1].at.microseconds(since: r[0].at), 1_000, "Z-FT: held ≥ 1 ms")
        XCTAssertGreaterThanOrEqual(clock.now.microseconds(since: r[1].at), 300_000, "EDT msleep(300)")
    }
}
