import Foundation
import XCTest

/// What one run of the `touchwire` executable did.
package struct TouchwireRun {
    package var status: Int32
    /// True when it ended on a signal (a trap), not an exit.
    package var signalled: Bool
    package var stdout: String
    package var stderr: String

    package init(status: Int32, signalled: Bool, stdout: String, stderr: String) {
        self.status = status
        self.signalled = signalled
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// The `touchwire` executable as a user runs it, for the command-line tests: found next to the
/// test bundle (where `swift build` puts it), run to completion with its output collected.
package protocol TouchwireCommandLine {}

extension TouchwireCommandLine {
    /// The executable built next to the test bundle.
    package var executable: URL { touchwireExecutable }

    /// The shipped simulated demo board.
    package var demoBoard: String { repositoryRoot.appendingPathComponent("boards/sim-demo.toml").path }

    /// Runs touchwire with `arguments` to completion; a missing executable fails the test.
    package func run(_ arguments: [String], in directory: URL? = nil) throws -> TouchwireRun {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            XCTFail("touchwire was not built at \(executable.path)")
            return TouchwireRun(status: -1, signalled: false, stdout: "", stderr: "")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TouchwireRun(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

/// A `touchwire` started in the background (`TouchwireCommandLine.start`), its standard output
/// and error on pipes, collected by `finish`.
package final class RunningTouchwire {
    package let process: Process
    private let out = Pipe()
    private let err = Pipe()

    /// Starts `launcher` + `[executable]` + `arguments`: a launcher such as `setpriv … ` runs it as
    /// another user.
    init(executable: URL, arguments: [String], launcher: [String]) throws {
        process = Process()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Waits up to `seconds` for it to end (a guard against a hang, not a verdict), sends SIGTERM
    /// if it has not, and collects it.
    package func finish(within seconds: Double) -> TouchwireRun {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return TouchwireRun(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

extension TouchwireCommandLine {
    /// Starts touchwire with `arguments` in the background (through `launcher` when given).
    package func start(_ arguments: [String], launcher: [String] = []) throws -> RunningTouchwire {
        try RunningTouchwire(executable: executable, arguments: arguments, launcher: launcher)
    }
}

/// The `touchwire` executable next to the test bundle (or the bundle's directory, or `debug/`).
package let touchwireExecutable: URL = {
    let bundle = Bundle(for: BundleMarker.self).bundleURL
    let candidates = [
        bundle, bundle.deletingLastPathComponent(), bundle.appendingPathComponent("debug"),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("touchwire") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? bundle.appendingPathComponent("touchwire")
}()

private final class BundleMarker {}
