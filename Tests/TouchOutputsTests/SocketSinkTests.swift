import Foundation
import TouchLinux
import XCTest

@testable import TouchOutputs

/// `[[output]] type = "socket"` on real Unix sockets: every client gets the same lines; a client
/// that does not read is disconnected and counted, and the others keep receiving.
final class SocketSinkTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "touchwire-socket-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func line(_ i: Int) -> [UInt8] { Array(#"{"t_us":\#(i),"recognizer":"tap"}"#.utf8) + [10] }

    func testEveryClientReceivesTheSameLines() throws {
        let path = directory + "/events.sock"
        let sink = SocketSink(server: try UnixStreamServer(path: path, mode: 0o660, group: nil), log: { _ in })
        let a = try SocketTestClient(path: path)
        let b = try SocketTestClient(path: path)
        sink.flush()
        XCTAssertEqual(sink.clientCount, 2)
        let lines = (0..<3).map(line)
        for l in lines { sink.write(l) }
        let expected = lines.flatMap { $0 }
        XCTAssertEqual(a.read(count: expected.count), expected)
        XCTAssertEqual(b.read(count: expected.count), expected)
        // A client that connects later gets the lines from then on.
        let c = try SocketTestClient(path: path)
        sink.write(line(3))
        XCTAssertEqual(c.read(count: line(3).count), line(3))
        XCTAssertEqual(sink.slowClientsDropped, 0)
    }

    /// A client that never reads: once its buffer is full it is disconnected and counted; the
    /// reading client gets every line, and no write waits for the stuck one.
    func testClientThatDoesNotReadIsDisconnectedAndCounted() throws {
        let path = directory + "/events.sock"
        let server = try UnixStreamServer(path: path, mode: 0o600, group: nil)
        let sink = SocketSink(server: server, log: { _ in })
        let stuck = try SocketTestClient(path: path)
        sink.flush()
        server.setSendBuffer(client: 0, bytes: 4096)
        let reader = try SocketTestClient(path: path)
        sink.flush()
        XCTAssertEqual(sink.clientCount, 2)
        var expected: [UInt8] = []
        var received: [UInt8] = []
        for i in 0..<5000 {
            let l = line(i)
            sink.write(l)
            expected += l
            received += reader.read(count: l.count)
        }
        XCTAssertEqual(received, expected, "the reading client lost nothing")
        XCTAssertEqual(sink.slowClientsDropped, 1)
        XCTAssertEqual(sink.clientCount, 1)
        XCTAssertTrue(stuck.isClosedByServer())
    }

    func testClientThatLeavesIsRemovedQuietly() throws {
        let path = directory + "/events.sock"
        let sink = SocketSink(server: try UnixStreamServer(path: path, mode: 0o660, group: nil), log: { _ in })
        var client: SocketTestClient? = try SocketTestClient(path: path)
        sink.flush()
        XCTAssertEqual(sink.clientCount, 1)
        client = nil
        _ = client
        sink.flush()
        sink.write(line(1))
        XCTAssertEqual(sink.clientCount, 0)
        XCTAssertEqual(sink.clientsLeft, 1)
        XCTAssertEqual(sink.slowClientsDropped, 0)
    }

    /// A closed sink gives its path back at once: its clients see end of stream, a new server
    /// binds the same path, and the old server's later release leaves the new socket alone.
    func testCloseHandsThePathToTheNextServer() throws {
        let path = directory + "/events.sock"
        var old: SocketSink? = SocketSink(
            server: try UnixStreamServer(path: path, mode: 0o660, group: nil), log: { _ in })
        let client = try SocketTestClient(path: path)
        old?.flush()
        XCTAssertEqual(old?.clientCount, 1)
        old?.close()
        old?.close()  // idempotent
        XCTAssertTrue(client.isClosedByServer(), "the old board's client sees end of stream")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        old?.write(line(0))  // after close: dropped, nothing accepted
        let next = SocketSink(server: try UnixStreamServer(path: path, mode: 0o660, group: nil), log: { _ in })
        old = nil  // the old server's deinit must not unlink the new socket
        _ = old
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the new socket file stays")
        let again = try SocketTestClient(path: path)
        next.write(line(1))
        XCTAssertEqual(again.read(count: line(1).count), line(1))
    }

    func testModeStaleFileAndErrors() throws {
        let path = directory + "/events.sock"
        do {
            let server = try UnixStreamServer(path: path, mode: 0o640, group: nil)
            var st = stat()
            XCTAssertEqual(lstat(path, &st), 0)
            XCTAssertEqual(st.st_mode & 0o777, 0o640)
            // In use while it listens.
            XCTAssertThrowsError(try UnixStreamServer(path: path, mode: 0o640, group: nil)) {
                XCTAssertEqual($0 as? UnixSocketError, .inUse(path: path))
            }
            _ = server
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the socket file is removed with the server")
        // A stale socket file (nobody listens) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withUnixSocketAddress(path) { bind(stale, $0, $1) }
        close(stale)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertNoThrow(try UnixStreamServer(path: path, mode: 0o660, group: nil))

        let file = directory + "/plain"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try UnixStreamServer(path: file, mode: 0o660, group: nil)) {
            XCTAssertEqual($0 as? UnixSocketError, .notASocket(path: file))
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file), "a file that is not a socket is left alone")
        let missing = directory + "/no/such/dir.sock"
        XCTAssertThrowsError(try UnixStreamServer(path: missing, mode: 0o660, group: nil)) {
            XCTAssertEqual($0 as? UnixSocketError, .missingDirectory(path: missing))
            XCTAssertEqual("\($0)", "\(missing): the directory does not exist")
        }
        XCTAssertThrowsError(try UnixStreamServer(path: path + "2", mode: 0o660, group: "no-such-group-tw")) {
            XCTAssertEqual($0 as? UnixSocketError, .unknownGroup("no-such-group-tw"))
        }
    }

    /// A listening socket with a full backlog (issue 30, class 2): the stale-socket check used a
    /// blocking connect and hung `run` (and a reload) forever; now it is "in use", at once.
    func testAListenerWithAFullBacklogIsInUseWithoutWaiting() throws {
        let path = directory + "/busy.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        XCTAssertEqual(withUnixSocketAddress(path) { bind(listener, $0, $1) }, 0)
        XCTAssertEqual(listen(listener, 0), 0)
        var fillers: [CInt] = []
        defer { for f in fillers { close(f) } }
        for _ in 0..<64 {  // never accepted: the backlog fills
            let f = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fillers.append(f)
            let r = withUnixSocketAddress(path) { connect(f, $0, $1) }
            if r != 0 && errno == EAGAIN { break }
        }
        // A guard against the hang, not a verdict on speed: the old check never returned.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Error? = nil
        Thread.detachNewThread {
            do { _ = try UnixStreamServer(path: path, mode: 0o660, group: nil) } catch { outcome = error }
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else {
            return XCTFail("creating the server blocked on a listener with a full backlog")
        }
        XCTAssertEqual(outcome as? UnixSocketError, .inUse(path: path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the live socket is left alone")
    }

    /// bind, then chmod/chown by path let a user who can write the directory swap in a symlink
    /// (issue 30, class 2): the socket is now bound and given its mode in a private directory,
    /// then linked into place, so the mode is exact whatever the umask and nothing is left behind;
    /// a directory anyone may write without the sticky bit is refused.
    func testModeIsSetBeforeTheSocketAppearsAndUnsafeDirectoriesAreRefused() throws {
        let path = directory + "/events.sock"
        let old = umask(0o077)
        let server = try UnixStreamServer(path: path, mode: 0o660, group: "root")
        umask(old)
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(st.st_mode & 0o777, 0o660, "the umask does not narrow the mode")
        XCTAssertEqual(st.st_gid, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["events.sock"], "no debris")
        let client = try SocketTestClient(path: path)
        _ = client
        server.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))

        let open = directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(open, 0o777), 0)
        XCTAssertThrowsError(try UnixStreamServer(path: open + "/s.sock", mode: 0o660, group: nil)) {
            XCTAssertEqual($0 as? UnixSocketError, .unsafeDirectory(path: open + "/s.sock", directory: open))
            XCTAssertTrue("\($0)".contains("writable by anyone and has no sticky bit"), "\($0)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: open), [])
        XCTAssertEqual(chmod(open, 0o1777), 0)
        XCTAssertNoThrow(try UnixStreamServer(path: open + "/s.sock", mode: 0o660, group: nil), "sticky, like /tmp")
    }

    /// The socket file is unlinked at close only while it is still this server's.
    func testCloseLeavesASocketFileThatIsNoLongerOurs() throws {
        let path = directory + "/events.sock"
        let server = try UnixStreamServer(path: path, mode: 0o660, group: nil)
        XCTAssertEqual(unlink(path), 0)
        let other = try UnixStreamServer(path: path, mode: 0o660, group: nil)
        server.close()
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "another server's socket was unlinked")
        other.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
