import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Readiness conditions for `poll(2)` (`POLLIN`, `POLLOUT`, …) with Swift names.
package struct PollEvents: OptionSet, Sendable, Hashable {
    package var rawValue: Int16
    package init(rawValue: Int16) { self.rawValue = rawValue }
    /// Data to read. The corresponding C constant is `POLLIN`.
    package static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// Room to write. The corresponding C constant is `POLLOUT`.
    package static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// An error condition. The corresponding C constant is `POLLERR`.
    package static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The other side hung up. The corresponding C constant is `POLLHUP`.
    package static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
}

/// An open file descriptor that this value owns: it is closed exactly once, when the handle
/// is dropped or `close()` is called. Move-only, so a descriptor can be neither leaked by a
/// copy nor closed twice.
///
/// Sendable because ownership is unique: whoever holds the handle is the only user of the descriptor.
package struct DescriptorHandle: ~Copyable, Sendable {
    /// The raw descriptor number.
    package let rawValue: CInt

    /// Takes ownership of `rawValue` (which must be open and owned by nobody else).
    package init(adopting rawValue: CInt) { self.rawValue = rawValue }

    /// The descriptor as swift-system's `FileDescriptor`, for borrowing only: it is closed with this handle.
    package var descriptor: FileDescriptor { FileDescriptor(rawValue: rawValue) }

    deinit { _ = system_close(rawValue) }

    /// Closes the descriptor now and reports the error `close` gives (the descriptor is released anyway).
    /// The corresponding C function is `close`.
    package consuming func close() throws(Errno) {
        let fd = rawValue
        discard self
        try system_close(fd).get()
    }

    /// Writes once; see `DescriptorIO.write(_:_:)`.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try DescriptorIO.write(descriptor, bytes)
    }

    /// Reads once; see `DescriptorIO.read(_:into:)`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try DescriptorIO.read(descriptor, into: buffer)
    }

    /// Waits for readiness; see `DescriptorIO.poll(_:for:timeoutMilliseconds:)`.
    package func poll(for events: PollEvents, timeoutMilliseconds: Int) throws(Errno) -> PollEvents {
        try DescriptorIO.poll(descriptor, for: events, timeoutMilliseconds: timeoutMilliseconds)
    }
}

/// Both ends of a pipe, each owned and closed on drop.
package struct DescriptorPipe: ~Copyable, Sendable {
    package var readEnd: DescriptorHandle
    package var writeEnd: DescriptorHandle

    /// Opens a pipe with `O_CLOEXEC`. The corresponding C function is `pipe2`.
    package init() throws(Errno) {
        let (r, w) = try system_pipe().get()
        readEnd = DescriptorHandle(adopting: r)
        writeEnd = DescriptorHandle(adopting: w)
    }
}

/// Plain I/O on descriptors the caller may not own (standard output, standard error).
package enum DescriptorIO {
    /// Writes as many of `bytes` as the descriptor takes now; returns the count (0 for an empty
    /// buffer). EINTR is retried; a full non-blocking descriptor throws `Errno.resourceTemporarilyUnavailable`.
    /// The corresponding C function is `write`.
    package static func write(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try system_write(fd.rawValue, bytes).get()
    }

    /// Writes all of `bytes`, looping over partial writes and, on a non-blocking descriptor,
    /// waiting up to `timeoutMilliseconds` each time it is full. Throws the first other error,
    /// or `Errno.timedOut` when the descriptor stays full.
    /// The corresponding C functions are `write` and `poll`.
    package static func writeAll(
        _ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, timeoutMilliseconds: Int = 1000
    ) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            switch system_write(fd.rawValue, UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
            case .success(let n): offset += n
            case .failure(let e) where e == .resourceTemporarilyUnavailable || e == .wouldBlock:
                let ready = try poll(fd, for: .writable, timeoutMilliseconds: timeoutMilliseconds)
                if ready.isEmpty { throw Errno.timedOut }
            case .failure(let e): throw e
            }
        }
    }

    /// Sets or clears `O_NONBLOCK` on the open file description behind `fd` and returns whether
    /// it was set before (so the caller can put it back: the description may be shared with the
    /// shell that started the process). The corresponding C function is `fcntl` (F_GETFL/F_SETFL).
    @discardableResult
    package static func setNonBlocking(_ fd: FileDescriptor, _ on: Bool) throws(Errno) -> Bool {
        let flags = try system_getStatusFlags(fd.rawValue).get()
        let was = flags & O_NONBLOCK != 0
        if was != on {
            try system_setStatusFlags(fd.rawValue, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK).get()
        }
        return was
    }

    /// Reads once into `buffer`; returns the count, 0 at end of file. EINTR is retried.
    /// The corresponding C function is `read`.
    package static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try system_read(fd.rawValue, buffer).get()
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for `events`; returns the events
    /// that occurred (empty on timeout; may include `.error`/`.hangUp`).
    /// The corresponding C function is `poll`.
    package static func poll(
        _ fd: FileDescriptor, for events: PollEvents, timeoutMilliseconds: Int
    ) throws(Errno) -> PollEvents {
        PollEvents(
            rawValue: try system_poll(fd.rawValue, events: events.rawValue, timeoutMilliseconds: timeoutMilliseconds)
                .get())
    }
}
