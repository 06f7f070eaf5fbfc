import Foundation
import TouchComposition
import XCTest

/// The packaged systemd unit (tools/debian/touchwire.service), rated by systemd's own analyzer.
final class UnitFileTests: XCTestCase {
    var unit: URL { repositoryRoot.appendingPathComponent("tools/debian/touchwire.service") }

    /// `systemd-analyze security --offline=yes` (systemd ≥ 250): the exposure must be ≤ 2.0 ("OK").
    func testSystemdAnalyzeSecurityExposureAtMost2() throws {
        let analyzer = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let analyzer else {
            throw XCTSkip("systemd-analyze is not installed (tools/install-deps installs package systemd)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyzer)
        process.arguments = ["security", "--offline=yes", "--no-pager", unit.path]
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Overall exposure level") }) else {
            return XCTFail("no exposure level in the analyzer's output:\n\(text)")
        }
        let score = line.split(separator: " ").compactMap { Double($0) }.first
        let exposure = try XCTUnwrap(score, "no number in \(line)")
        XCTAssertLessThanOrEqual(exposure, 2.0, "\(line)\n\(text)")
    }

    /// What the issue requires of the unit, directive by directive.
    func testUnitIsSupervisedUnprivilegedAndReloadable() throws {
        let text = try String(contentsOf: unit, encoding: .utf8)
        let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for directive in [
            "User=touchwire", "Type=notify", "NotifyAccess=main", "RuntimeDirectory=touchwire",
            "ExecReload=/bin/kill -HUP $MAINPID", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
            "NoNewPrivileges=yes", "DevicePolicy=closed", "RestrictAddressFamilies=AF_UNIX",
            "SystemCallFilter=@system-service", "CapabilityBoundingSet=CAP_SYS_NICE CAP_IPC_LOCK",
            "AmbientCapabilities=CAP_SYS_NICE CAP_IPC_LOCK", "DeviceAllow=char-i2c rw", "DeviceAllow=char-gpiochip rw",
            "DeviceAllow=char-input rw", "DeviceAllow=/dev/uinput rw",
        ] {
            XCTAssertTrue(lines.contains(directive), "the unit lacks \(directive)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("WatchdogSec=") }, "the unit has no watchdog")
    }
}
