import TouchCore
import TouchDrivers

/// An evdev-shaped simulated touchscreen: shown frames (`present`), it queues the
/// `input_event` records a kernel multi-touch driver would emit for them (protocol B through
/// `input_mt`: slot, tracking id, position, `SYN_REPORT`), and answers the state ioctls
/// (`snapshot`) from its current contacts. It enters through the same `InputEventSource`
/// protocol as `/dev/input/eventN`, so `EvdevController` cannot tell the difference.
///
/// `overflow()` simulates the kernel's buffer overflowing: queued records are thrown away and
/// a `SYN_DROPPED` takes their place, while the device state moves on.
///
/// A `SimulatedTouchWorld` drives it as `.inputDevice` (no I2C bus). Single-threaded.
package final class SimulatedInputDevice: InputEventSource, TouchPresenting {
    package let path = "sim"
    package let name: String
    package let geometry: EvdevGeometry
    /// Raw script coordinates are `0 … scriptWidth − 1`; they are scaled onto the axis ranges.
    package let scriptWidth: Int
    package let scriptHeight: Int

    private var queue: [UInt8] = []
    private var readOffset = 0
    /// Slot → (tracking id, x, y); the contact id of the script is the slot.
    private var trackingIDs: [Int32]
    private var xs: [Int32]
    private var ys: [Int32]
    private var encoder: MultiTouchEncoder
    private var events: [InputEvent] = []
    /// Records queued so far.
    package private(set) var eventsQueued = 0

    package init(
        name: String = "touchwire simulated touchscreen", geometry: EvdevGeometry, scriptWidth: Int, scriptHeight: Int
    ) {
        self.name = name
        self.geometry = geometry
        self.scriptWidth = max(scriptWidth, 1)
        self.scriptHeight = max(scriptHeight, 1)
        let n = geometry.multiTouch ? geometry.slotCount : 1
        encoder = MultiTouchEncoder(slots: n)
        trackingIDs = [Int32](repeating: -1, count: n)
        xs = [Int32](repeating: 0, count: n)
        ys = [Int32](repeating: 0, count: n)
    }

    /// A multi-touch device whose axes are exactly the script's raw range (no rounding).
    package convenience init(scriptWidth: Int, scriptHeight: Int, slots: Int = 10) {
        self.init(
            geometry: EvdevGeometry(
                multiTouch: true, x: AxisRange(minimum: 0, maximum: Int32(max(scriptWidth, 1) - 1)),
                y: AxisRange(minimum: 0, maximum: Int32(max(scriptHeight, 1) - 1)), slotCount: slots),
            scriptWidth: scriptWidth, scriptHeight: scriptHeight)
    }

    /// A script coordinate on the axis, held within the axis range as a device reports it
    /// (a contact at x = 3e9, NaN or ∞ used to trap converting to `Int32`).
    private func axisValue(_ v: Double, _ size: Int, _ range: AxisRange) -> Int32 {
        let span = Double(range.maximum) - Double(range.minimum)
        let scaled = Double(range.minimum) + (v * span / Double(max(size - 1, 1))).rounded()
        return min(max(Int32(saturating: scaled), range.minimum), range.maximum)
    }

    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        InputEvent(type: type, code: code, value: value).encode(into: &queue)
        eventsQueued += 1
    }

    /// Queues the records that take the device from its current contacts to `frame`'s
    /// (`MultiTouchEncoder` for protocol B). A cancel frame lifts every contact (a real device cannot cancel).
    package func present(_ frame: TouchFrame) {
        var changed = false
        if geometry.multiTouch {
            events.removeAll(keepingCapacity: true)
            encoder.encode(
                frame, into: &events, mapX: { [self] in axisValue($0, scriptWidth, geometry.x) },
                mapY: { [self] in axisValue($0, scriptHeight, geometry.y) })
            for e in events { emit(e.type, e.code, e.value) }
            trackingIDs = encoder.currentTrackingIDs
            xs = encoder.currentXs
            ys = encoder.currentYs
            return
        } else {
            let c = frame.isCancel ? nil : (frame.count > 0 ? frame[0] : nil)
            if let c {
                let x = axisValue(c.position.x, scriptWidth, geometry.x)
                let y = axisValue(c.position.y, scriptHeight, geometry.y)
                if trackingIDs[0] < 0 {
                    trackingIDs[0] = 0
                    emit(EvdevCode.EV_KEY, EvdevCode.BTN_TOUCH, 1)
                    changed = true
                }
                if x != xs[0] {
                    emit(EvdevCode.EV_ABS, EvdevCode.ABS_X, x)
                    changed = true
                }
                if y != ys[0] {
                    emit(EvdevCode.EV_ABS, EvdevCode.ABS_Y, y)
                    changed = true
                }
                xs[0] = x
                ys[0] = y
            } else if trackingIDs[0] >= 0 {
                trackingIDs[0] = -1
                emit(EvdevCode.EV_KEY, EvdevCode.BTN_TOUCH, 0)
                changed = true
            }
        }
        if changed { emit(EvdevCode.EV_SYN, EvdevCode.SYN_REPORT, 0) }
    }

    /// The kernel's buffer overflowed: the queued records are lost and `SYN_DROPPED` is read instead.
    package func overflow() {
        queue.removeAll(keepingCapacity: true)
        readOffset = 0
        emit(EvdevCode.EV_SYN, EvdevCode.SYN_DROPPED, 0)
    }

    /// Bytes queued and not yet read.
    package var pendingBytes: Int { queue.count - readOffset }

    package func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry) { (name, geometry) }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int {
        // Whole records only, as evdev's read does.
        let n = min(pendingBytes, buffer.count / InputEvent.byteCount * InputEvent.byteCount)
        guard n > 0 else { return 0 }
        queue.withUnsafeBytes { src in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[readOffset..<(readOffset + n)]))
        }
        readOffset += n
        if readOffset == queue.count {
            queue.removeAll(keepingCapacity: true)
            readOffset = 0
        }
        return n
    }

    package func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot {
        EvdevSnapshot(trackingIDs: trackingIDs, xs: xs, ys: ys)
    }

    package func waitReadable(timeoutMicroseconds: Int64) -> Bool { pendingBytes > 0 }
}
