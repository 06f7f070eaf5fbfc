/// Reads `[[output]]` tables, one case per `OutputType`, and reports duplicates.
enum OutputReader {
    static func read(_ items: [(index: Int, table: [String: TOMLNode])], _ log: inout IssueLog) -> [OutputDescription] {
        var webSocket: WebSocketOutputDescription? = nil
        return read(items, &log, webSocket: &webSocket)
    }

    /// Also returns the `type = "websocket"` output in `webSocket`: not an output of the service
    /// (the bridge `touchwire-web` serves it from a socket output), so only validated here.
    static func read(
        _ items: [(index: Int, table: [String: TOMLNode])], _ log: inout IssueLog,
        webSocket: inout WebSocketOutputDescription?
    ) -> [OutputDescription] {
        var outputs: [OutputDescription] = []
        var webSocketAt: Int? = nil
        var stdoutAt: Int? = nil
        var devices: [String: Int] = [:]
        for (index, table) in items {
            var r = TableReader(table, path: "output[\(index)]")
            guard let name = r.string("type", required: true, &log) else {
                for key in OutputType.allKeys { r.allow(key) }
                r.finish(&log)
                continue
            }
            guard let type = OutputType(boardName: name) else {
                var message =
                    "unknown output type \"\(name)\"; supported: " + OutputType.boardNames.joined(separator: ", ")
                if let s = closestMatch(to: name, in: OutputType.boardNames) { message += " (did you mean \"\(s)\"?)" }
                log.add(r.keyPath("type"), message)
                for key in OutputType.allKeys { r.allow(key) }
                r.finish(&log)
                continue
            }
            switch type {
            case .stdout:
                r.finish(&log, owner: type.outputPhrase)
                if let first = stdoutAt {
                    log.add(r.path, "duplicate stdout output (output[\(first)] is already stdout)")
                } else {
                    stdoutAt = index
                    outputs.append(.stdout)
                }
            case .uart:
                guard let uart = readUART(&r, &log) else { continue }
                if let first = devices[uart.device] {
                    log.add(r.keyPath("device"), "duplicate output: output[\(first)] already writes to \(uart.device)")
                } else {
                    devices[uart.device] = index
                    outputs.append(.uart(uart))
                }
            case .socket:
                guard let socket = SocketOutputReader.read(&r, &log) else { continue }
                if let first = devices[socket.path] {
                    log.add(r.keyPath("path"), "duplicate output: output[\(first)] already writes to \(socket.path)")
                } else {
                    devices[socket.path] = index
                    outputs.append(.socket(socket))
                }
            case .websocket:
                guard let ws = WebSocketOutputReader.read(&r, &log) else { continue }
                if let first = webSocketAt {
                    log.add(
                        r.path,
                        "duplicate websocket output (output[\(first)] is already one; one bridge serves every page)")
                } else {
                    webSocketAt = index
                    webSocket = ws
                }
            }
        }
        if let at = webSocketAt, !outputs.includesEventSocket {
            log.add(
                "output[\(at)].type",
                "a websocket output is served by touchwire-web from the board's event socket: "
                    + "add an [[output]] with type = \"socket\""
            )
            webSocket = nil
        }
        return outputs
    }

    private static func readUART(_ r: inout TableReader, _ log: inout IssueLog) -> UARTDescription? {
        var device = r.string("device", required: true, &log)
        if let d = device, !d.hasPrefix("/") {
            log.add(r.keyPath("device"), "must be a device path such as \"/dev/ttyUSB0\", got \"\(d)\"")
            device = nil
        }
        var baud: Int? = 115_200
        if r.has("baud") {
            baud = r.integer("baud", in: Int.min...Int.max, &log)
            if let b = baud, !UARTDescription.standardBaudRates.contains(b) {
                let list = UARTDescription.standardBaudRates.map(String.init).joined(separator: ", ")
                log.add(r.keyPath("baud"), "\(b) is not a standard rate; use one of \(list)")
                baud = nil
            }
        } else {
            r.allow("baud")
        }
        var format: UARTFormat? = .text
        if let f = r.string("format", &log) {
            format = UARTFormat(rawValue: f)
            if format == nil {
                log.add(r.keyPath("format"), "unknown format \"\(f)\"; supported: text, json, binary")
            }
        } else if r.has("format") {
            format = nil
        }
        var template: TextTemplate? = nil
        var templateOK = true
        if let t = r.string("template", &log) {
            if format == .json || format == .binary {
                log.add(r.keyPath("template"), "a template applies only to format = \"text\"")
                templateOK = false
            } else {
                do throws(TextTemplate.ParseError) {
                    template = try TextTemplate(parsing: t)
                } catch {
                    log.add(r.keyPath("template"), error.description)
                    templateOK = false
                }
            }
        } else if r.has("template") {
            templateOK = false
        }
        var framingOK = true
        let dataBits = r.integer("data_bits", in: 5...8, &log) ?? 8
        if r.has("data_bits") && dataBits != 8 && format != nil {
            // Every format writes 8-bit bytes (UTF-8 text, binary frames); fewer bits would mangle them.
            log.add(r.keyPath("data_bits"), "format \"\(format!.rawValue)\" needs 8 data bits, got \(dataBits)")
            framingOK = false
        }
        var parity = UARTParity.none
        if let p = r.string("parity", &log) {
            if let parsed = UARTParity(rawValue: p) {
                parity = parsed
            } else {
                log.add(r.keyPath("parity"), "unknown parity \"\(p)\"; one of none, even, odd")
                framingOK = false
            }
        } else if r.has("parity") {
            framingOK = false
        }
        var stopBits = 1
        if r.has("stop_bits") {
            if let s = r.integer("stop_bits", in: 1...2, &log) { stopBits = s } else { framingOK = false }
        }
        let rtsCts = r.bool("rts_cts", &log) ?? false
        if r.has("rts_cts") && r.value("rts_cts").map({ if case .bool = $0 { false } else { true } }) == true {
            framingOK = false
        }
        r.finish(&log, owner: OutputType.uart.outputPhrase)
        guard let device, let baud, let format, templateOK, framingOK else { return nil }
        return UARTDescription(
            device: device, baud: baud, format: format, template: template, dataBits: dataBits, parity: parity,
            stopBits: stopBits, rtsCts: rtsCts)
    }
}
