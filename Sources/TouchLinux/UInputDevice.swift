import CLinux
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why a virtual input device could not be created.
package enum UInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No /dev/uinput: the `uinput` module is not loaded.
    case missing(path: String)
    /// EACCES/EPERM on /dev/uinput.
    case permissionDenied(path: String)
    /// Anything else: what was attempted and the errno.
    case failed(operation: String, errno: Int32)

    package var description: String {
        switch self {
        case .missing(let p): return "\(p) does not exist (load the uinput module: sudo modprobe uinput)"
        case .permissionDenied(let p):
            return "permission denied opening \(p) (the Debian package gives it to group touchwire-uinput, of which "
                + "only the service's user is a member; without the package, a udev rule: KERNEL==\"uinput\", "
                + "GROUP=\"touchwire-uinput\", MODE=\"0660\", and run touchwire as a user of that group, never a "
                + "login user: whoever may write uinput can type into any session)"
        case .failed(let op, let e): return "uinput: \(op) failed (errno \(e))"
        }
    }
}

/// A virtual input device created through `/dev/uinput` (`linux/uinput.h`): a keyboard for key
/// bindings or a multi-touch touchscreen for `[passthrough]`. Move-only: destroyed
/// (`UI_DEV_DESTROY`) and closed exactly once, when dropped.
///
/// Every uinput ioctl of the package is made here: `UI_SET_EVBIT`, `UI_SET_KEYBIT`,
/// `UI_SET_ABSBIT`, `UI_SET_PROPBIT`, `UI_DEV_SETUP`, `UI_ABS_SETUP`, `UI_DEV_CREATE`,
/// `UI_DEV_DESTROY`, `UI_GET_SYSNAME`.
package struct UInputDevice: ~Copyable {
    private let handle: DescriptorHandle
    /// The device's name under /sys/devices/virtual/input ("input7"), "" when unknown.
    package let sysName: String

    /// A keyboard that can send `keys` (kernel key codes).
    package static func keyboard(name: String, keys: [Int], path: String = "/dev/uinput") throws(UInputError)
        -> UInputDevice
    {
        try UInputDevice(path: path, name: name, product: 0x0001) { fd throws(UInputError) in
            try check(tw_uinput_set_bit(fd, 0, Int32(EV_KEY)), "UI_SET_EVBIT")
            for k in Set(keys) { try check(tw_uinput_set_bit(fd, 1, Int32(k)), "UI_SET_KEYBIT") }
        }
    }

    /// One absolute axis of a virtual device: `UI_ABS_SETUP`'s code, range and resolution.
    package struct Axis: Equatable, Sendable {
        package var code: UInt16
        package var minimum: Int32
        package var maximum: Int32
        /// Units per millimetre for X/Y axes (`input_absinfo.resolution`), 0 when unknown.
        package var resolution: Int32
    }

    /// The axes of `touchscreen(…)`: ABS_X/ABS_Y and ABS_MT_POSITION_X/Y over `0 … width − 1` ×
    /// `0 … height − 1`, with the resolution (units per mm, rounded, at least 1) that
    /// `widthMillimetres × heightMillimetres` give, or 0 without them; ABS_MT_SLOT for `slots`;
    /// ABS_MT_TRACKING_ID; and ABS_MT_TOOL_TYPE up to MT_TOOL_PALM, so a cancelled touch can be
    /// marked a palm (libinput: TOUCH_CANCEL).
    package static func touchscreenAxes(
        width: Int, height: Int, slots: Int, widthMillimetres: Double? = nil, heightMillimetres: Double? = nil
    ) -> [Axis] {
        func resolution(_ pixels: Int, _ mm: Double?) -> Int32 {
            guard let mm, mm > 0 else { return 0 }
            return Int32(max(1, min((Double(pixels) / mm).rounded(), 1_000_000)))
        }
        let rx = resolution(width, widthMillimetres)
        let ry = resolution(height, heightMillimetres)
        let w = Int32(clamping: max(width, 1) - 1)
        let h = Int32(clamping: max(height, 1) - 1)
        return [
            Axis(code: UInt16(ABS_X), minimum: 0, maximum: w, resolution: rx),
            Axis(code: UInt16(ABS_Y), minimum: 0, maximum: h, resolution: ry),
            Axis(code: UInt16(ABS_MT_SLOT), minimum: 0, maximum: Int32(clamping: max(slots, 1) - 1), resolution: 0),
            Axis(code: UInt16(ABS_MT_POSITION_X), minimum: 0, maximum: w, resolution: rx),
            Axis(code: UInt16(ABS_MT_POSITION_Y), minimum: 0, maximum: h, resolution: ry),
            Axis(code: UInt16(ABS_MT_TRACKING_ID), minimum: 0, maximum: 65535, resolution: 0),
            Axis(code: UInt16(ABS_MT_TOOL_TYPE), minimum: 0, maximum: Int32(MT_TOOL_PALM), resolution: 0),
        ]
    }

    /// A direct multi-touch touchscreen (protocol B) of `width × height` pixels with `slots` slots:
    /// what a UI sees as an ordinary touchscreen; its axes are `touchscreenAxes(…)`.
    package static func touchscreen(
        name: String, width: Int, height: Int, slots: Int, widthMillimetres: Double? = nil,
        heightMillimetres: Double? = nil, path: String = "/dev/uinput"
    ) throws(UInputError) -> UInputDevice {
        try UInputDevice(path: path, name: name, product: 0x0002) { fd throws(UInputError) in
            try check(tw_uinput_set_bit(fd, 3, Int32(INPUT_PROP_DIRECT)), "UI_SET_PROPBIT")
            try check(tw_uinput_set_bit(fd, 0, Int32(EV_KEY)), "UI_SET_EVBIT")
            try check(tw_uinput_set_bit(fd, 1, Int32(BTN_TOUCH)), "UI_SET_KEYBIT")
            try check(tw_uinput_set_bit(fd, 0, Int32(EV_ABS)), "UI_SET_EVBIT")
            let axes = touchscreenAxes(
                width: width, height: height, slots: slots, widthMillimetres: widthMillimetres,
                heightMillimetres: heightMillimetres)
            for a in axes {
                try check(tw_uinput_set_bit(fd, 2, Int32(a.code)), "UI_SET_ABSBIT")
                try check(tw_uinput_abs_setup(fd, a.code, a.minimum, a.maximum, a.resolution), "UI_ABS_SETUP")
            }
        }
    }

    private static func check(_ result: Int32, _ operation: String) throws(UInputError) {
        if result < 0 { throw .failed(operation: operation, errno: errno) }
    }

    private init(
        path: String, name: String, product: UInt16, configure: (CInt) throws(UInputError) -> Void
    ) throws(UInputError) {
        let fd: CInt
        switch system_open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) {
        case .success(let d): fd = d
        case .failure(let e):
            switch e {
            case .noSuchFileOrDirectory, .noSuchAddressOrDevice, .operationNotSupportedByDevice:
                throw .missing(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            default: throw .failed(operation: "open \(path)", errno: e.rawValue)
            }
        }
        let handle = DescriptorHandle(adopting: fd)
        try configure(fd)
        try Self.check(tw_uinput_setup(fd, name, 0x7477, product), "UI_DEV_SETUP")
        try Self.check(tw_uinput_create(fd, 1), "UI_DEV_CREATE")
        var buffer = [CChar](repeating: 0, count: 64)
        let named = buffer.withUnsafeMutableBufferPointer { tw_uinput_sysname(fd, $0.baseAddress, 63) } >= 0
        sysName = named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        self.handle = handle
    }

    deinit { _ = tw_uinput_create(handle.rawValue, 0) }

    /// `UI_DEV_DESTROY`: the virtual device leaves /dev/input now (a board reload creates the new
    /// board's before this one is freed); later writes fail. Idempotent (deinit's second destroy
    /// is refused by the kernel, harmlessly).
    package func destroy() { _ = tw_uinput_create(handle.rawValue, 0) }

    /// Writes whole `input_event` records (see `InputEvent.encode`). Returns false when the kernel
    /// did not take them all (the device's queue is full); never blocks.
    /// The corresponding C function is `write`.
    package func write(_ records: UnsafeRawBufferPointer) -> Bool {
        (try? handle.write(records)) == records.count
    }
}
