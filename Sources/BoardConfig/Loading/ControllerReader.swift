import TouchCore

/// Reads `[controller]`: chip, bus, address, INT/reset lines, polling and orientation.
enum ControllerReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> ControllerDescription? {
        var r = TableReader(table, path: "controller")
        var chip: TouchInputKind? = nil
        if let name = r.string("chip", required: true, &log) {
            chip = TouchInputKind(boardName: name)
            if chip == nil {
                let names = TouchInputKind.allCases.map(\.boardName)
                var message = "unknown chip \"\(name)\"; supported: " + names.joined(separator: ", ")
                if let s = closestMatch(to: name.lowercased(), in: names) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("chip"), message)
            }
        }
        var bus: ControllerBus? = nil
        var grab = false
        if chip == .evdev {
            bus = EvdevKeys.read(&r, &log)
            grab = r.bool("grab", &log) ?? false
        } else if let b = r.string("bus", required: true, &log) {
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
        let calibration = readCalibration(&r, &log)
        // evdev: the kernel reports lifts itself and a still finger sends nothing, so no watchdog by default.
        let releaseTimeout = r.integer("release_timeout_ms", in: 0...60_000, &log) ?? (chip == .evdev ? 0 : 10_000)
        if releaseTimeout > 0 && releaseTimeout < 100 {
            log.add(r.keyPath("release_timeout_ms"), "must be 0 (off) or at least 100, got \(releaseTimeout)")
        }
        let minContact = r.integer("min_contact_ms", in: 0...500, &log) ?? 0
        let reportRate = r.integer("report_rate", in: 1...255, &log)
        if reportRate != nil, let chip, chip.chip?.hasReportRate != true {
            log.add(r.keyPath("report_rate"), "only FocalTech chips (ft6x36, ft5x06) have a report-rate register")
        }
        r.finish(&log, owner: "[controller]")
        guard let chip, let bus else { return nil }
        var description = ControllerDescription(
            input: chip, bus: bus, address: address.map { I2CAddress(UInt16($0)) }, interrupt: interrupt, reset: reset,
            pollIntervalMilliseconds: poll, rotation: rotation, swapXY: swapXY, invertX: invertX, invertY: invertY,
            calibration: calibration, releaseTimeoutMilliseconds: releaseTimeout, minContactMilliseconds: minContact,
            reportRate: reportRate)
        description.grab = grab
        return description
    }

    /// `calibration = [a0, a1, a2, a3, a4, a5, a6]`: tslib's pointercal numbers, a6 ≠ 0.
    private static func readCalibration(_ r: inout TableReader, _ log: inout IssueLog) -> [Double]? {
        guard let node = r.value("calibration") else { return nil }
        let usage = "expected 7 numbers as in tslib's pointercal [a0, a1, a2, a3, a4, a5, a6]"
        guard case .array(let items) = node, items.count == 7 else {
            log.add(r.keyPath("calibration"), "\(usage), got \(node.shortDescription)")
            return nil
        }
        var numbers: [Double] = []
        for item in items {
            switch item {
            case .integer(let v): numbers.append(Double(v))
            case .double(let v) where v.isFinite: numbers.append(v)
            default:
                log.add(r.keyPath("calibration"), "\(usage), got \(item.shortDescription)")
                return nil
            }
        }
        guard numbers[6] != 0 else {
            log.add(r.keyPath("calibration"), "a6 (the divisor, last number) must not be 0")
            return nil
        }
        return numbers
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
