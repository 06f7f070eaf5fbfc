import BoardConfig
import XCTest

/// `[[binding]]` and the uart framing keys.
final class BindingKeyTests: XCTestCase {
    let recognizers = TestBoards.tap + """
        [[recognizer]]
        name = "pan"
        kind = "pan"
        region = "screen"

        """
    let button = TestBoards.regions + """
        [[region]]
        name = "button"
        parent = "screen"
        frame = [0, 0, 100, 50]
        control = true

        """

    func testBindingsWithDefaults() throws {
        let extra = """
            [[binding]]
            recognizer = "tap"
            action = "pulse"
            gpio = { chip = "pinctrl-bcm2711", line = 17 }

            [[binding]]
            recognizer = "pan"
            action = "hold"
            gpio = { chip = "/dev/gpiochip0", line = 5, active_low = true }
            initial = false

            [[binding]]
            recognizer = "button"
            action = "toggle"
            gpio = { chip = "sim", line = 3 }
            initial = true

            [[binding]]
            recognizer = "pan"
            state = "ended"
            action = "pulse"
            pulse_ms = 250
            gpio = { chip = "pinctrl-bcm2711", line = 18 }
            """
        let b = try TestBoards.load(TestBoards.text(regions: button, recognizers: recognizers, extra: extra)).bindings
        XCTAssertEqual(
            b,
            [
                BindingDescription(
                    recognizer: "tap", state: .recognized, action: .pulse(milliseconds: 100),
                    line: GPIOLineDescription(chip: "pinctrl-bcm2711", line: 17)),
                BindingDescription(
                    recognizer: "pan", state: nil, action: .hold,
                    line: GPIOLineDescription(chip: "/dev/gpiochip0", line: 5, activeLow: true)),
                BindingDescription(
                    recognizer: "button", state: .recognized, action: .toggle,
                    line: GPIOLineDescription(chip: "sim", line: 3), initialActive: true),
                BindingDescription(
                    recognizer: "pan", state: .ended, action: .pulse(milliseconds: 250),
                    line: GPIOLineDescription(chip: "pinctrl-bcm2711", line: 18)),
            ])
        XCTAssertEqual(try TestBoards.load(TestBoards.text()).bindings, [])
    }

    func testBindingErrorsNameFileAndKeyPath() {
        let hardware = TestBoards.hardware + "interrupt = { chip = \"pinctrl-bcm2711\", line = 4 }\n"
        let extra = """
            [[binding]]
            recognizer = "tpa"
            action = "pulse"
            gpio = { chip = "sim", line = 1 }

            [[binding]]
            recognizer = "tap"
            state = "began"
            action = "pulse"
            pulse_ms = 0
            gpio = { chip = "sim", line = 2000 }

            [[binding]]
            recognizer = "tap"
            action = "hold"
            gpio = { chip = "sim", line = 2 }

            [[binding]]
            recognizer = "pan"
            action = "toggle"
            pulse_ms = 10
            gpio = { chip = "pinctrl-bcm2711", line = 4 }

            [[binding]]
            recognizer = "pan"
            action = "blink"

            [[binding]]
            recognizer = "pan"
            state = "moved"
            action = "pulse"
            gpio = { chip = "sim", line = 9, active_low = true }
            """
        let issues = TestBoards.issues(TestBoards.text(hardware: hardware, recognizers: recognizers, extra: extra))
        XCTAssertEqual(
            issues.map(\.keyPath),
            [
                "binding[0] \"tpa\".recognizer",
                "binding[1] \"tap\".pulse_ms",
                "binding[1] \"tap\".state",
                "binding[1] \"tap\".gpio.line",
                "binding[2] \"tap\".action",
                "binding[3] \"pan\".pulse_ms",
                "binding[3] \"pan\".gpio",
                "binding[4] \"pan\".action",
                "binding[4] \"pan\".gpio",
                "binding[5] \"pan\".state",
            ])
        XCTAssertTrue(issues.allSatisfy { $0.file == "boards/x.toml" })
        XCTAssertTrue(issues[0].message.contains("bindable: pan, tap"), issues[0].message)
        XCTAssertTrue(issues[1].message.contains("between 1 and 60000"), issues[1].message)
        XCTAssertTrue(issues[2].message.contains("never reports began"), issues[2].message)
        XCTAssertTrue(issues[4].message.contains("hold needs a continuous recognizer"), issues[4].message)
        XCTAssertTrue(issues[6].message.contains("controller's interrupt line"), issues[6].message)
    }

    /// README: lines used twice are errors — even when both bindings agree on polarity.
    func testALineDrivenByTwoBindingsIsAnError() {
        for polarity in ["", ", active_low = true"] {
            let extra = """
                [[binding]]
                recognizer = "tap"
                action = "pulse"
                gpio = { chip = "sim", line = 1 }

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 1\(polarity) }

                [[binding]]
                recognizer = "pan"
                action = "hold"
                gpio = { chip = "sim", line = 2 }
                """
            let issues = TestBoards.issues(TestBoards.text(recognizers: recognizers, extra: extra))
            XCTAssertEqual(issues.map(\.keyPath), ["binding[1] \"pan\".gpio"])
            XCTAssertTrue(issues.first?.message.contains("already driven by binding[0]") ?? false, "\(issues)")
        }
    }

    func testUARTFramingKeys() throws {
        let extra = """
            [[output]]
            type = "uart"
            device = "/dev/ttyAMA0"
            baud = 921600
            format = "binary"
            parity = "even"
            stop_bits = 2
            rts_cts = true
            """
        guard case .uart(let u)? = try TestBoards.load(TestBoards.text(extra: extra)).outputs.first else {
            return XCTFail("no uart")
        }
        XCTAssertEqual(
            u,
            UARTDescription(
                device: "/dev/ttyAMA0", baud: 921_600, format: .binary, dataBits: 8, parity: .even, stopBits: 2,
                rtsCts: true))
        let bad = """
            [[output]]
            type = "uart"
            device = "/dev/ttyAMA0"
            data_bits = 7
            parity = "mark"
            stop_bits = 3
            rts_cts = "yes"
            format = "binary"
            template = "{x}"
            """
        XCTAssertEqual(
            TestBoards.issues(TestBoards.text(extra: bad)).map(\.keyPath),
            ["output[0].template", "output[0].data_bits", "output[0].parity", "output[0].stop_bits", "output[0].rts_cts"])
    }
}
