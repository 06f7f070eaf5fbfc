import Foundation
import TouchCore
import TouchLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

func makePseudoTerminal() throws -> PseudoTerminal {
    do {
        return try PseudoTerminal()
    } catch {
        throw XCTSkip("no pseudo-terminals here: \(error)")
    }
}

/// The error opening `path` gives, or nil when it opens.
func openingError(_ path: String, _ configuration: SerialConfiguration) -> SerialError? {
    do {
        _ = try SerialPort(path: path, configuration: configuration)
        return nil
    } catch {
        return error
    }
}

func controlCharacter(_ t: termios, _ index: Int32) -> UInt8 {
    withUnsafeBytes(of: t.c_cc) { $0[Int(index)] }
}

final class SerialPortTests: XCTestCase {
    func assertRaw(_ t: termios, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(
            t.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN), 0, "line discipline off", file: file, line: line)
        XCTAssertEqual(t.c_oflag & tcflag_t(OPOST), 0, "no output processing", file: file, line: line)
        XCTAssertEqual(t.c_iflag & tcflag_t(ICRNL | IXON | ISTRIP), 0, "no input processing", file: file, line: line)
        XCTAssertEqual(t.c_cflag & tcflag_t(CLOCAL | CREAD), tcflag_t(CLOCAL | CREAD), file: file, line: line)
        XCTAssertEqual(controlCharacter(t, VMIN), 0, file: file, line: line)
        XCTAssertEqual(controlCharacter(t, VTIME), 0, file: file, line: line)
    }

    func testDefault115200_8N1IsAppliedInRawMode() throws {
        let pty = try makePseudoTerminal()
        let config = SerialConfiguration(baudRate: 115_200)
        let port = try SerialPort(path: pty.subordinatePath, configuration: config)
        var t = try port.currentAttributes()
        assertRaw(t)
        XCTAssertEqual(cfgetospeed(&t), speed_t(B115200))
        XCTAssertEqual(cfgetispeed(&t), speed_t(B115200))
        XCTAssertEqual(t.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertEqual(t.c_cflag & tcflag_t(PARENB | CSTOPB), 0)
        XCTAssertEqual(t.c_cflag & tcflag_t(CRTSCTS), 0)
        XCTAssertEqual(SerialConfiguration(attributes: t), config)
        XCTAssertEqual(config.description, "115200 8N1")
    }

    func test921600_8N2WithRtsCts() throws {
        let pty = try makePseudoTerminal()
        let config = SerialConfiguration(baudRate: 921_600, stopBits: .two, flowControl: .rtsCts)
        let port = try SerialPort(path: pty.subordinatePath, configuration: config)
        var t = try port.currentAttributes()
        assertRaw(t)
        XCTAssertEqual(cfgetospeed(&t), speed_t(B921600))
        XCTAssertEqual(t.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        XCTAssertEqual(t.c_cflag & tcflag_t(PARENB), 0)
        XCTAssertEqual(t.c_cflag & tcflag_t(CSTOPB), tcflag_t(CSTOPB))
        XCTAssertEqual(t.c_cflag & tcflag_t(CRTSCTS), tcflag_t(CRTSCTS))
        XCTAssertEqual(SerialConfiguration(attributes: t), config)
        XCTAssertEqual(config.description, "921600 8N2 rts_cts")
    }

    func test4MbaudOnAPty() throws {
        let pty = try makePseudoTerminal()
        let port = try SerialPort(path: pty.subordinatePath, configuration: SerialConfiguration(baudRate: 4_000_000))
        var t = try port.currentAttributes()
        XCTAssertEqual(cfgetospeed(&t), speed_t(B4000000))
    }

    /// Parity and character size as handed to tcsetattr (a pty cannot keep them, see below).
    func testParityAndDataBitsInTheAttributes() throws {
        let base = termios()
        let even = try SerialConfiguration(baudRate: 57_600, dataBits: 7, parity: .even).attributes(
            from: base, path: "x")
        XCTAssertEqual(even.c_cflag & tcflag_t(CSIZE), tcflag_t(CS7))
        XCTAssertEqual(even.c_cflag & tcflag_t(PARENB | PARODD), tcflag_t(PARENB))
        XCTAssertEqual(
            SerialConfiguration(attributes: even), SerialConfiguration(baudRate: 57_600, dataBits: 7, parity: .even))
        let odd = try SerialConfiguration(dataBits: 5, parity: .odd).attributes(from: even, path: "x")
        XCTAssertEqual(odd.c_cflag & tcflag_t(CSIZE), tcflag_t(CS5))
        XCTAssertEqual(odd.c_cflag & tcflag_t(PARENB | PARODD), tcflag_t(PARENB | PARODD))
        let none = try SerialConfiguration().attributes(from: odd, path: "x")
        XCTAssertEqual(none.c_cflag & (tcflag_t(PARENB | PARODD | CSTOPB) | tcflag_t(CRTSCTS)), 0)
        XCTAssertEqual(none.c_cflag & tcflag_t(CSIZE), tcflag_t(CS8))
        assertRaw(none)
    }

    /// Linux ptys force CS8 without parity; the read-back check must notice instead of pretending.
    func testADriverThatIgnoresTheSettingsIsReported() throws {
        let pty = try makePseudoTerminal()
        let want = SerialConfiguration(baudRate: 9600, dataBits: 7, parity: .odd)
        let error = openingError(pty.subordinatePath, want)
        guard case .configurationRejected(let p, let requested, let applied)? = error else {
            throw XCTSkip("this kernel keeps parity on ptys: \(String(describing: error))")
        }
        XCTAssertEqual(p, pty.subordinatePath)
        XCTAssertEqual(requested, want)
        XCTAssertEqual(applied, "9600 8N1")
    }

    func testUnsupportedSettingsAreRejectedNamingThePath() throws {
        let pty = try makePseudoTerminal()
        let path = pty.subordinatePath
        let error = openingError(path, SerialConfiguration(baudRate: 12345))
        guard case .unsupportedConfiguration(let p, let reason)? = error else {
            return XCTFail("\(String(describing: error))")
        }
        XCTAssertEqual(p, path)
        XCTAssertTrue(reason.contains("12345"))
        let nine = openingError(path, SerialConfiguration(dataBits: 9))
        guard case .unsupportedConfiguration? = nine else { return XCTFail("\(String(describing: nine))") }
    }

    func testMissingDeviceIsATypedErrorNamingThePath() {
        let path = "/dev/ttyTOUCHWIRE-does-not-exist"
        guard let error = openingError(path, SerialConfiguration()), case .missingDevice(let p, let errno) = error
        else { return XCTFail("opening a missing device must fail with .missingDevice") }
        XCTAssertEqual(p, path)
        XCTAssertEqual(errno.rawValue, ENOENT)
        XCTAssertEqual(error.path, path)
        XCTAssertTrue(error.description.contains(path))
        XCTAssertFalse(error.description.contains("\n"))
    }

    func testANonTerminalIsRefused() {
        let error = openingError("/dev/null", SerialConfiguration())
        guard case .failed(let p, let op, let errno)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(p, "/dev/null")
        XCTAssertTrue(op.hasPrefix("tcgetattr"))
        XCTAssertEqual(errno.rawValue, ENOTTY)
    }

    func testBytesPassUnchangedBothWays() throws {
        let pty = try makePseudoTerminal()
        let port = try SerialPort(path: pty.subordinatePath, configuration: SerialConfiguration())
        let bytes: [UInt8] = Array(0...255) + Array("\r\n\u{3}\u{4}\n".utf8)
        let n = try bytes.withUnsafeBytes { try port.write($0) }
        XCTAssertEqual(n, bytes.count)
        XCTAssertEqual(try pty.read(count: bytes.count), bytes)
        // And from the peer to the port.
        let back = Array("ping\r\n".utf8)
        XCTAssertEqual(try back.withUnsafeBytes { try pty.write($0) }, back.count)
        var received = [UInt8](repeating: 0, count: 64)
        var got = 0
        for _ in 0..<100 where got < back.count {
            got += try received.withUnsafeMutableBytes {
                try port.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...]))
            }
            if got < back.count { usleep(1000) }
        }
        XCTAssertEqual(Array(received[..<got]), back)
        try port.drain()
    }

    /// `SerialPort.read` never blocks: with nothing waiting it returns 0 at once (EAGAIN is not
    /// an error), then returns what the peer sends, then 0 again once drained.
    func testReadReturnsZeroWithoutBlockingWhenNothingIsWaiting() throws {
        let pty = try makePseudoTerminal()
        let port = try SerialPort(path: pty.subordinatePath, configuration: SerialConfiguration())
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try port.read(into: $0) }, 0)
        let sent = Array("ok".utf8)
        XCTAssertEqual(try sent.withUnsafeBytes { try pty.write($0) }, sent.count)
        var got = 0
        for _ in 0..<1000 where got < sent.count {
            got += try buffer.withUnsafeMutableBytes {
                try port.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[got...]))
            }
            if got < sent.count { usleep(1000) }
        }
        XCTAssertEqual(Array(buffer[..<got]), sent)
        XCTAssertEqual(try buffer.withUnsafeMutableBytes { try port.read(into: $0) }, 0)
    }
}

final class LinuxI2CBusTests: XCTestCase {
    func testMissingBus() {
        XCTAssertThrowsError(try LinuxI2CBus(path: "/dev/i2c-99")) {
            XCTAssertEqual($0 as? I2CError, .missingBus(path: "/dev/i2c-99"))
        }
    }

    func testTransferOnSomethingThatIsNotAnAdapterFailsWithErrno() throws {
        let bus = try LinuxI2CBus(path: "/dev/null")
        XCTAssertThrowsError(try bus.transfer(I2CAddress(0x38), write: [0x02], readCount: 1)) {
            guard case .failed(_, let address, let errno) = $0 as? I2CError else { return XCTFail("\($0)") }
            XCTAssertEqual(address, I2CAddress(0x38))
            XCTAssertEqual(errno, ENOTTY)
        }
    }

    func testBusPathsAreSortedNumerically() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tw-i2c-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["i2c-10", "i2c-2", "i2c-1", "i2c-x", "tty0"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil)
        }
        XCTAssertEqual(
            LinuxI2CBus.busPaths(directory: dir.path), ["\(dir.path)/i2c-1", "\(dir.path)/i2c-2", "\(dir.path)/i2c-10"])
        XCTAssertEqual(LinuxI2CBus.busPaths(directory: dir.path + "/missing"), [])
    }

    func testMonotonicClockAdvances() {
        let a = MonotonicClock.now()
        usleep(2000)
        let b = MonotonicClock.now()
        XCTAssertGreaterThanOrEqual(b.microseconds(since: a), 2000)
        XCTAssertLessThan(b.microseconds(since: a), 5_000_000)
    }
}
