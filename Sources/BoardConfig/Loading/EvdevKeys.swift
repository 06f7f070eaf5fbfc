/// The `[controller]` keys of `chip = "evdev"`: `device = "/dev/input/…"` or `name = "…"`
/// (exactly one), or `bus = "sim"` for the evdev-shaped simulated touchscreen.
enum EvdevKeys {
    static func read(_ r: inout TableReader, _ log: inout IssueLog) -> ControllerBus? {
        let device = r.string("device", &log)
        let name = r.string("name", &log)
        let bus = r.string("bus", &log)
        switch (device, name, bus) {
        case (nil, nil, "sim"?): return .simulated
        case (_, _, let b?):
            log.add(
                r.keyPath("bus"),
                "chip = \"evdev\" takes device = \"/dev/input/…\" or name = \"…\"; "
                    + "bus may only be \"sim\", got \"\(b)\"")
            return nil
        case (let d?, nil, nil):
            guard d.hasPrefix("/") else {
                log.add(
                    r.keyPath("device"),
                    "must be an absolute path such as \"/dev/input/event0\" or "
                        + "\"/dev/input/by-path/…\", got \"\(d)\"")
                return nil
            }
            return .input(.path(d))
        case (nil, let n?, nil):
            guard !n.isEmpty else {
                log.add(r.keyPath("name"), "must not be empty")
                return nil
            }
            return .input(.name(n))
        case (_?, _?, nil):
            log.add(r.keyPath("device"), "give device or name, not both")
            return nil
        case (nil, nil, nil):
            log.add(
                r.keyPath("device"),
                "missing: chip = \"evdev\" needs device = \"/dev/input/…\" or name = \"…\" "
                    + "(touchwire probe lists the touchscreens)")
            return nil
        }
    }

    /// `[passthrough]` on a real evdev input needs `grab = true`: a passive reader leaves the kernel's
    /// device to the UI, which would then get every touch twice (from the panel and from the
    /// virtual touchscreen). A simulated evdev board has no UI reading it, so it is allowed.
    static func checkPassthrough(_ controller: ControllerDescription?, _ log: inout IssueLog) {
        guard let controller, controller.input == .evdev, case .input = controller.bus, !controller.grab else { return }
        log.add(
            "passthrough",
            "[passthrough] on an evdev input needs controller.grab = true: without it the UI reads the device "
                + "too and receives every touch twice")
    }
}
