import Foundation
import TouchComposition
import TouchCore
import TouchLinux
import TouchService
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 30, class 1: paths the service writes or removes. A new file is written by temporary
/// file + rename only where the path is absent or a regular file; a device or FIFO is written
/// as a stream and never replaced or unlinked; an output that is an input is refused; at exit
/// only the file this process created is removed, never a directory.
final class OutputPathTests: XCTestCase, TouchwireCommandLine {
    private func kind(_ path: String) -> mode_t? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    /// A FIFO opened read-write here (so neither side waits); what the command wrote is read back.
    private func makeFIFO(_ dir: URL) throws -> (path: String, fd: CInt) {
        let path = dir.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let fd = open(path, O_RDWR | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(fd, 0)
        addTeardownBlock { close(fd) }
        return (path, fd)
    }

    private func drain(_ fd: CInt) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A character device node of our own (mknod needs root): the status file or a trace aimed at
    /// `/dev/null` or `/dev/full`, without risking the real ones.
    private func makeDevice(_ dir: URL, name: String, minor: UInt32) throws -> String {
        guard getuid() == 0 else { throw XCTSkip("mknod needs root; the FIFO tests cover streams") }
        let path = dir.appendingPathComponent(name).path
        XCTAssertEqual(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)), 0)
        return path
    }

    // MARK: the helper

    func testAFIFOIsWrittenAsAStreamNeverReplaced() throws {
        let dir = try makeTemporaryDirectory(self)
        let fifo = try makeFIFO(dir)
        XCTAssertNil(try OutputFile.write("hello\n".utf8, to: fifo.path), "no file was created")
        XCTAssertEqual(kind(fifo.path), S_IFIFO)
        XCTAssertEqual(drain(fifo.fd), "hello\n")
        let file = try OutputFile(path: fifo.path)
        try file.write("partial".utf8)
        file.discard()
        XCTAssertEqual(kind(fifo.path), S_IFIFO, "discarding a stream never unlinks it")
    }

    func testADirectoryOrSocketIsRefusedAndLeftAlone() throws {
        let dir = try makeTemporaryDirectory(self)
        let inside = dir.appendingPathComponent("keep").path
        try "keep\n".write(toFile: inside, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try OutputFile.write("x".utf8, to: dir.path)) { error in
            XCTAssertEqual(error as? OutputFileError, .isDirectory(path: dir.path))
            XCTAssertTrue("\(error)".contains("is a directory"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: inside, encoding: .utf8), "keep\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["keep"], "no debris")
    }

    func testAnOutputThatIsAnInputIsRefusedThroughLinks() throws {
        let dir = try makeTemporaryDirectory(self)
        let input = dir.appendingPathComponent("in.jsonl").path
        try "data\n".write(toFile: input, atomically: false, encoding: .utf8)
        let symlink = dir.appendingPathComponent("sym").path
        let hardlink = dir.appendingPathComponent("hard").path
        XCTAssertEqual(Glibc.symlink(input, symlink), 0)
        XCTAssertEqual(link(input, hardlink), 0)
        for output in [input, symlink, hardlink] {
            XCTAssertThrowsError(try OutputFile.write("new".utf8, to: output, inputs: [input])) { error in
                XCTAssertEqual(error as? OutputFileError, .sameAsInput(path: output, input: input))
            }
        }
        XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), "data\n")
        let other = dir.appendingPathComponent("out").path
        XCTAssertNotNil(try OutputFile.write("new".utf8, to: other, inputs: [input]))
    }

    func testRemovesOnlyTheFileItCreated() throws {
        let dir = try makeTemporaryDirectory(self)
        let path = dir.appendingPathComponent("status").path
        let created = try XCTUnwrap(try OutputFile.write("mine".utf8, to: path))
        // Another process replaces it: a different inode at the same name is not ours to remove.
        try "theirs".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertFalse(OutputFile.remove(path, created: created))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "theirs")
        let again = try XCTUnwrap(try OutputFile.write("mine".utf8, to: path))
        XCTAssertTrue(OutputFile.remove(path, created: again))
        XCTAssertNil(kind(path))
    }

    /// The status file of a service is removed at exit only while it is the file it wrote.
    func testServiceRemovesOnlyItsOwnStatusFile() throws {
        let dir = try makeTemporaryDirectory(self)
        try tapTrace.write(to: dir.appendingPathComponent("tap.jsonl"), atomically: true, encoding: .utf8)
        let board = try tapBoard(script: "tap.jsonl", directory: dir)
        let status = dir.appendingPathComponent("status.json").path
        let service = try Service(
            board: board, logger: quietLogger, settings: ServiceSettings(statusFile: status),
            stdout: CollectingSink(), clock: ManualClock())
        service.publishSnapshot()
        XCTAssertEqual(kind(status), S_IFREG)
        try FileManager.default.removeItem(atPath: status)
        try FileManager.default.createDirectory(atPath: status, withIntermediateDirectories: false)
        service.removeStatusFile()
        XCTAssertEqual(kind(status), S_IFDIR, "a directory put at the path is never removed")
        try FileManager.default.removeItem(atPath: status)
        service.publishSnapshot()
        service.removeStatusFile()
        XCTAssertNil(kind(status), "its own file is removed")
    }

    // MARK: the commands

    /// `replay T --passthrough-trace T` (or a link to T) used to truncate the recording it reads.
    func testReplayRefusesToWriteItsOwnTrace() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try tapTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let link = dir.appendingPathComponent("link.jsonl").path
        XCTAssertEqual(symlink(trace, link), 0)
        let board = dir.appendingPathComponent("b.toml").path
        try simulatedBoardText(script: "t.jsonl", recognizers: ["tap"]).write(
            toFile: board, atomically: true, encoding: .utf8)
        for output in [trace, link, board] {
            let r = try run(["replay", trace, "--board", board, "--passthrough-trace", output])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("--passthrough-trace \(output)"), r.stderr)
            XCTAssertTrue(r.stderr.contains("writing it would destroy what is read"), r.stderr)
            XCTAssertEqual(r.stdout, "", "refused before any event")
        }
        XCTAssertEqual(try String(contentsOfFile: trace, encoding: .utf8), tapTrace)
        XCTAssertEqual(kind(link), S_IFLNK)
    }

    /// A replay that fails used to delete its `--passthrough-trace` output, whatever it was.
    func testAFailedReplayLeavesADeviceOrFIFOInPlace() throws {
        let dir = try makeTemporaryDirectory(self)
        let bad = dir.appendingPathComponent("bad.jsonl").path
        try tapTrace.replacingOccurrences(of: "\"t_us\":120000", with: "\"t_us\":\"x\"")
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let fifo = try makeFIFO(dir)
        let old = dir.appendingPathComponent("old.jsonl").path
        try "old\n".write(toFile: old, atomically: true, encoding: .utf8)
        for output in [fifo.path, old] {
            let r = try run(["replay", bad, "--board", demoBoard, "--passthrough-trace", output])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("bad.jsonl:3"), r.stderr)
        }
        XCTAssertEqual(kind(fifo.path), S_IFIFO, "the FIFO was unlinked")
        XCTAssertEqual(try String(contentsOfFile: old, encoding: .utf8), "old\n", "a failed replay keeps the old file")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["bad.jsonl", "old.jsonl", "pipe"])
    }

    /// `--passthrough-trace /dev/full`: ENOSPC is an error naming the file, the node stays.
    func testAFullDeviceIsAnErrorAndStays() throws {
        let dir = try makeTemporaryDirectory(self)
        let full = try makeDevice(dir, name: "full", minor: 7)
        let r = try run([
            "replay", repositoryRoot.appendingPathComponent("traces/demo.jsonl").path,
            "--board", demoBoard, "--passthrough-trace", full,
        ])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(full): cannot write trace"), r.stderr)
        XCTAssertEqual(kind(full), S_IFCHR, "the device node was removed")
    }

    /// `strokes learn -o` into a FIFO streams the file; into a directory or an input it is refused.
    func testStrokesLearnWritesOnlyWhereItMay() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try tapTrace.replacingOccurrences(of: "\"x\":401", with: "\"x\":460")
            .write(toFile: trace, atomically: true, encoding: .utf8)
        let fifo = try makeFIFO(dir)
        let ok = try run(["strokes", "learn", trace, "--name", "dash", "-o", fifo.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(kind(fifo.path), S_IFIFO, "the FIFO was replaced by a file")
        XCTAssertTrue(drain(fifo.fd).contains("dash"))
        let sub = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        for output in [sub.path, trace] {
            let r = try run(["strokes", "learn", trace, "--name", "dash", "-o", output])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("-o \(output)"), r.stderr)
        }
        XCTAssertEqual(kind(sub.path), S_IFDIR)
        XCTAssertTrue(try String(contentsOfFile: trace, encoding: .utf8).hasPrefix("{\"touchwire_trace\""))
    }

    /// `plot -o` the trace itself used to replace the recording with the picture.
    func testPlotRefusesToOverwriteItsInput() throws {
        let dir = try makeTemporaryDirectory(self)
        let trace = dir.appendingPathComponent("t.jsonl").path
        try tapTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let r = try run(["plot", trace, "--board", demoBoard, "-o", trace])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: trace, encoding: .utf8), tapTrace)
        let svg = dir.appendingPathComponent("t.svg").path
        XCTAssertEqual(try run(["plot", trace, "--board", demoBoard, "-o", svg]).status, 0)
        XCTAssertEqual(kind(svg), S_IFREG)
    }

    /// `run --status-file DIR` used to warn, then delete DIR recursively at exit; a status file
    /// at a device (`/dev/null`) used to be replaced by a regular file.
    func testRunRefusesADirectoryAndStreamsIntoADevice() throws {
        let dir = try makeTemporaryDirectory(self)
        let keep = dir.appendingPathComponent("keep").path
        try "keep\n".write(toFile: keep, atomically: false, encoding: .utf8)
        let r = try runStopping(["run", "--board", demoBoard, "--status-file", dir.path], after: 20)
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("--status-file \(dir.path) is a directory"), r.stderr)
        XCTAssertEqual(try String(contentsOfFile: keep, encoding: .utf8), "keep\n", "the directory was deleted")

        let null = try makeDevice(dir, name: "null", minor: 3)
        let s = try runStopping(["run", "--board", demoBoard, "--status-file", null], after: 3)
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertEqual(kind(null), S_IFCHR, "the device node was replaced or removed")
    }

    /// Runs touchwire, sends SIGTERM after `seconds` if it is still running, and collects it.
    private func runStopping(_ arguments: [String], after seconds: Double) throws -> TouchwireRun {
        try start(arguments).finish(within: seconds)
    }
}
