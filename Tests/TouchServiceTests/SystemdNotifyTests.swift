import Foundation
import TouchComposition
import TouchLinux
import TouchService
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A bound AF_UNIX datagram socket standing in for systemd's notification socket.
final class NotifyListener {
    let fd: CInt
    /// `$NOTIFY_SOCKET` for this listener ("/path" or "@abstract").
    let address: String

    init(path: String? = nil, abstract: String? = nil) throws {
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
    func receive(seconds: Double) -> String? {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }

    /// Datagrams until one satisfies `done` (or `seconds` pass in total); returns all received.
    func receive(until done: ([String]) -> Bool, seconds: Double) -> [String] {
        var got: [String] = []
        let deadline = Date().addingTimeInterval(seconds)
        while !done(got), Date() < deadline {
            if let m = receive(seconds: max(0.01, deadline.timeIntervalSinceNow)) { got.append(m) }
        }
        return got
    }
}

/// Whether `SystemdNotifier.fromEnvironment` gives a notifier (it is move-only: no XCTAssertNil).
func notifierExists(_ environment: [String: String]) -> Bool {
    switch SystemdNotifier.fromEnvironment(environment) {
    case .some: true
    case .none: false
    }
}

/// sd_notify without libsystemd: one datagram to $NOTIFY_SOCKET.
final class SystemdNotifyTests: XCTestCase {
    func testReadyArrivesOnAPathSocket() throws {
        let dir = try makeTemporaryDirectory(self)
        let listener = try NotifyListener(path: dir.appendingPathComponent("notify").path)
        let notifier = try SystemdNotifier(address: listener.address)
        try notifier.send("READY=1\nSTATUS=running")
        XCTAssertEqual(listener.receive(seconds: 10), "READY=1\nSTATUS=running")
    }

    /// "@name" is the abstract namespace: the '@' becomes a leading NUL byte.
    func testWatchdogArrivesOnAnAbstractSocket() throws {
        let name = "touchwire-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        let listener = try NotifyListener(abstract: name)
        XCTAssertTrue(notifierExists(["NOTIFY_SOCKET": "@" + name]))
        let notifier = try SystemdNotifier(address: "@" + name)
        try notifier.send("WATCHDOG=1")
        XCTAssertEqual(listener.receive(seconds: 10), "WATCHDOG=1")
    }

    func testNoSocketOutsideSystemdAndBadAddressesRefused() throws {
        XCTAssertFalse(notifierExists([:]))
        XCTAssertFalse(notifierExists(["NOTIFY_SOCKET": ""]))
        XCTAssertFalse(notifierExists(["NOTIFY_SOCKET": "relative/path"]))
        XCTAssertFalse(notifierExists(["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)]))
        // Nobody listening: a clear error, not a crash.
        let dir = try makeTemporaryDirectory(self)
        let notifier = try SystemdNotifier(address: dir.appendingPathComponent("nobody").path)
        XCTAssertThrowsError(try notifier.send("READY=1"))
    }

    func testWatchdogPeriodFromTheEnvironment() {
        XCTAssertEqual(SystemdNotifier.watchdogMicroseconds(["WATCHDOG_USEC": "10000000"], pid: 7), 10_000_000)
        XCTAssertEqual(
            SystemdNotifier.watchdogMicroseconds(["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "7"], pid: 7),
            10_000_000)
        XCTAssertNil(SystemdNotifier.watchdogMicroseconds(["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "8"], pid: 7))
        XCTAssertNil(SystemdNotifier.watchdogMicroseconds(["WATCHDOG_USEC": "0"], pid: 7))
        XCTAssertNil(SystemdNotifier.watchdogMicroseconds(["WATCHDOG_USEC": "soon"], pid: 7))
        XCTAssertNil(SystemdNotifier.watchdogMicroseconds([:], pid: 7))
    }

    /// The feeder feeds only when the recognizer's tick count moved since the previous check.
    func testWatchdogFedOnlyWhileTheRecognizerAdvances() {
        var feeder = WatchdogFeeder()
        XCTAssertTrue(feeder.shouldFeed(ticks: 5))
        XCTAssertTrue(feeder.shouldFeed(ticks: 9))
        XCTAssertFalse(feeder.shouldFeed(ticks: 9))
        XCTAssertFalse(feeder.shouldFeed(ticks: 9))
        XCTAssertTrue(feeder.shouldFeed(ticks: 10))
        XCTAssertEqual(WatchdogFeeder.checkInterval(forWatchdogMicroseconds: 10_000_000), 5_000_000)
        XCTAssertEqual(WatchdogFeeder.checkInterval(forWatchdogMicroseconds: 1_000_000), 1_500_000)
    }

    func testRuntimeDirectoryDefaults() {
        let writable: (String) -> Bool = { $0 == "/run/touchwire" }
        XCTAssertEqual(RuntimePaths.statusFile([:], isWritable: writable), "/run/touchwire/touchwire.status")
        XCTAssertEqual(
            RuntimePaths.statusFile(["RUNTIME_DIRECTORY": "/run/touchwire:/run/other"]),
            "/run/touchwire/touchwire.status")
        XCTAssertEqual(RuntimePaths.statusFile(["RUNTIME_DIRECTORY": "/tmp/x"]), "/tmp/x/touchwire.status")
        XCTAssertEqual(
            RuntimePaths.statusFile(["RUNTIME_DIRECTORY": "relative"], isWritable: writable),
            "/run/touchwire/touchwire.status")
    }

    /// Issue 31: off a package install (no /run/touchwire this user may write), `run` writes the
    /// status into $XDG_RUNTIME_DIR, else into a private directory in /tmp, and `status` finds it there.
    func testStatusFileOffAPackageInstallIsWhereStatusLooks() {
        let none: (String) -> Bool = { _ in false }
        let xdg = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        XCTAssertEqual(
            RuntimePaths.statusFile(xdg, userID: 1000, isWritable: { $0 == "/run/user/1000" }),
            "/run/user/1000/touchwire.status")
        XCTAssertEqual(
            RuntimePaths.statusFile([:], userID: 1000, isWritable: none), "/tmp/touchwire-1000/touchwire.status")
        XCTAssertEqual(
            RuntimePaths.statusFileToRead(xdg, userID: 1000, exists: { $0 == "/run/user/1000/touchwire.status" }),
            "/run/user/1000/touchwire.status")
        XCTAssertEqual(
            RuntimePaths.statusFileToRead([:], userID: 7, exists: { $0 == "/tmp/touchwire-7/touchwire.status" }),
            "/tmp/touchwire-7/touchwire.status")
        // The package's service is found first, whoever asks.
        XCTAssertEqual(
            RuntimePaths.statusFileToRead(xdg, userID: 1000, exists: { _ in true }), "/run/touchwire/touchwire.status")
    }
}
