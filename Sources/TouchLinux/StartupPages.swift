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
/// Executable (`r-xp`) file mappings are released whole: they are never written, so dropping a
/// page loses nothing (the next access maps it again from the page cache, a minor fault).
/// Read-only data (`r--p`: the loader's symbol tables and relocations, `.rodata`, RELRO) is
/// released page by page, only the pages still as in the file (`/proc/self/pagemap`: present and
/// file-backed): a page written before it was made read-only (a relocated `.data.rel.ro` page) is
/// a private copy and is kept — dropping it would bring back the unrelocated file contents — and
/// nothing can write a read-only page meanwhile. Writable mappings are left alone (a thread may
/// write a clean page between the check and the release). With memory locked (`mlockall`) the
/// kernel refuses (`EINVAL`) and nothing changes.
/// The corresponding C functions are `madvise(MADV_DONTNEED)`, a read of `/proc/self/maps` and
/// `pread` of `/proc/self/pagemap`.
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
        mappings(in: maps, permissions: "r-xp")
    }

    /// The read-only file mappings in `maps`: permissions `r--p` and a path.
    package static func readOnlyFileMappings(in maps: String) -> [Mapping] {
        mappings(in: maps, permissions: "r--p")
    }

    /// The runs of pages of a mapping starting at `start` that are still the file's own pages:
    /// `entries` are its pages' `/proc/PID/pagemap` entries, in order (bit 63: present; bit 61:
    /// file page or shared anonymous; a private copy, written once, has bit 61 clear).
    package static func filePageRuns(start: UInt, pageSize: UInt, entries: [UInt64]) -> [Mapping] {
        var runs: [Mapping] = []
        var runStart: UInt? = nil
        for (i, e) in entries.enumerated() {
            let address = start + UInt(i) * pageSize
            let filePage = e & (1 << 63) != 0 && e & (1 << 61) != 0
            if filePage {
                if runStart == nil { runStart = address }
            } else if let s = runStart {
                runs.append(Mapping(start: s, end: address))
                runStart = nil
            }
        }
        if let s = runStart { runs.append(Mapping(start: s, end: start + UInt(entries.count) * pageSize)) }
        return runs
    }

    /// Releases the page-table entries of every executable file mapping of this process, and of
    /// the pages of its read-only file mappings still as in the file. Returns the bytes of address
    /// space advised (0 when `/proc/self/maps` cannot be read or the kernel refused, as it does
    /// for locked memory).
    @discardableResult
    package static func release() -> UInt {
        guard let maps = RealTime.readSmallFile("/proc/self/maps") else { return 0 }
        var released: UInt = 0
        for m in executableFileMappings(in: maps) { released += advise(m) }
        let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard pageSize > 0, case .success(let fd) = system_open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) else {
            return released
        }
        defer { _ = system_close(fd) }
        for m in readOnlyFileMappings(in: maps) {
            let pages = Int(m.bytes / pageSize)
            var entries = [UInt64](repeating: 0, count: pages)
            let read = entries.withUnsafeMutableBytes {
                system_pread(fd, $0, offset: Int64(m.start / pageSize) * 8)
            }
            guard case .success(let n) = read, n == pages * 8 else { continue }
            for run in filePageRuns(start: m.start, pageSize: pageSize, entries: entries) { released += advise(run) }
        }
        return released
    }

    private static func advise(_ m: Mapping) -> UInt {
        guard let address = UnsafeMutableRawPointer(bitPattern: m.start) else { return 0 }
        return madvise(address, Int(m.bytes), MADV_DONTNEED) == 0 ? m.bytes : 0
    }

    private static func mappings(in maps: String, permissions: Substring) -> [Mapping] {
        var out: [Mapping] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == permissions, fields[5].first == "/" else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                end > start
            else { continue }
            out.append(Mapping(start: start, end: end))
        }
        return out
    }
}
