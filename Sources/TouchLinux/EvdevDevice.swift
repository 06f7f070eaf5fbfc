import CLinux
import SystemPackage
import TouchCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `EVIOCGNAME`, `EVIOCGBIT`, `EVIOCGPROP` and `EVIOCGABS` say about a device.
package struct InputDeviceCapabilities: Sendable, Equatable {
    package var name: String
    /// `INPUT_PROP_DIRECT`: coordinates are on the display (a touchscreen, not a touchpad).
    package var isDirect: Bool
    /// ABS_MT_SLOT present: multi-touch protocol B.
    package var hasSlots: Bool
    /// ABS_MT_POSITION_X/Y present.
    package var hasMultiTouchPosition: Bool
    /// ABS_X/ABS_Y present.
    package var hasPosition: Bool
    /// BTN_TOUCH present.
    package var hasTouchButton: Bool

    /// A touchscreen as touchwire reads it: protocol B, or single-touch with BTN_TOUCH.
    package var isTouchscreen: Bool {
        (hasSlots && hasMultiTouchPosition) || (hasPosition && hasTouchButton && isDirect)
    }
}

/// An open Linux input device, `/dev/input/eventN` (the `evdev` interface). Move-only: one owner,
/// closed (and ungrabbed, as closing releases a grab) when dropped.
///
/// Every evdev ioctl of the package is made here: `EVIOCGNAME`, `EVIOCGBIT`, `EVIOCGPROP`,
/// `EVIOCGABS`, `EVIOCGRAB`, `EVIOCGMTSLOTS`, `EVIOCGKEY` (`linux/input.h`; through the
/// `tw_evdev_*` wrappers of CLinux, as Swift cannot call the variadic `ioctl`).
package struct EvdevDevice: ~Copyable {
    /// The node as given (a by-path / by-id symlink is followed by `open`).
    package let path: String
    private let handle: DescriptorHandle

    /// Opens `path` read-only, non-blocking, close-on-exec.
    /// The corresponding C function is `open`.
    package init(path: String) throws(InputDeviceError) {
        switch system_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) {
        case .success(let fd):
            self.path = path
            self.handle = DescriptorHandle(adopting: fd)
        case .failure(let e):
            switch e {
            case .noSuchFileOrDirectory, .noSuchAddressOrDevice, .operationNotSupportedByDevice:
                throw .missing(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            default: throw .failed(path: path, operation: "open", errno: e.rawValue)
            }
        }
    }

    /// The raw descriptor, for `poll`.
    package var rawDescriptor: CInt { handle.rawValue }

    /// The device's name (`EVIOCGNAME`), "" when it has none.
    package func name() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let r = buffer.withUnsafeMutableBufferPointer { tw_evdev_get_name(handle.rawValue, $0.baseAddress, 255) }
        guard r >= 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bits of `EVIOCGBIT(type)` (`type` 0: event types) or, with `properties`, of `EVIOCGPROP`.
    private func bits(type: UInt32, properties: Bool = false) throws(InputDeviceError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 96)
        let fd = handle.rawValue
        let r = buffer.withUnsafeMutableBufferPointer { b in
            properties
                ? tw_evdev_get_props(fd, b.baseAddress, b.count) : tw_evdev_get_bits(fd, type, b.baseAddress, b.count)
        }
        guard r >= 0 else {
            throw .failed(path: path, operation: properties ? "EVIOCGPROP" : "EVIOCGBIT", errno: errno)
        }
        return buffer
    }

    private static func test(_ bits: [UInt8], _ bit: Int) -> Bool {
        bit / 8 < bits.count && bits[bit / 8] & (1 << UInt8(bit % 8)) != 0
    }

    /// Name, properties and the axes and keys that matter for touch.
    package func capabilities() throws(InputDeviceError) -> InputDeviceCapabilities {
        let abs = try bits(type: UInt32(EV_ABS))
        let keys = try bits(type: UInt32(EV_KEY))
        let props = try bits(type: 0, properties: true)
        return InputDeviceCapabilities(
            name: name(), isDirect: Self.test(props, Int(INPUT_PROP_DIRECT)),
            hasSlots: Self.test(abs, Int(ABS_MT_SLOT)),
            hasMultiTouchPosition: Self.test(abs, Int(ABS_MT_POSITION_X)) && Self.test(abs, Int(ABS_MT_POSITION_Y)),
            hasPosition: Self.test(abs, Int(ABS_X)) && Self.test(abs, Int(ABS_Y)),
            hasTouchButton: Self.test(keys, Int(BTN_TOUCH)))
    }

    /// `EVIOCGABS(code)`: (value, minimum, maximum).
    package func axis(_ code: UInt16) throws(InputDeviceError) -> (value: Int32, minimum: Int32, maximum: Int32) {
        var info = input_absinfo()
        guard tw_evdev_get_abs(handle.rawValue, UInt32(code), &info) >= 0 else {
            throw .failed(path: path, operation: "EVIOCGABS(\(code))", errno: errno)
        }
        return (info.value, info.minimum, info.maximum)
    }

    /// `EVIOCGRAB`: takes the device exclusively (`true`) or releases it.
    package func grab(_ exclusive: Bool) throws(InputDeviceError) {
        guard tw_evdev_grab(handle.rawValue, exclusive ? 1 : 0) >= 0 else {
            if errno == EBUSY { throw .busy(path: path) }
            throw .failed(path: path, operation: "EVIOCGRAB", errno: errno)
        }
    }

    /// `EVIOCGMTSLOTS(code)`: the value of multi-touch axis `code` in slots `0 ..< count` (count ≤ 64).
    package func slotValues(_ code: UInt16, count: Int) throws(InputDeviceError) -> [Int32] {
        let n = min(max(count, 1), 64)
        var values = [Int32](repeating: -1, count: n)
        let r = values.withUnsafeMutableBufferPointer {
            tw_evdev_get_mt_slots(handle.rawValue, UInt32(code), $0.baseAddress, UInt32(n))
        }
        guard r >= 0 else { throw .failed(path: path, operation: "EVIOCGMTSLOTS", errno: errno) }
        return values
    }

    /// `EVIOCGKEY`: whether key `code` (e.g. BTN_TOUCH) is down now.
    package func isKeyDown(_ code: UInt16) throws(InputDeviceError) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 96)
        let r = buffer.withUnsafeMutableBufferPointer { tw_evdev_get_keys(handle.rawValue, $0.baseAddress, $0.count) }
        guard r >= 0 else { throw .failed(path: path, operation: "EVIOCGKEY", errno: errno) }
        return Self.test(buffer, Int(code))
    }

    /// Reads whatever records are queued (non-blocking): the byte count, 0 when none.
    /// The corresponding C function is `read`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int {
        switch system_read(handle.rawValue, buffer) {
        case .success(let n): return n
        case .failure(let e) where e == .resourceTemporarilyUnavailable || e == .wouldBlock: return 0
        case .failure(let e) where e == .noSuchAddressOrDevice || e == .operationNotSupportedByDevice:
            throw .unplugged(path: path)  // evdev_read: -ENODEV once the device is gone
        case .failure(let e): throw .failed(path: path, operation: "read", errno: e.rawValue)
        }
    }

    /// Waits up to `timeoutMilliseconds` for records to read; true when some are queued.
    package func waitReadable(timeoutMilliseconds: Int) -> Bool {
        let r = (try? handle.poll(for: .readable, timeoutMilliseconds: timeoutMilliseconds)) ?? []
        return !r.isEmpty
    }

    /// The `/dev/input/eventN` nodes present, by number; empty when none or unreadable.
    package static func devicePaths(directory: String = "/dev/input") -> [String] {
        let numbers = system_listDirectory(directory).compactMap { name -> Int? in
            guard name.hasPrefix("event") else { return nil }
            return Int(name.dropFirst(5))
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }
}
