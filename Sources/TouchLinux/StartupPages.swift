import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Gives back the page-table entries of the process's code once start-up is over, so that code
/// run only at start (the dynamic loader's work, argument parsing, the board file's TOML parser,
/// the runtime's first metadata look-ups) stops counting in the resident set.
///
/// Why it matters: a read fault on a file mapping maps the whole 64 KiB window around the page
/// that is already in the page cache ("fault-around"), so ~120 scattered first touches at start
/// leave ~7.5 MiB of a 12 MiB `.text` resident for good. Afterwards the loops fault back in only
/// what they run.
///
/// Only executable (`r-xp`) file mappings are released: they are never written, so dropping a page
/// loses nothing (the next access maps it again from the page cache, a minor fault). Writable and
/// read-only data mappings are left alone (`.data.rel.ro` was written by relocations before it was
/// made read-only: dropping it would bring back the unrelocated file contents). With memory locked
/// (`mlockall`) the kernel refuses (`EINVAL`) and nothing changes.
/// The corresponding C functions are `madvise(MADV_DONTNEED)` and a read of `/proc/self/maps`.
package enum StartupPages {
    /// One address range of `/proc/PID/maps`.
    package struct Mapping: Equatable, Sendable {
        package var start: UInt
        package var end: UInt
        package var bytes: UInt { end - start }
        package init(start: UInt, end: UInt) {
            self.start = start
            self.end = end
        }
    }

    /// The executable file mappings in `maps` (the text of `/proc/PID/maps`): permissions
    /// `r-xp` and a path (not `[vdso]`, `[vsyscall]` or an anonymous mapping).
    package static func executableFileMappings(in maps: String) -> [Mapping] {
        var out: [Mapping] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].first == "/" else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start
            else { continue }
            out.append(Mapping(start: start, end: end))
        }
        return out
    }

    /// Releases the page-table entries of every executable file mapping of this process. Returns
    /// the bytes of address space advised (0 when `/proc/self/maps` cannot be read or the kernel
    /// refused, as it does for locked memory).
    @discardableResult
    package static func release() -> UInt {
        guard let maps = RealTime.readSmallFile("/proc/self/maps") else { return 0 }
        var released: UInt = 0
        for m in executableFileMappings(in: maps) {
            guard let address = UnsafeMutableRawPointer(bitPattern: m.start) else { continue }
            if madvise(address, Int(m.bytes), MADV_DONTNEED) == 0 { released += m.bytes }
        }
        return released
    }
}
