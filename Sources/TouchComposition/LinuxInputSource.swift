import TouchCore
import TouchDrivers
import TouchLinux

/// A real `/dev/input/eventN` as an `InputEventSource`.
package final class LinuxInputSource: InputEventSource {
    package private(set) var path: String
    private var device: EvdevDevice
    private let grab: Bool
    /// The board's `name = "…"`, looked up again on `reopen` (the node number may change on replug).
    private let name: String?
    /// True while this source holds the device's grab.
    private var grabbed: Bool
    /// The device's event times are on `CLOCK_MONOTONIC` (`EVIOCSCLOCKID` accepted).
    package private(set) var monotonicTimestamps: Bool

    /// Opens the device, checks it is a touchscreen and, with `grab`, takes it exclusively.
    /// `name`: the device name it was found by, if any (see `reopen`).
    /// - Throws: `.missing`, `.permissionDenied` (group `input`), `.notATouchscreen`, `.busy`.
    package init(path: String, grab: Bool, name: String? = nil) throws(InputDeviceError) {
        self.device = try Self.open(path, grab: grab)
        self.monotonicTimestamps = device.setMonotonicClock()
        self.path = path
        self.grab = grab
        self.grabbed = grab
        self.name = name
    }

    private static func open(_ path: String, grab: Bool) throws(InputDeviceError) -> EvdevDevice {
        let device = try EvdevDevice(path: path)
        let caps = try device.capabilities()
        if let reason = caps.refusal { throw .notATouchscreen(path: path, name: caps.name, reason: reason) }
        if grab { try device.grab(true) }
        return device
    }

    /// Opens the device again (the same node, or the one with the same name) and closes the old one.
    package func reopen() throws(InputDeviceError) {
        let next = try name.map { n throws(InputDeviceError) in try Self.find(name: n) } ?? path
        if grabbed { try? device.grab(false) }  // the old descriptor's grab would make the new one EBUSY
        grabbed = false
        device = try Self.open(next, grab: grab)
        monotonicTimestamps = device.setMonotonicClock()
        grabbed = grab
        path = next
    }

    /// Releases the grab (`EVIOCGRAB` 0) so a reloaded board can take the device; the descriptor
    /// itself closes when the source is freed.
    package func close() {
        guard grabbed else { return }
        grabbed = false
        try? device.grab(false)
    }

    /// The first touchscreen whose name is `name` (exactly, else the only one containing it).
    /// When it is not found and some devices could not be opened for lack of permission, that is
    /// the error (the fix is group `input`, not another name).
    package static func find(name: String, directory: String = "/dev/input") throws(InputDeviceError) -> String {
        var found: [(path: String, name: String)] = []
        var denied: String? = nil
        for p in EvdevDevice.devicePaths(directory: directory) {
            do throws(InputDeviceError) {
                let d = try EvdevDevice(path: p)
                found.append((p, d.name()))
            } catch {
                if case .permissionDenied = error, denied == nil { denied = p }
            }
        }
        if let exact = found.first(where: { $0.name == name }) { return exact.path }
        let partial = found.filter { $0.name.firstRange(of: name) != nil }
        if partial.count == 1 { return partial[0].path }
        if let denied { throw .permissionDenied(path: denied) }
        throw .noDeviceNamed(name, available: found.map { "\($0.path): \($0.name)" })
    }

    package func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry) {
        let caps = try device.capabilities()
        if caps.hasSlots && caps.hasMultiTouchPosition {
            let x = try device.axis(EvdevCode.ABS_MT_POSITION_X)
            let y = try device.axis(EvdevCode.ABS_MT_POSITION_Y)
            let slots = try device.axis(EvdevCode.ABS_MT_SLOT)
            return (
                caps.name,
                EvdevGeometry(
                    multiTouch: true, x: AxisRange(minimum: x.minimum, maximum: x.maximum),
                    y: AxisRange(minimum: y.minimum, maximum: y.maximum), slotCount: Int(slots.maximum) + 1)
            )
        }
        if caps.isProtocolA {
            let x = try device.axis(EvdevCode.ABS_MT_POSITION_X)
            let y = try device.axis(EvdevCode.ABS_MT_POSITION_Y)
            return (
                caps.name,
                EvdevGeometry(
                    multiTouch: true, x: AxisRange(minimum: x.minimum, maximum: x.maximum),
                    y: AxisRange(minimum: y.minimum, maximum: y.maximum), slotCount: 0, protocolA: true)
            )
        }
        let x = try device.axis(EvdevCode.ABS_X)
        let y = try device.axis(EvdevCode.ABS_Y)
        return (
            caps.name,
            EvdevGeometry(
                multiTouch: false, x: AxisRange(minimum: x.minimum, maximum: x.maximum),
                y: AxisRange(minimum: y.minimum, maximum: y.maximum), slotCount: 1)
        )
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int {
        try device.read(into: buffer)
    }

    package func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot {
        if multiTouch {
            let n = min(slotCount, EvdevDecoder.maxSlots)
            return EvdevSnapshot(
                trackingIDs: try device.slotValues(EvdevCode.ABS_MT_TRACKING_ID, count: n),
                xs: try device.slotValues(EvdevCode.ABS_MT_POSITION_X, count: n),
                ys: try device.slotValues(EvdevCode.ABS_MT_POSITION_Y, count: n))
        }
        let down = try device.isKeyDown(EvdevCode.BTN_TOUCH)
        return EvdevSnapshot(
            trackingIDs: [down ? 0 : -1], xs: [try device.axis(EvdevCode.ABS_X).value],
            ys: [try device.axis(EvdevCode.ABS_Y).value])
    }

    package func waitReadable(timeoutMicroseconds: Int64) -> Bool {
        device.waitReadable(timeoutMilliseconds: Int(max(0, (timeoutMicroseconds + 999) / 1000)))
    }
}
