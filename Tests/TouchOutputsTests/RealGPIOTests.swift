import Foundation
import Gestures
import TouchCore
import TouchLinux
import TouchOutputs
import XCTest

/// GPIO bindings on the real libgpiod backend. Driving an arbitrary line of a real board could
/// move real hardware, so this runs only on a kernel test chip (gpio-sim, gpio-mockup) or on the
/// line named by TOUCHWIRE_TEST_GPIO="chip:offset"; elsewhere it skips and says why.
final class RealGPIOTests: XCTestCase {
    func testPulseAndReleaseOnAKernelGPIOChip() throws {
        let chips = LinuxGPIO.availableChips()
        let id: GPIOLineID
        if let spec = ProcessInfo.processInfo.environment["TOUCHWIRE_TEST_GPIO"],
            let colon = spec.lastIndex(of: ":"), let offset = Int(spec[spec.index(after: colon)...])
        {
            id = GPIOLineID(chip: String(spec[..<colon]), offset: offset)
        } else if let test = chips.first(where: { $0.contains("gpio-sim") || $0.contains("gpio-mockup") }) {
            id = GPIOLineID(chip: String(test.prefix { $0 != " " }), offset: 0)
        } else {
            throw XCTSkip(
                chips.isEmpty
                    ? "this kernel offers no GPIO chip (modprobe gpio-sim or gpio-mockup to run this test)"
                    : "no kernel test chip among \(chips); set TOUCHWIRE_TEST_GPIO=chip:offset to use a safe line")
        }
        let gpio = LinuxGPIO()
        let actuator = try GPIOActuator(
            lines: [GPIOLineSetup(id: id, activeLow: false, initialActive: false)],
            bindings: [
                GPIOBinding(source: .recognizer(1), trigger: .recognized, action: .pulse(microseconds: 50_000), line: 0)
            ],
            provider: { _ in gpio }, log: { _ in })
        // Requested once, with consumer "touchwire": a second request is refused and names us.
        XCTAssertThrowsError(try gpio.requestOutput(id, activeLow: false, active: false)) { error in
            XCTAssertEqual(error as? GPIOError, .busy(id, consumer: "touchwire"))
        }
        actuator.handle(doubleTapEvent(), at: Instant(microseconds: 0))
        XCTAssertTrue(actuator.lines[0].isActive)
        actuator.advance(to: Instant(microseconds: 50_000))
        XCTAssertFalse(actuator.lines[0].isActive)
        actuator.handle(doubleTapEvent(), at: Instant(microseconds: 60_000))
        actuator.releaseAll()
        // Released: the line can be taken again, and reads inactive.
        let input = try gpio.requestInput(id, activeLow: false, edges: nil)
        XCTAssertFalse(try input.isActive())
    }
}
