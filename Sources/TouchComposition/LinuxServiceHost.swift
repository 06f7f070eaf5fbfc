import Synchronization
import SystemPackage
import TouchLinux
import TouchService

/// The real `ServiceHost`: named pthreads (`NamedThread`), `RealTime`'s CPU and memory figures,
/// `StartupPages`, and `AtomicFile`/`OutputFile` for the status and metrics files.
package final class LinuxServiceHost: ServiceHost {
    /// Path → the file the last write to it created (absent: none, or a device or FIFO).
    private let created = Mutex<[String: FileIdentity]>([:])

    package init() {}

    package func startThread(name: String, _ body: @escaping @Sendable () -> Void) throws(ServiceHostError) {
        do throws(Errno) {
            try NamedThread.start(name: name, body)
        } catch {
            throw ServiceHostError("\(error)")
        }
    }

    package func processCPUMicroseconds() -> Int64 { RealTime.processCPUMicroseconds() }
    package func currentThreadCPUMicroseconds() -> Int64 { RealTime.currentThreadCPUMicroseconds() }
    package func residentBytes() -> Int { RealTime.residentBytes() }
    package func releaseStartupPages() -> Int { Int(clamping: StartupPages.release()) }

    package func writeAtomically(_ bytes: [UInt8], to path: String, mode: UInt32) throws(ServiceHostError) {
        do throws(OutputFileError) {
            let identity = try AtomicFile.write(bytes, to: path, mode: .init(mode))
            created.withLock { $0[path] = identity }
        } catch {
            throw ServiceHostError("\(error)")
        }
    }

    package func removeCreatedFile(_ path: String) {
        guard let identity = created.withLock({ $0[path] }) else { return }
        OutputFile.remove(path, created: identity)
    }
}
