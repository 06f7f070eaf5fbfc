import Foundation
import TouchOutputs
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

// Fixtures shared by several test targets (they were copied or reached across files before).

/// Collects lines written by the output stage.
package final class CollectingSink: LineSink, @unchecked Sendable {
    // Guarded by `lock`: written by the output thread, read by the test thread.
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    package init() {}
    package func write(_ line: UnsafeRawBufferPointer) {
        lock.lock()
        bytes.append(contentsOf: line)
        lock.unlock()
    }
    package var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: bytes, as: UTF8.self)
    }
    package var lines: [String] { text.split(separator: "\n").map(String.init) }
}

/// Board texts shared by the evdev tests.
package enum TestBoardText {
    package static func evdev(device: String?, name: String? = nil) -> String {
        var controller = "[controller]\nchip = \"evdev\"\n"
        if let device { controller += "device = \"\(device)\"\n" }
        if let name { controller += "name = \"\(name)\"\n" }
        return "[panel]\nwidth = 800\nheight = 480\n\n" + controller
            + "\n[[region]]\nname = \"screen\"\nframe = [0, 0, 800, 480]\n\n"
            + "[[recognizer]]\nname = \"tap\"\nkind = \"tap\"\nregion = \"screen\"\n"
    }
}

/// A bound AF_UNIX datagram socket standing in for systemd's notification socket.
package final class NotifyListener {
    package let fd: CInt
    /// `$NOTIFY_SOCKET` for this listener ("/path" or "@abstract").
    package let address: String

    package init(path: String? = nil, abstract: String? = nil) throws {
        fd = socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        var bytes: [UInt8]
        if let abstract {
            bytes = [0] + Array(abstract.utf8)
            address = "@" + abstract
        } else {
            bytes = Array((path ?? "").utf8)
            address = path ?? ""
        }
        withUnsafeMutableBytes(of: &sa.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(2 + bytes.count + (abstract == nil ? 1 : 0))
        let rc = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(fd) }

    /// The next datagram, or nil after `seconds` without one.
    package func receive(seconds: Double) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }

    /// Datagrams until one satisfies `done` (or `seconds` pass in total); returns all received.
    package func receive(until done: ([String]) -> Bool, seconds: Double) -> [String] {
        var got: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while !done(got), Date() < deadline {
            if let m = receive(seconds: max(0.01, deadline.timeIntervalSinceNow)) { got.append(m) }
        }
        return got
    }
}

/// A small reader of the Prometheus text format (0.0.4): what node_exporter's textfile collector
/// accepts. Fails the test on any line it cannot read.
package struct PrometheusSample: Equatable {
    package var name: String
    package var labels: [String: String]
    package var value: Double

    package init(name: String, labels: [String: String], value: Double) {
        self.name = name
        self.labels = labels
        self.value = value
    }
}

package func parsePrometheus(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (
    samples: [PrometheusSample], types: [String: String], helps: Set<String>
) {
    var samples: [PrometheusSample] = []
    var types: [String: String] = [:]
    var helps: Set<String> = []
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let l = String(raw)
        if l.isEmpty { continue }
        if l.hasPrefix("# HELP ") {
            helps.insert(String(l.dropFirst(7).split(separator: " ")[0]))
            continue
        }
        if l.hasPrefix("# TYPE ") {
            let parts = l.dropFirst(7).split(separator: " ")
            XCTAssertEqual(parts.count, 2, "TYPE line \(l)", file: file, line: line)
            types[String(parts[0])] = String(parts.last ?? "")
            continue
        }
        // name{k="v",...} value
        var name = ""
        var labels: [String: String] = [:]
        var rest = Substring(l)
        if let brace = l.firstIndex(of: "{") {
            name = String(l[..<brace])
            guard let close = l.lastIndex(of: "}") else {
                XCTFail("unclosed labels in \(l)", file: file, line: line)
                continue
            }
            var body = l[l.index(after: brace)..<close]
            while !body.isEmpty {
                guard let eq = body.firstIndex(of: "=") else { break }
                let key = String(body[..<eq])
                var i = body.index(eq, offsetBy: 2)  // past ="
                var value = ""
                while i < body.endIndex, body[i] != "\"" {
                    if body[i] == "\\" {
                        i = body.index(after: i)
                        value.append(body[i] == "n" ? "\n" : body[i])
                    } else {
                        value.append(body[i])
                    }
                    i = body.index(after: i)
                }
                labels[key] = value
                body = body[body.index(after: i)...]
                if body.first == "," { body = body.dropFirst() }
            }
            rest = l[l.index(after: close)...]
        } else {
            let parts = l.split(separator: " ")
            name = String(parts[0])
            rest = l.dropFirst(name.count)
        }
        let valueText = rest.trimmingCharacters(in: .whitespaces)
        guard let value = Double(valueText) else {
            XCTFail("value \"\(valueText)\" of \(l) is not a number", file: file, line: line)
            continue
        }
        XCTAssertTrue(
            name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }, "metric name \(name)",
            file: file, line: line)
        samples.append(PrometheusSample(name: name, labels: labels, value: value))
    }
    return (samples, types, helps)
}
