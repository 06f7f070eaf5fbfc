import BoardConfig
import XCTest

/// `[[binding]]` and the uart framing keys.
final class BindingKeyTests: XCTestCase {
    let recognizers =
        TestBoards.tap + """
            [[recognizer]]
            name = "pan"
            kind = "pan"
            region = "screen"

            """
    let button =
        TestBoards.regions + """
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

    /// One bad `[[binding]]` and the issues it must raise, by key path, with words their messages say.
    private struct BindingErrorCase {
        var name: String
        var binding: String
        var keyPaths: [String]
        var messages: [String] = []
    }

    private static let bindingErrorCases: [BindingErrorCase] = [
        BindingErrorCase(
            name: "an unknown recognizer",
            binding: """
                recognizer = "tpa"
                action = "pulse"
                gpio = { chip = "sim", line = 1 }
                """,
            keyPaths: ["binding[0] \"tpa\".recognizer"], messages: ["bindable: pan, tap"]),
        BindingErrorCase(
            name: "a zero pulse, a state the recognizer never reports, a line beyond the chip",
            binding: """
                recognizer = "tap"
                state = "began"
                action = "pulse"
                pulse_ms = 0
                gpio = { chip = "sim", line = 2000 }
                """,
            keyPaths: ["binding[0] \"tap\".pulse_ms", "binding[0] \"tap\".state", "binding[0] \"tap\".gpio.line"],
            messages: ["between 1 and 60000", "never reports began"]),
        BindingErrorCase(
            name: "hold on a discrete recognizer",
            binding: """
                recognizer = "tap"
                action = "hold"
                gpio = { chip = "sim", line = 2 }
                """,
            keyPaths: ["binding[0] \"tap\".action"], messages: ["hold needs a continuous recognizer"]),
        BindingErrorCase(
            name: "pulse_ms on a toggle, driving the controller's INT line",
            binding: """
                recognizer = "pan"
                action = "toggle"
                pulse_ms = 10
                gpio = { chip = "pinctrl-bcm2711", line = 4 }
                """,
            keyPaths: ["binding[0] \"pan\".pulse_ms", "binding[0] \"pan\".gpio"],
            messages: ["controller's interrupt line"]),
        BindingErrorCase(
            name: "an unknown action and no line",
            binding: """
                recognizer = "pan"
                action = "blink"
                """,
            keyPaths: ["binding[0] \"pan\".action", "binding[0] \"pan\".gpio"]),
        BindingErrorCase(
            name: "a state that is not a gesture state",
            binding: """
                recognizer = "pan"
                state = "moved"
                action = "pulse"
                gpio = { chip = "sim", line = 9, active_low = true }
                """,
            keyPaths: ["binding[0] \"pan\".state"]),
    ]

    func testBindingErrorsNameFileAndKeyPath() {
        let hardware = TestBoards.hardware + "interrupt = { chip = \"pinctrl-bcm2711\", line = 4 }\n"
        func issues(_ bindings: [String]) -> [BoardIssue] {
            let extra = bindings.map { "[[binding]]\n" + $0 + "\n" }.joined(separator: "\n")
            return TestBoards.issues(TestBoards.text(hardware: hardware, recognizers: recognizers, extra: extra))
        }
        for c in Self.bindingErrorCases {
            let found = issues([c.binding])
            XCTAssertEqual(found.map(\.keyPath), c.keyPaths, c.name)
            XCTAssertTrue(found.allSatisfy { $0.file == "boards/x.toml" }, c.name)
            for words in c.messages {
                XCTAssertTrue(found.contains { $0.message.contains(words) }, "\(c.name): no \"\(words)\" in \(found)")
            }
        }
        // All in one file: every binding's issues are reported in the one pass.
        let all = issues(Self.bindingErrorCases.map(\.binding))
        XCTAssertEqual(all.count, Self.bindingErrorCases.reduce(0) { $0 + $1.keyPaths.count })
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
            [
                "output[0].template", "output[0].data_bits", "output[0].parity", "output[0].stop_bits",
                "output[0].rts_cts",
            ])
    }
}
