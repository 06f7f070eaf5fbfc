import Foundation

/// What one run of a program (a tool on `PATH`, a compiled helper, the `touchwire` executable)
/// did: its exit status and what it wrote.
package struct ProcessResult {
    package var status: Int32
    package var stdout: Data
    package var stderr: String

    /// `stdout` as text.
    package var output: String { String(decoding: stdout, as: UTF8.self) }
}

/// The first directory on `PATH` holding an executable `name`, if any (a test skips or fails
/// naming the package that provides it when nil).
package func findTool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Runs `executable` (a path) with `arguments` to completion in `directory` (the repository root
/// unless told), reading its standard output and error at the same time so that neither pipe fills.
package func runProcess(_ executable: String, _ arguments: [String], in directory: URL = repositoryRoot) throws
    -> ProcessResult
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let errData = Box()
    let group = DispatchGroup()
    DispatchQueue(label: "stderr").async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData.data, as: UTF8.self))
}
