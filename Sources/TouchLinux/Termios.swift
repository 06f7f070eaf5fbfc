import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Every termios call of the package: tcgetattr, tcsetattr, tcdrain, cfmakeraw, the speeds.

/// termios(3) operations, each wrapped once.
enum Termios {
    /// The corresponding C function is `tcgetattr`.
    static func get(_ fd: CInt) -> Result<termios, Errno> {
        var t = termios()
        return valueOrErrno(retryOnInterrupt: true) { tcgetattr(fd, &t) }.map { (_: CInt) in t }
    }

    /// Applies `attributes` immediately. The corresponding C function is `tcsetattr(fd, TCSANOW, …)`.
    static func set(_ fd: CInt, _ attributes: termios) -> Result<Void, Errno> {
        var t = attributes
        return valueOrErrno(retryOnInterrupt: true) { tcsetattr(fd, TCSANOW, &t) }.map { (_: CInt) in () }
    }

    /// Waits until all output written to `fd` has been transmitted. The corresponding C function is `tcdrain`.
    static func drain(_ fd: CInt) -> Result<Void, Errno> {
        valueOrErrno(retryOnInterrupt: true) { tcdrain(fd) }.map { (_: CInt) in () }
    }

    /// Raw mode: no echo, no line discipline, no signals, no output processing, 8 bits.
    /// The corresponding C function is `cfmakeraw`.
    static func makeRaw(_ t: inout termios) { cfmakeraw(&t) }

    /// Sets both directions' speed to `speed` (a `B…` constant).
    /// The corresponding C functions are `cfsetispeed` and `cfsetospeed`.
    static func setSpeed(_ t: inout termios, _ speed: speed_t) -> Result<Void, Errno> {
        if cfsetospeed(&t, speed) != 0 { return .failure(.lastError) }
        if cfsetispeed(&t, speed) != 0 { return .failure(.lastError) }
        return .success(())
    }

    /// The output speed constant. The corresponding C function is `cfgetospeed`.
    static func outputSpeed(_ t: termios) -> speed_t {
        var copy = t
        return cfgetospeed(&copy)
    }

    /// Reads or writes one `c_cc` slot (`VMIN`, `VTIME`, …).
    static func controlCharacter(_ t: termios, _ index: Int32) -> cc_t {
        withUnsafeBytes(of: t.c_cc) { raw in
            let i = Int(index)
            return i < raw.count ? raw[i] : 0
        }
    }

    static func setControlCharacter(_ t: inout termios, _ index: Int32, _ value: cc_t) {
        withUnsafeMutableBytes(of: &t.c_cc) { raw in
            let i = Int(index)
            if i < raw.count { raw[i] = value }
        }
    }

    /// Standard rates and their `B…` constants (Linux, up to 4 Mbit/s).
    static let baudTable: [(rate: Int, speed: speed_t)] = [
        (50, speed_t(B50)), (75, speed_t(B75)), (110, speed_t(B110)), (134, speed_t(B134)),
        (150, speed_t(B150)), (200, speed_t(B200)), (300, speed_t(B300)), (600, speed_t(B600)),
        (1200, speed_t(B1200)), (1800, speed_t(B1800)), (2400, speed_t(B2400)), (4800, speed_t(B4800)),
        (9600, speed_t(B9600)), (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)),
        (115200, speed_t(B115200)), (230400, speed_t(B230400)), (460800, speed_t(B460800)),
        (500000, speed_t(B500000)), (576000, speed_t(B576000)), (921600, speed_t(B921600)),
        (1_000_000, speed_t(B1000000)), (1_152_000, speed_t(B1152000)), (1_500_000, speed_t(B1500000)),
        (2_000_000, speed_t(B2000000)), (2_500_000, speed_t(B2500000)), (3_000_000, speed_t(B3000000)),
        (3_500_000, speed_t(B3500000)), (4_000_000, speed_t(B4000000)),
    ]

    static func speed(forBaudRate rate: Int) -> speed_t? {
        baudTable.first(where: { $0.rate == rate })?.speed
    }

    static func baudRate(forSpeed speed: speed_t) -> Int? {
        baudTable.first(where: { $0.speed == speed })?.rate
    }

    /// RTS/CTS hardware flow control in `c_cflag`. The corresponding C constant is `CRTSCTS`.
    static let hardwareFlowControlFlag = tcflag_t(CRTSCTS)
}
