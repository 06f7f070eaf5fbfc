/// The status snapshot in the Prometheus text exposition format (version 0.0.4), as
/// node_exporter's textfile collector reads it (`[metrics] prometheus_file`) and
/// `touchwire status --prometheus` prints it.
///
/// Every sample carries the label `board="<name>"`. Latencies are summaries in seconds with
/// the quantiles 0.5, 0.9, 0.99, 0.999 (and `_sum`, `_count`); counters end in `_total`.
/// The controller's state is one gauge per state (`state="running"` is 1 while it answers).
/// Label values are escaped (`\\`, `\"`, `\n`); numbers never use a locale.
package enum PrometheusFormat {
    package static func render(_ s: MetricsSnapshot) -> String {
        var out = ""
        let board = "board=\"\(escape(s.board))\""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            out += "# HELP touchwire_\(name) \(help)\n# TYPE touchwire_\(name) \(type)\n"
            for (suffixAndLabels, value) in samples {
                out += "touchwire_\(name)\(suffixAndLabels) \(value)\n"
            }
        }
        func plain(_ value: String) -> [(String, String)] { [("{\(board)}", value)] }

        metric(
            "info", "gauge", "The running service: board, controller and pid (value always 1).",
            [("{\(board),controller=\"\(escape(s.controller))\",pid=\"\(s.pid)\"}", "1")])
        metric("uptime_seconds", "gauge", "Seconds since the service started.", plain(number(s.uptime)))
        metric("frames_read_total", "counter", "Controller reads.", plain("\(s.framesRead)"))
        metric(
            "frames_per_second", "gauge", "Controller reads per second (last interval).",
            plain(number(s.framesPerSecond)))
        metric("frames_queued_total", "counter", "Frames handed to the recognizer.", plain("\(s.framesQueued)"))
        metric("read_errors_total", "counter", "Failed controller reads.", plain("\(s.readErrors)"))
        metric(
            "frames_dropped_total", "counter", "Frames replaced in the full frame ring.",
            plain("\(s.frameRing.dropped)"))
        metric(
            "frame_ring_overflows_total", "counter", "Times the frame ring filled.", plain("\(s.frameRing.other)"))
        metric(
            "events_dropped_total", "counter", "Events lost in the full event ring.", plain("\(s.eventRing.dropped)"))
        metric(
            "events_coalesced_total", "counter", "Continuous `changed` events merged in the event ring.",
            plain("\(s.eventRing.other)"))
        metric("events_written_total", "counter", "Events written to the outputs.", plain("\(s.eventsWritten)"))
        metric(
            "ring_high_water", "gauge", "Highest fill of each ring.",
            [
                ("{\(board),ring=\"frame\"}", "\(s.frameRing.highWater)"),
                ("{\(board),ring=\"event\"}", "\(s.eventRing.highWater)"),
            ])
        metric(
            "ring_capacity", "gauge", "Capacity of each ring.",
            [
                ("{\(board),ring=\"frame\"}", "\(s.frameRing.capacity)"),
                ("{\(board),ring=\"event\"}", "\(s.eventRing.capacity)"),
            ])
        latency(&out, "read_to_recognized_seconds", "Controller read to recognized gesture.", s.readToRecognized, board)
        latency(&out, "read_to_write_seconds", "Controller read to event written.", s.readToWrite, board)
        metric(
            "latency_samples_lost_total", "counter", "Latency samples dropped because the metrics thread lagged.",
            plain("\(s.lostSamples)"))
        if let current = s.controllerState {  // absent in status files of older versions
            metric(
                "controller_state", "gauge", "1 for the controller's current state (starting, running, missing).",
                ControllerStateCode.allCases.map {
                    ("{\(board),state=\"\($0.name)\"}", $0.name == current ? "1" : "0")
                })
        }
        metric(
            "controller_reinitialisations_total", "counter", "Driver re-initialisations after read errors.",
            plain("\(s.reinitialisations ?? 0)"))
        metric("reloads_total", "counter", "Boards swapped in by SIGHUP.", plain("\(s.reloads ?? 0)"))
        if let display = s.display {  // only with [display]
            metric(
                "display_state", "gauge", "1 for the display's current state (on, dimmed, off).",
                ["on", "dimmed", "off"].map { ("{\(board),state=\"\($0)\"}", $0 == display ? "1" : "0") })
            metric(
                "display_offs_total", "counter", "Times the display went off (idle or command).",
                plain("\(s.displayOffs ?? 0)"))
            metric(
                "display_touch_wakes_total", "counter", "Times a touch woke the display.",
                plain("\(s.displayTouchWakes ?? 0)"))
            metric(
                "display_swallowed_touches_total", "counter",
                "Touches kept from the recognizers, the UI and the bindings (wake touches and the wake guard).",
                plain("\(s.displaySwallowedTouches ?? 0)"))
        }
        metric(
            "warnings", "gauge", "Start-up warnings (real-time settings not applied).", plain("\(s.warnings.count)"))
        metric("process_cpu_seconds_total", "counter", "CPU time of the process.", plain(number(s.processCPUSeconds)))
        metric("resident_bytes", "gauge", "Resident set size.", plain("\(s.residentBytes)"))
        return out
    }

    private static func latency(
        _ out: inout String, _ name: String, _ help: String, _ l: LatencySummary, _ board: String
    ) {
        out += "# HELP touchwire_\(name) \(help)\n# TYPE touchwire_\(name) summary\n"
        for (q, v) in [("0.5", l.p50), ("0.9", l.p90), ("0.99", l.p99), ("0.999", l.p999)] {
            out += "touchwire_\(name){\(board),quantile=\"\(q)\"} \(seconds(v))\n"
        }
        out += "touchwire_\(name)_sum{\(board)} \(number(l.mean * Double(l.count) / 1_000_000))\n"
        out += "touchwire_\(name)_count{\(board)} \(l.count)\n"
    }

    /// Microseconds as seconds, exactly ("0.000123").
    static func seconds(_ microseconds: UInt64) -> String {
        let whole = microseconds / 1_000_000
        let frac = String(microseconds % 1_000_000)
        return "\(whole)." + String(repeating: "0", count: 6 - frac.count) + frac
    }

    /// A finite number with up to 6 decimals; NaN and infinities as Prometheus spells them.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        return fmt(v, 6)
    }

    /// A label value: backslash, double quote and newline escaped, every other control character
    /// (CR, ESC, …, which the format cannot escape) replaced by U+FFFD. By Unicode scalar: as
    /// Characters, "\r\n" is one and matched neither "\n" nor anything else, so a board named with
    /// CR LF wrote a raw line break into the file.
    static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
