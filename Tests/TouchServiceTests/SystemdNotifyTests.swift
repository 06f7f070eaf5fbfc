import Foundation
import TouchComposition
import TouchLinux
import TouchService
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

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
