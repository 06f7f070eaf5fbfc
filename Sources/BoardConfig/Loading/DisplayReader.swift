/// Reads `[display]`: `idle_off_s`, `idle_dim_s`, `dim_brightness`, `wake_guard_ms`, and either
/// `backlight` or `on_command` + `off_command`; `gpio`; `session` (the commands run by
/// `touchwire agent` in the user's session; needs the commands, and a socket output, which
/// `BoardLoader` checks).
enum DisplayReader {
    static func read(_ table: [String: TOMLNode], _ log: inout IssueLog) -> DisplayDescription? {
        var r = TableReader(table, path: "display")
        var ok = true
        let idleOff = r.integer("idle_off_s", in: 0...86_400, required: true, &log)
        let idleDim = r.integer("idle_dim_s", in: 1...86_400, &log)
        let dim = r.integer("dim_brightness", in: 1...100, &log)
        let guardMilliseconds = r.integer("wake_guard_ms", in: 0...10_000, &log) ?? 300
        let backlight = r.string("backlight", &log)
        let on = readCommand(&r, "on_command", &log)
        let off = readCommand(&r, "off_command", &log)
        let session = r.bool("session", &log) ?? false
        if r.has("session") && !r.has("on_command") && !r.has("off_command") && session {
            // One error naming the key, instead of the generic "needs backlight or commands".
            log.add(
                r.keyPath("session"),
                "session = true runs on_command and off_command in the user's session (touchwire agent): "
                    + "give both (e.g. off_command = [\"/usr/bin/wlopm\", \"--off\", \"*\"]), not backlight")
            ok = false
        }
        var gpio: GPIOLineDescription? = nil
        if let t = r.table("gpio", &log) { gpio = readLine(t, path: r.keyPath("gpio"), &log) }
        r.finish(&log, owner: "[display]")
        if r.has("idle_off_s") && idleOff == nil || r.has("idle_dim_s") && idleDim == nil
            || r.has("dim_brightness") && dim == nil
        {
            ok = false
        }

        var switching: DisplayDescription.Switch? = nil
        let hasCommands = r.has("on_command") || r.has("off_command")
        if let backlight {
            if backlight.contains(Character("/")) || backlight == "." || backlight == ".." {
                log.add(
                    r.keyPath("backlight"),
                    "must be a device name in /sys/class/backlight (e.g. \"10-0045\", \"rpi_backlight\"), "
                        + "not a path, got \"\(backlight)\"")
                ok = false
            } else if hasCommands {
                log.add(r.keyPath("backlight"), "give backlight or on_command/off_command, not both")
                ok = false
            } else {
                switching = .backlight(name: backlight)
            }
        } else if hasCommands {
            if !r.has("on_command") || !r.has("off_command") {
                let absent = r.has("on_command") ? "off_command" : "on_command"
                log.add(
                    r.keyPath(absent),
                    "missing: on_command and off_command go together (e.g. off_command = [\"/usr/bin/wlopm\", "
                        + "\"--off\", \"*\"])")
                ok = false
            } else if let on, let off {
                switching = .commands(on: on, off: off)
            } else {
                ok = false
            }
        } else if !r.has("backlight") {
            if !ok && session { return nil }
            log.add(
                r.keyPath("backlight"),
                "missing: [display] needs backlight = \"NAME\" (/sys/class/backlight/NAME) or on_command and "
                    + "off_command")
            ok = false
        } else {
            ok = false
        }

        if let idleDim {
            if dim == nil && r.has("dim_brightness") == false {
                log.add(r.keyPath("dim_brightness"), "missing: idle_dim_s needs dim_brightness (1…100, percent)")
                ok = false
            }
            if let idleOff, idleOff > 0, idleDim >= idleOff {
                log.add(
                    r.keyPath("idle_dim_s"),
                    "must be less than idle_off_s (\(idleOff)): the screen dims before it goes off, got \(idleDim)")
                ok = false
            }
            if case .commands? = switching {
                log.add(
                    r.keyPath("idle_dim_s"),
                    "dimming needs backlight = \"NAME\" (a brightness to set); on_command/off_command only switch")
                ok = false
            }
        } else if r.has("dim_brightness") && dim != nil {
            log.add(r.keyPath("dim_brightness"), "has no effect without idle_dim_s; add idle_dim_s or remove it")
            ok = false
        }
        guard ok, let idleOff, let switching else { return nil }
        return DisplayDescription(
            idleOffSeconds: idleOff, idleDimSeconds: idleDim, dimBrightnessPercent: dim,
            wakeGuardMilliseconds: guardMilliseconds, switching: switching, gpio: gpio, runsInSession: session)
    }

    /// `on_command = ["/usr/bin/wlopm", "--on", "*"]`: an absolute program, no shell.
    private static func readCommand(_ r: inout TableReader, _ key: String, _ log: inout IssueLog) -> ExecCommand? {
        guard let argv = r.stringArray(key, &log) else { return nil }
        guard let program = argv.first, program.hasPrefix("/") else {
            log.add(
                r.keyPath(key),
                "the program must be an absolute path (no shell, no PATH search), got \"\(argv.first ?? "")\"")
            return nil
        }
        _ = program
        return ExecCommand(argv: argv, timeoutMilliseconds: 10_000, minimumIntervalMilliseconds: 0)
    }

    /// `{ chip = "pinctrl-bcm2711", line = 18, active_low = false }`.
    private static func readLine(_ table: [String: TOMLNode], path: String, _ log: inout IssueLog)
        -> GPIOLineDescription?
    {
        var r = TableReader(table, path: path)
        let chip = r.string("chip", required: true, &log)
        let line = r.integer("line", in: 0...1023, required: true, &log)
        let activeLow = r.bool("active_low", &log) ?? false
        r.finish(&log, owner: "a GPIO line")
        guard let chip, let line else { return nil }
        return GPIOLineDescription(chip: chip, line: line, activeLow: activeLow)
    }
}
