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
    /// BTN_TOOL_PEN or BTN_STYLUS present: a pen (udev: a tablet).
    package var hasPen: Bool = false
    /// BTN_TOOL_FINGER present.
    package var hasFingerTool: Bool = false
    /// BTN_LEFT present.
    package var hasMouseButton: Bool = false
    /// ABS_Z present (with ABS_X/Y and no keys: an accelerometer).
    package var hasZ: Bool = false
    /// EV_KEY present.
    package var hasKeys: Bool = true
    /// INPUT_PROP_ACCELEROMETER.
    package var isAccelerometer: Bool = false
    /// ABS_MT_SLOT − 1 (0x2e) present: a device claiming every axis (udev then ignores its MT axes).
    package var claimsEveryAxis: Bool = false

    package init(
        name: String, isDirect: Bool, hasSlots: Bool, hasMultiTouchPosition: Bool, hasPosition: Bool,
        hasTouchButton: Bool, hasPen: Bool = false, hasFingerTool: Bool = false, hasMouseButton: Bool = false,
        hasZ: Bool = false, hasKeys: Bool = true, isAccelerometer: Bool = false, claimsEveryAxis: Bool = false
    ) {
        self.name = name
        self.isDirect = isDirect
        self.hasSlots = hasSlots
        self.hasMultiTouchPosition = hasMultiTouchPosition
        self.hasPosition = hasPosition
        self.hasTouchButton = hasTouchButton
        self.hasPen = hasPen
        self.hasFingerTool = hasFingerTool
        self.hasMouseButton = hasMouseButton
        self.hasZ = hasZ
        self.hasKeys = hasKeys
        self.isAccelerometer = isAccelerometer
        self.claimsEveryAxis = claimsEveryAxis
    }

    /// Why the device is not a touchscreen touchwire reads, or nil when it is one.
    ///
    /// A touchscreen is what udev tags `ID_INPUT_TOUCHSCREEN` (systemd's `input_id` builtin,
    /// `test_pointers`): absolute X/Y or multi-touch X/Y axes, no pen or stylus (a tablet),
    /// not a finger tool without INPUT_PROP_DIRECT (a touchpad), no left button with the
    /// single-touch axes (a mouse), and BTN_TOUCH or INPUT_PROP_DIRECT — so a USB HID panel
    /// without INPUT_PROP_DIRECT (N-Trig) is one. touchwire then also needs BTN_TOUCH to tell a
    /// finger down on a device with only single-touch axes.
    package var refusal: String? {
        let mt = hasMultiTouchPosition && !(hasSlots && claimsEveryAxis)
        if isAccelerometer || (!hasKeys && hasPosition && hasZ) {
            return "it is an accelerometer (udev: ID_INPUT_ACCELEROMETER)"
        }
        guard hasPosition || mt else {
            return "it has no absolute X/Y axes (ABS_X/ABS_Y or ABS_MT_POSITION_X/Y)"
        }
        if hasPen {
            return "it reports a pen (BTN_TOOL_PEN or BTN_STYLUS): udev tags it a tablet (ID_INPUT_TABLET), "
                + "and the UI reads it as a pen, not as touches"
        }
        if hasFingerTool && !isDirect {
            return "it is a touchpad (BTN_TOOL_FINGER without INPUT_PROP_DIRECT; udev: ID_INPUT_TOUCHPAD)"
        }
        let touchscreen = hasTouchButton || isDirect
        if !mt && hasMouseButton {
            return "it is an absolute mouse (BTN_LEFT; udev: ID_INPUT_MOUSE), as a VM's tablet pointer is"
        }
        guard touchscreen else {
            return "it has neither BTN_TOUCH nor INPUT_PROP_DIRECT, so udev does not tag it a touchscreen"
        }
        if !mt && !hasTouchButton {
            return "it has no BTN_TOUCH: with only single-touch axes a finger down cannot be told from one up"
        }
        return nil
    }

    /// A touchscreen as touchwire reads it: protocol B, protocol A, or single-touch with BTN_TOUCH.
    package var isTouchscreen: Bool { refusal == nil }

    /// Multi-touch protocol A: multi-touch axes without slots.
    package var isProtocolA: Bool { hasMultiTouchPosition && !hasSlots }
}

/// An open Linux input device, `/dev/input/eventN` (the `evdev` interface). Move-only: one owner,
/// closed (and ungrabbed, as closing releases a grab) when dropped.
///
/// Every evdev ioctl of the package is made here: `EVIOCGNAME`, `EVIOCGBIT`, `EVIOCGPROP`,
/// `EVIOCGABS`, `EVIOCGRAB`, `EVIOCGMTSLOTS`, `EVIOCGKEY`, `EVIOCSCLOCKID` (`linux/input.h`; through the
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
        let types = try bits(type: 0)
        let abs = try bits(type: UInt32(EV_ABS))
        let keys = try bits(type: UInt32(EV_KEY))
        let props = try bits(type: 0, properties: true)
        return InputDeviceCapabilities(
            name: name(), isDirect: Self.test(props, Int(INPUT_PROP_DIRECT)),
            hasSlots: Self.test(abs, Int(ABS_MT_SLOT)),
            hasMultiTouchPosition: Self.test(abs, Int(ABS_MT_POSITION_X)) && Self.test(abs, Int(ABS_MT_POSITION_Y)),
            hasPosition: Self.test(abs, Int(ABS_X)) && Self.test(abs, Int(ABS_Y)),
            hasTouchButton: Self.test(keys, Int(BTN_TOUCH)),
            hasPen: Self.test(keys, Int(BTN_TOOL_PEN)) || Self.test(keys, Int(BTN_STYLUS)),
            hasFingerTool: Self.test(keys, Int(BTN_TOOL_FINGER)), hasMouseButton: Self.test(keys, Int(BTN_LEFT)),
            hasZ: Self.test(abs, Int(ABS_Z)), hasKeys: Self.test(types, Int(EV_KEY)),
            isAccelerometer: Self.test(props, Int(INPUT_PROP_ACCELEROMETER)),
            claimsEveryAxis: Self.test(abs, Int(ABS_MT_SLOT) - 1))
    }

    /// `EVIOCSCLOCKID(CLOCK_MONOTONIC)`: the records' times on `CLOCK_MONOTONIC` (the pipeline's
    /// clock) instead of the default `CLOCK_REALTIME`. False when the kernel refused.
    package func setMonotonicClock() -> Bool { tw_evdev_set_clock_monotonic(handle.rawValue) >= 0 }

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
