import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a UART is framed: baud rate, character size, parity, stop bits, flow control.
package struct SerialConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// Parity bit. The corresponding C flags are `PARENB` and `PARODD`.
    package enum Parity: String, Sendable, Hashable, CaseIterable {
        case none, even, odd
    }

    /// Stop bits. The corresponding C flag for two is `CSTOPB`.
    package enum StopBits: Int, Sendable, Hashable, CaseIterable {
        case one = 1
        case two = 2
    }

    /// Flow control. The corresponding C flag for RTS/CTS is `CRTSCTS`.
    package enum FlowControl: String, Sendable, Hashable, CaseIterable {
        case none
        case rtsCts = "rts_cts"
    }

    /// Bits per second; one of `supportedBaudRates`.
    package var baudRate: Int
    /// Bits per character, 5…8.
    package var dataBits: Int
    package var parity: Parity
    package var stopBits: StopBits
    package var flowControl: FlowControl

    /// 115200 8N1 without flow control unless told otherwise.
    package init(
        baudRate: Int = 115_200, dataBits: Int = 8, parity: Parity = .none, stopBits: StopBits = .one,
        flowControl: FlowControl = .none
    ) {
        self.baudRate = baudRate
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
        self.flowControl = flowControl
    }

    /// The rates Linux termios can set with a `B…` constant (50 … 4 000 000).
    package static var supportedBaudRates: [Int] { Termios.baudTable.map(\.rate) }

    /// "115200 8N1" or "921600 8E2 rts_cts".
    package var description: String {
        let p: String
        switch parity {
        case .none: p = "N"
        case .even: p = "E"
        case .odd: p = "O"
        }
        let flow = flowControl == .none ? "" : " \(flowControl.rawValue)"
        return "\(baudRate) \(dataBits)\(p)\(stopBits.rawValue)\(flow)"
    }

    /// The configuration `attributes` describe (its framing bits and output speed), or nil when
    /// the speed is not a standard rate or the character size is unknown.
    package init?(attributes t: termios) {
        guard let rate = Termios.baudRate(forSpeed: Termios.outputSpeed(t)) else { return nil }
        let bits: Int
        switch t.c_cflag & tcflag_t(CSIZE) {
        case tcflag_t(CS5): bits = 5
        case tcflag_t(CS6): bits = 6
        case tcflag_t(CS7): bits = 7
        case tcflag_t(CS8): bits = 8
        default: return nil
        }
        let parity: Parity =
            t.c_cflag & tcflag_t(PARENB) == 0 ? .none : (t.c_cflag & tcflag_t(PARODD) == 0 ? .even : .odd)
        self.init(
            baudRate: rate, dataBits: bits, parity: parity,
            stopBits: t.c_cflag & tcflag_t(CSTOPB) == 0 ? .one : .two,
            flowControl: t.c_cflag & Termios.hardwareFlowControlFlag == 0 ? .none : .rtsCts)
    }

    /// `base` (the device's current attributes) in raw mode with this configuration: what
    /// `SerialPort` hands to `tcsetattr`. Pure; `path` only names the device in errors.
    ///
    /// - Throws: `.unsupportedConfiguration` for a non-standard baud rate or data bits outside 5…8.
    package func attributes(from base: termios, path: String) throws(SerialError) -> termios {
        var t = base
        try apply(to: &t, path: path)
        return t
    }

    /// Writes this configuration into `t` on top of raw mode: `cfmakeraw`, the speed, CSIZE,
    /// PARENB/PARODD, CSTOPB, CRTSCTS, CLOCAL|CREAD, VMIN = 0, VTIME = 0.
    func apply(to t: inout termios, path: String) throws(SerialError) {
        guard let speed = Termios.speed(forBaudRate: baudRate) else {
            throw .unsupportedConfiguration(path: path, reason: "baud rate \(baudRate) is not a standard rate")
        }
        let size: tcflag_t
        switch dataBits {
        case 5: size = tcflag_t(CS5)
        case 6: size = tcflag_t(CS6)
        case 7: size = tcflag_t(CS7)
        case 8: size = tcflag_t(CS8)
        default: throw .unsupportedConfiguration(path: path, reason: "\(dataBits) data bits (must be 5…8)")
        }
        Termios.makeRaw(&t)
        if case .failure(let e) = Termios.setSpeed(&t, speed) {
            throw .failed(path: path, operation: "cfsetspeed \(baudRate)", errno: e)
        }
        t.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(PARODD) | tcflag_t(CSTOPB))
        t.c_cflag &= ~Termios.hardwareFlowControlFlag
        t.c_cflag |= size | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        switch parity {
        case .none: break
        case .even: t.c_cflag |= tcflag_t(PARENB)
        case .odd: t.c_cflag |= tcflag_t(PARENB) | tcflag_t(PARODD)
        }
        if stopBits == .two { t.c_cflag |= tcflag_t(CSTOPB) }
        if flowControl == .rtsCts { t.c_cflag |= Termios.hardwareFlowControlFlag }
        Termios.setControlCharacter(&t, VMIN, 0)
        Termios.setControlCharacter(&t, VTIME, 0)
    }
}

/// What went wrong with a serial device. Every case names the device; kernel errors carry the `Errno`.
package enum SerialError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device node does not exist or has no device behind it (ENOENT, ENODEV, ENXIO on open).
    case missingDevice(path: String, errno: Errno)
    /// The node exists but may not be opened (EACCES, EPERM): join group `dialout`.
    case permissionDenied(path: String, errno: Errno)
    /// The configuration cannot be expressed in termios (a non-standard baud rate, 9 data bits).
    case unsupportedConfiguration(path: String, reason: String)
    /// `tcsetattr` succeeded but `tcgetattr` reads back something else: the driver refused part
    /// of it (a Linux pseudo-terminal, for one, forces 8 data bits and no parity).
    case configurationRejected(path: String, requested: SerialConfiguration, applied: String)
    /// The device went away while open (EIO, ENXIO, EBADF on write): unplugged USB adapter, closed pty.
    case disconnected(path: String, operation: String, errno: Errno)
    /// Anything else: what was attempted and the errno.
    case failed(path: String, operation: String, errno: Errno)

    /// The device node the error is about.
    package var path: String {
        switch self {
        case .missingDevice(let p, _), .permissionDenied(let p, _), .unsupportedConfiguration(let p, _),
            .configurationRejected(let p, _, _), .disconnected(let p, _, _), .failed(let p, _, _):
            return p
        }
    }

    /// One line, naming the device and the cause.
    package var description: String {
        switch self {
        case .missingDevice(let p, let e): return "serial device \(p) does not exist (\(e))"
        case .permissionDenied(let p, let e):
            return "permission denied opening \(p) (\(e); run as root or join group dialout)"
        case .unsupportedConfiguration(let p, let r): return "cannot configure \(p): \(r)"
        case .configurationRejected(let p, let want, let got):
            return "\(p) did not accept \(want) (reads back \(got))"
        case .disconnected(let p, let op, let e): return "serial device \(p) disconnected during \(op) (\(e))"
        case .failed(let p, let op, let e): return "\(op) on \(p) failed (\(e))"
        }
    }
}

/// An open, configured UART (or pseudo-terminal subordinate) that this value owns; the
/// descriptor is closed when it is dropped.
///
/// Opened non-blocking: `write` never waits for the line, so the output thread can never stall
/// on a slow or disconnected peer.
package struct SerialPort: ~Copyable, Sendable {
    /// The device node, e.g. "/dev/ttyAMA0" or "/dev/serial0".
    package let path: String
    /// The configuration applied (and verified) at open.
    package let configuration: SerialConfiguration
    let handle: DescriptorHandle

    /// Opens `path` with `O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC`, puts it in raw mode with
    /// `configuration` (see `SerialConfiguration`), applies it with `tcsetattr(TCSANOW)` and
    /// verifies it with `tcgetattr`.
    ///
    /// - Throws: `.missingDevice`, `.permissionDenied`, `.unsupportedConfiguration`,
    ///   `.configurationRejected`, or `.failed` naming the call.
    ///
    /// The corresponding C functions are `open`, `tcgetattr`, `cfmakeraw`, `cfsetispeed`,
    /// `cfsetospeed` and `tcsetattr`.
    package init(path: String, configuration: SerialConfiguration) throws(SerialError) {
        var attributes = termios()
        // Validate before touching the device, so a bad board file fails without side effects.
        try configuration.apply(to: &attributes, path: path)

        let fd: CInt
        switch system_open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) {
        case .success(let opened): fd = opened
        case .failure(let e):
            switch e {
            case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice:
                throw .missingDevice(path: path, errno: e)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path, errno: e)
            default: throw .failed(path: path, operation: "open", errno: e)
            }
        }
        let handle = DescriptorHandle(adopting: fd)

        switch Termios.get(fd) {
        case .success(let current): attributes = current
        case .failure(let e):
            throw .failed(path: path, operation: "tcgetattr (is it a terminal?)", errno: e)
        }
        try configuration.apply(to: &attributes, path: path)
        if case .failure(let e) = Termios.set(fd, attributes) {
            throw .failed(path: path, operation: "tcsetattr \(configuration)", errno: e)
        }
        switch Termios.get(fd) {
        case .success(let applied):
            let readBack = SerialConfiguration(attributes: applied)
            let rawOK =
                applied.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0 && applied.c_oflag & tcflag_t(OPOST) == 0
            if readBack != configuration || !rawOK {
                throw .configurationRejected(
                    path: path, requested: configuration,
                    applied: readBack.map { "\($0)" + (rawOK ? "" : " (not raw)") } ?? "a non-standard speed")
            }
        case .failure(let e):
            throw .failed(path: path, operation: "tcgetattr", errno: e)
        }
        self.path = path
        self.configuration = configuration
        self.handle = handle
    }

    /// The descriptor, for `poll` by an event loop; owned by the port.
    package var descriptor: FileDescriptor { handle.descriptor }

    /// Writes as many of `bytes` as the kernel's output buffer takes now, without blocking.
    /// Returns how many were written: 0 when the buffer is full (EAGAIN). EINTR is retried.
    ///
    /// - Throws: `.disconnected` on EIO, ENXIO, ENODEV or EBADF (the device went away; reopen it),
    ///   `.failed` on anything else.
    ///
    /// The corresponding C function is `write`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        switch system_write(handle.rawValue, bytes) {
        case .success(let n): return n
        case .failure(let e):
            switch e {
            case .resourceTemporarilyUnavailable, .wouldBlock: return 0
            case .ioError, .noSuchAddressOrDevice, .operationNotSupportedByDevice, .badFileDescriptor:
                throw .disconnected(path: path, operation: "write", errno: e)
            default: throw .failed(path: path, operation: "write", errno: e)
            }
        }
    }

    /// Reads what has arrived, without blocking; 0 when nothing is waiting. EINTR is retried.
    ///
    /// The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        switch system_read(handle.rawValue, buffer) {
        case .success(let n): return n
        case .failure(let e):
            switch e {
            case .resourceTemporarilyUnavailable, .wouldBlock: return 0
            case .ioError, .noSuchAddressOrDevice, .operationNotSupportedByDevice, .badFileDescriptor:
                throw .disconnected(path: path, operation: "read", errno: e)
            default: throw .failed(path: path, operation: "read", errno: e)
            }
        }
    }

    /// Blocks until everything written has left the transmitter. EINTR is retried.
    ///
    /// The corresponding C function is `tcdrain`.
    package func drain() throws(SerialError) {
        if case .failure(let e) = Termios.drain(handle.rawValue) {
            switch e {
            case .ioError, .noSuchAddressOrDevice, .badFileDescriptor:
                throw .disconnected(path: path, operation: "tcdrain", errno: e)
            default: throw .failed(path: path, operation: "tcdrain", errno: e)
            }
        }
    }

    /// The terminal attributes as the kernel reports them now (for tests and diagnostics).
    ///
    /// The corresponding C function is `tcgetattr`.
    package func currentAttributes() throws(SerialError) -> termios {
        switch Termios.get(handle.rawValue) {
        case .success(let t): return t
        case .failure(let e): throw .failed(path: path, operation: "tcgetattr", errno: e)
        }
    }

    /// Closes the device now (dropping the port does the same).
    package consuming func close() {
        _ = consume self
    }
}
