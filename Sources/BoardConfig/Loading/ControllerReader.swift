import TouchCore

/// Reads `[controller]`: chip, bus, address, INT/reset lines, polling and orientation.
enum ControllerReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> ControllerDescription? {
        var r = TableReader(table, path: "controller")
        var chip: ControllerChip? = nil
        if let name = r.string("chip", required: true, &log) {
            chip = ControllerChip(rawValue: name)
            if chip == nil {
                let names = ControllerChip.allCases.map(\.rawValue)
                var message = "unknown chip \"\(name)\"; supported: " + names.joined(separator: ", ")
                if let s = closestMatch(to: name.lowercased(), in: names) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("chip"), message)
            }
        }
        var bus: ControllerBus? = nil
        if let b = r.string("bus", required: true, &log) {
            if b == "sim" {
                bus = .simulated
            } else if b.hasPrefix("/") {
                bus = .device(b)
            } else {
                log.add(r.keyPath("bus"), "must be \"sim\" or an I2C device path such as \"/dev/i2c-1\", got \"\(b)\"")
            }
        }
        let address = r.integer("address", in: 0x08...0x77, &log)
        let interrupt = r.table("interrupt", &log).flatMap {
            readLine($0, path: r.keyPath("interrupt"), defaultActiveLow: false, &log)
        }
        let reset = r.table("reset", &log).flatMap {
            readLine($0, path: r.keyPath("reset"), defaultActiveLow: true, &log)
        }
        let poll = r.integer("poll_interval_ms", in: 1...100, &log) ?? 10
        var rotation = PanelRotation.degrees0
        if r.has("rotation") {
            if let degrees = r.integer("rotation", in: Int.min...Int.max, &log) {
                if let rot = PanelRotation(rawValue: degrees) {
                    rotation = rot
                } else {
                    log.add(r.keyPath("rotation"), "must be one of 0, 90, 180, 270, got \(degrees)")
                }
            }
        } else {
            r.allow("rotation")
        }
        let swapXY = r.bool("swap_xy", &log) ?? false
        let invertX = r.bool("invert_x", &log) ?? false
        let invertY = r.bool("invert_y", &log) ?? false
        r.finish(&log, owner: "[controller]")
        guard let chip, let bus else { return nil }
        return ControllerDescription(
            chip: chip, bus: bus, address: address.map { I2CAddress(UInt16($0)) }, interrupt: interrupt, reset: reset,
            pollIntervalMilliseconds: poll, rotation: rotation, swapXY: swapXY, invertX: invertX, invertY: invertY)
    }

    /// `{ chip = "pinctrl-bcm2711", line = 17, active_low = true }`.
    private static func readLine(
        _ table: [String: TOMLNode], path: String, defaultActiveLow: Bool, _ log: inout IssueLog
    ) -> GPIOLineDescription? {
        var r = TableReader(table, path: path)
        let chip = r.string("chip", required: true, &log)
        let line = r.integer("line", in: 0...1023, required: true, &log)
        let activeLow = r.bool("active_low", &log) ?? defaultActiveLow
        r.finish(&log, owner: "a GPIO line")
        guard let chip, let line else { return nil }
        return GPIOLineDescription(chip: chip, line: line, activeLow: activeLow)
    }
}
