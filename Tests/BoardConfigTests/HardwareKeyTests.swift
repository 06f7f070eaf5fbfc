import BoardConfig
import TouchCore
import XCTest

/// `[controller]`, `[simulation]` and `[[output]]`.
final class HardwareKeyTests: XCTestCase {
    func testControllerDefaultsAndChipTable() throws {
        let board = try TestBoards.load(TestBoards.text())
        let c = try XCTUnwrap(board.controller)
        XCTAssertEqual(c.chip, .ft5x06)
        XCTAssertEqual(c.bus, .device("/dev/i2c-1"))
        XCTAssertEqual(c.address, I2CAddress(0x38))
        XCTAssertNil(c.interrupt)
        XCTAssertNil(c.reset)
        XCTAssertEqual(c.pollIntervalMilliseconds, 10)
        XCTAssertEqual(c.rotation, .degrees0)
        XCTAssertFalse(c.swapXY || c.invertX || c.invertY)
        XCTAssertNil(board.simulation)
        XCTAssertEqual(board.outputs, [.stdout], "no [[output]] means stdout")

        XCTAssertEqual(ControllerChip.gt911.defaultAddress, I2CAddress(0x5D))
        XCTAssertEqual(ControllerChip.cst816s.defaultAddress, I2CAddress(0x15))
        XCTAssertEqual(
            [ControllerChip.ft6x36, .ft5x06, .gt911, .cst816s].map(\.maxContacts), [2, 5, 5, 1])
        XCTAssertEqual(TouchInputKind.evdev.maxContacts, 10)
    }

    func testControllerKeys() throws {
        let hardware = """
            [controller]
            chip = "gt911"
            bus = "/dev/i2c-3"
            address = 0x14
            interrupt = { chip = "pinctrl-rp1", line = 17 }
            reset = { chip = "/dev/gpiochip4", line = 27 }
            poll_interval_ms = 5
            rotation = 270
            swap_xy = true
            invert_x = true
            invert_y = true

            """
        let c = try XCTUnwrap(TestBoards.load(TestBoards.text(hardware: hardware)).controller)
        XCTAssertEqual(c.chip, .gt911)
        XCTAssertEqual(c.address, I2CAddress(0x14))
        XCTAssertEqual(c.interrupt, GPIOLineDescription(chip: "pinctrl-rp1", line: 17, activeLow: false))
        XCTAssertEqual(c.reset, GPIOLineDescription(chip: "/dev/gpiochip4", line: 27, activeLow: true))
        XCTAssertEqual(c.pollIntervalMilliseconds, 5)
        XCTAssertEqual(c.rotation, .degrees270)
        XCTAssertTrue(c.swapXY && c.invertX && c.invertY)
    }

    func testControllerErrors() {
        let hardware = """
            [controller]
            chip = "ft6236"
            bus = "i2c-1"
            address = 0x80
            interrupt = { chip = "pinctrl-bcm2711", lines = 17 }
            poll_interval_ms = 0
            rotation = 45

            """
        let issues = TestBoards.issues(TestBoards.text(hardware: hardware))
        XCTAssertEqual(
            issues.map(\.keyPath),
            [
                "controller.chip", "controller.bus", "controller.address", "controller.interrupt.line",
                "controller.interrupt.lines", "controller.poll_interval_ms", "controller.rotation",
            ])
        XCTAssertEqual(issues.last?.message, "must be one of 0, 90, 180, 270, got 45")
    }

    func testSimulationRequiredWithSimBusOnly() {
        let sim = TestBoards.hardware.replacingOccurrences(of: "\"/dev/i2c-1\"", with: "\"sim\"")
        XCTAssertEqual(TestBoards.issues(TestBoards.text(hardware: sim)).map(\.keyPath), ["simulation"])

        let extra = TestBoards.text(extra: "[simulation]\nscript = \"demo\"\n")
        XCTAssertEqual(TestBoards.issues(extra).map(\.keyPath), ["simulation"])
    }

    func testSimulationTraceIsResolvedAndMustExist() throws {
        let sim = TestBoards.hardware.replacingOccurrences(of: "\"/dev/i2c-1\"", with: "\"sim\"")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchwire-board-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir + "/traces", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "{\"touchwire_trace\":1}\n".write(toFile: dir + "/traces/t.jsonl", atomically: true, encoding: .utf8)

        let text = TestBoards.text(
            hardware: sim, extra: "[simulation]\nscript = \"../traces/t.jsonl\"\nreport_rate_hz = 60\n")
        let board = try TestBoards.load(text, directory: dir + "/boards")
        XCTAssertEqual(board.simulation?.script, .trace(dir + "/traces/t.jsonl"))
        XCTAssertEqual(board.simulation?.reportRateHz, 60)
        XCTAssertEqual(board.simulation?.loop, false)

        let missing = TestBoards.text(hardware: sim, extra: "[simulation]\nscript = \"gone.jsonl\"\n")
        let issues = TestBoards.issues(missing, directory: dir)
        XCTAssertEqual(issues.map(\.keyPath), ["simulation.script"])
        XCTAssertTrue(issues[0].message.contains("does not exist"), issues[0].message)

        let rate = TestBoards.text(hardware: sim, extra: "[simulation]\nreport_rate_hz = 1001\n")
        XCTAssertEqual(TestBoards.issues(rate).map(\.keyPath), ["simulation.report_rate_hz"])
    }

    func testUARTOutput() throws {
        let extra = """
            [[output]]
            type = "uart"
            device = "/dev/ttyUSB0"
            baud = 921600
            template = "{recognizer}:{x},{y} {{ok}}"

            [[output]]
            type = "uart"
            device = "/dev/ttyAMA0"
            format = "json"
            """
        let outputs = try TestBoards.load(TestBoards.text(extra: extra)).outputs
        XCTAssertEqual(outputs.count, 2)
        guard case .uart(let a) = outputs[0], case .uart(let b) = outputs[1] else { return XCTFail("\(outputs)") }
        XCTAssertEqual(a.device, "/dev/ttyUSB0")
        XCTAssertEqual(a.baud, 921_600)
        XCTAssertEqual(a.format, .text)
        XCTAssertEqual(
            a.template?.segments,
            [.field("recognizer"), .literal(":"), .field("x"), .literal(","), .field("y"), .literal(" {ok}")])
        XCTAssertEqual(b.baud, 115_200)
        XCTAssertEqual(b.format, .json)
        XCTAssertNil(b.template)
    }

    func testOutputErrors() {
        let extra = """
            [[output]]
            type = "stdout"

            [[output]]
            type = "stdout"

            [[output]]
            type = "uart"
            device = "/dev/ttyUSB0"
            baud = 12345
            format = "xml"
            template = "{recognizer} {speed}"

            [[output]]
            type = "uart"
            device = "/dev/ttyUSB0"

            [[output]]
            type = "pigeon"
            """
        let issues = TestBoards.issues(TestBoards.text(extra: extra))
        XCTAssertEqual(
            issues.map(\.keyPath),
            ["output[1]", "output[2].baud", "output[2].format", "output[2].template", "output[4].type"])
        XCTAssertTrue(issues[3].message.hasPrefix("unknown placeholder {speed}"), issues[3].message)

        let dup = TestBoards.issues(
            TestBoards.text(
                extra:
                    "[[output]]\ntype = \"uart\"\ndevice = "
                    + "\"/dev/ttyS0\"\n[[output]]\ntype = \"uart\"\ndevice = \"/dev/ttyS0\"\n"
            ))
        XCTAssertEqual(dup.map(\.keyPath), ["output[1].device"])
    }

    func testTemplateParsing() {
        XCTAssertThrowsError(try TextTemplate(parsing: "{x"))
        XCTAssertThrowsError(try TextTemplate(parsing: "x}"))
        XCTAssertThrowsError(try TextTemplate(parsing: "{}"))
        XCTAssertEqual(try TextTemplate(parsing: "{{}}").segments, [.literal("{}")])
        XCTAssertEqual(
            TextTemplate.default.segments, try TextTemplate(parsing: "{recognizer} {state} {x} {y}").segments)
    }
}
