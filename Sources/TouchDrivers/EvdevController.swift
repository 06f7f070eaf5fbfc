import TouchCore

/// Where an `EvdevController` reads `input_event` records: a real `/dev/input/eventN`
/// (`LinuxInputSource`) or the evdev-shaped simulated device. Called from the driver thread only.
package protocol InputEventSource: AnyObject {
    /// The node or a label for logs ("/dev/input/event3", "sim").
    var path: String { get }
    /// The device's name and axes.
    func describe() throws(InputDeviceError) -> (name: String, geometry: EvdevGeometry)
    /// Reads queued records into `buffer` without waiting; 0 when none.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputDeviceError) -> Int
    /// The kernel's current touch state (after SYN_DROPPED), for `slotCount` slots.
    func snapshot(slotCount: Int, multiTouch: Bool) throws(InputDeviceError) -> EvdevSnapshot
    /// Waits up to `timeoutMicroseconds` for records; true when some are queued.
    func waitReadable(timeoutMicroseconds: Int64) -> Bool
    /// Opens the device again after it went away (a restart after read errors): the same node, or
    /// the device with the same name, checked and grabbed as at setup. Sources that cannot go
    /// away do nothing (the default).
    func reopen() throws(InputDeviceError)
    /// Gives up what the source holds exclusively (`EVIOCGRAB`). The default does nothing.
    func close()
    /// True when the records' times are on `CLOCK_MONOTONIC`, the pipeline's clock (a device
    /// set with `EVIOCSCLOCKID`): frames then carry the kernel's time of their `SYN_REPORT`.
    /// False (the default): records carry no usable time and frames are stamped when read.
    var monotonicTimestamps: Bool { get }
}

extension InputEventSource {
    package func reopen() throws(InputDeviceError) {}
    package func close() {}
    package var monotonicTimestamps: Bool { false }
}

/// A touch controller that is a Linux input device (`[controller] chip = "evdev"`): the kernel's
/// driver keeps the panel and touchwire reads the same events as the UI (passive), or takes the
/// device with `EVIOCGRAB` when the board says `grab = true`.
///
/// Conforms to the same `TouchInputSource` protocol as the I2C drivers: `readFrame` returns one
/// frame per `SYN_REPORT`, in raw coordinates scaled from the device's axis ranges onto
/// `rawWidth × rawHeight` (the driver stage then applies the board's orientation and calibration).
/// `interruptInput` is the device's readability, so the driver thread sleeps until an event
/// arrives, as on an INT line. Errors are `TouchInputError.device`, naming the device.
///
/// Time: when the source's records are on `CLOCK_MONOTONIC` (`monotonicTimestamps`), a frame
/// carries the kernel's time of its `SYN_REPORT` — when the finger moved, not when touchwire
/// read it — never later than the read and never before the previous frame (`stampsFrames`).
package final class EvdevController<Source: InputEventSource>: TouchInputSource {
    package let source: Source
    package let rawWidth: Int
    package let rawHeight: Int
    package private(set) var identity: ControllerIdentity?
    package private(set) var counters = DriverCounters()
    package private(set) var decoder: EvdevDecoder?
    private let timing: DriverTiming
    private var buffer: [UInt8]
    private var filled = 0
    private var consumed = 0
    private var readiness: EvdevReadiness<Source>?
    /// The time of the last frame returned (frames never go back in time).
    private var lastStamp = Instant.zero

    /// `rawWidth × rawHeight`: the raw range of the frames (the transform's raw size).
    package init(source: Source, rawWidth: Int, rawHeight: Int, timing: DriverTiming) {
        self.source = source
        self.rawWidth = rawWidth
        self.rawHeight = rawHeight
        self.timing = timing
        buffer = [UInt8](repeating: 0, count: 64 * InputEvent.byteCount)
    }

    /// Releases the device's grab (`InputEventSource.close()`); `start()` is needed again.
    package func close() {
        readiness = nil
        decoder = nil
        source.close()
    }

    /// Reads the device's axes and starts decoding. Throws when it is no touchscreen. A restart
    /// (the driver stage re-initialises after repeated read errors, e.g. an unplugged USB panel)
    /// first reopens the device, so a panel that comes back is read again.
    package func start() throws(TouchInputError) {
        let info: (name: String, geometry: EvdevGeometry)
        do throws(InputDeviceError) {
            if decoder != nil { try source.reopen() }
            info = try source.describe()
        } catch {
            throw .device(error)
        }
        decoder = EvdevDecoder(geometry: info.geometry, rawWidth: rawWidth, rawHeight: rawHeight)
        filled = 0
        consumed = 0
        let g = info.geometry
        identity = ControllerIdentity(
            chipName: "evdev \"\(info.name)\"",
            resolutionWidth: Int(g.x.maximum - g.x.minimum) + 1, resolutionHeight: Int(g.y.maximum - g.y.minimum) + 1,
            note: g.protocolDescription, device: source.path)
        readiness = EvdevReadiness(controller: self)
    }

    /// The next frame a `SYN_REPORT` completes among the queued records, or nil when none is
    /// complete yet. After a `SYN_DROPPED`, the kernel's state is read and the decoder resynchronised.
    package func readFrame(at timestamp: Instant) throws(TouchInputError) -> TouchFrame? {
        guard var d = decoder else {
            throw .device(.failed(path: source.path, operation: "read before start", errno: 0))
        }
        defer { decoder = d }
        while true {
            if d.needsResync {
                let snap: EvdevSnapshot
                do throws(InputDeviceError) {
                    // Protocol A has no state to read: every report lists every contact.
                    snap =
                        d.geometry.protocolA
                        ? EvdevSnapshot(trackingIDs: [], xs: [], ys: [])
                        : try source.snapshot(slotCount: d.geometry.slotCount, multiTouch: d.geometry.multiTouch)
                } catch {
                    // Without the kernel's state nothing can be trusted: cancel everything down.
                    snap = EvdevSnapshot(trackingIDs: [], xs: [], ys: [])
                }
                counters.framesRejected += 1
                if let f = d.resync(snap, at: timestamp) {
                    counters.framesRead += 1
                    if stampsFrames { lastStamp = f.timestamp }
                    return f
                }
            }
            while consumed + InputEvent.byteCount <= filled {
                let (event, time) = buffer.withUnsafeBytes {
                    (InputEvent.decode($0, at: consumed), InputEvent.decodeTime($0, at: consumed))
                }
                consumed += InputEvent.byteCount
                let isReport = event.type == EvdevCode.EV_SYN && event.code == EvdevCode.SYN_REPORT
                if let f = d.consume(event, at: isReport ? stamp(time, readAt: timestamp) : timestamp) {
                    counters.framesRead += 1
                    if stampsFrames { lastStamp = f.timestamp }
                    return f
                }
                if d.needsResync { break }
            }
            if d.needsResync { continue }
            // Keep a partial record (never happens with evdev, which reads whole records).
            let rest = filled - consumed
            if rest > 0 && consumed > 0 {
                let (from, to) = (consumed, filled)
                buffer.withUnsafeMutableBytes { b in
                    b.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[from..<to]))
                }
            }
            filled = rest
            consumed = 0
            let start = filled
            let result = buffer.withUnsafeMutableBytes { b -> Result<Int, InputDeviceError> in
                do throws(InputDeviceError) {
                    return .success(try source.read(into: UnsafeMutableRawBufferPointer(rebasing: b[start...])))
                } catch {
                    return .failure(error)
                }
            }
            let n: Int
            switch result {
            case .success(let count): n = count
            case .failure(let error):
                counters.readErrors += 1
                throw .device(error)
            }
            if n == 0 { return nil }
            filled += n
        }
    }

    /// Frames carry the kernel's event times (the source reports on `CLOCK_MONOTONIC`).
    package var stampsFrames: Bool { source.monotonicTimestamps }

    /// A `SYN_REPORT`'s frame time: the record's time when the source's times are monotonic,
    /// clamped between the previous frame and the read; else the read time.
    private func stamp(_ time: Instant, readAt read: Instant) -> Instant {
        guard stampsFrames, time > .zero else { return read }
        return max(min(time, read), lastStamp)
    }

    /// True when decoded-but-unreturned records are buffered (more frames may be complete).
    var hasBufferedRecords: Bool { consumed + InputEvent.byteCount <= filled }

    /// The device's readability as an edge source (set by `start()`).
    package var interruptInput: (any GPIOInput)? { readiness }

    fileprivate func waitForInput(timeoutMicroseconds: Int64) -> GPIOEdgeEvent? {
        if hasBufferedRecords || decoder?.needsResync == true
            || source.waitReadable(timeoutMicroseconds: timeoutMicroseconds)
        {
            return GPIOEdgeEvent(rising: true, timestamp: timing.now())
        }
        return nil
    }

    /// SYN_DROPPED records seen so far (the kernel's buffer overflowed).
    package var dropsSeen: Int { decoder?.dropsSeen ?? 0 }
}

/// An evdev device's readability presented as an INT line: an "edge" whenever records are queued.
final class EvdevReadiness<Source: InputEventSource>: GPIOInput {
    unowned let controller: EvdevController<Source>
    let id = GPIOLineID(chip: "evdev", offset: 0)

    init(controller: EvdevController<Source>) { self.controller = controller }

    func isActive() throws(GPIOError) -> Bool { controller.waitForInput(timeoutMicroseconds: 0) != nil }

    func waitForEdge(timeoutMicroseconds: Int64) throws(GPIOError) -> GPIOEdgeEvent? {
        controller.waitForInput(timeoutMicroseconds: timeoutMicroseconds)
    }
}
