import ArgumentParser
import FoundationEssentials
import TouchLinux
import TouchService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The sd_notify socket of this process, shared by the supervisor's closures (nil outside systemd).
final class NotifyChannel: Sendable {
    private let notifier: SystemdNotifier?

    init(environment: [String: String]) { notifier = SystemdNotifier.fromEnvironment(environment) }

    /// `$WATCHDOG_USEC` when it applies to this process (`SystemdNotifier.watchdogMicroseconds`).
    static func watchdogMicroseconds(_ environment: [String: String]) -> Int64? {
        SystemdNotifier.watchdogMicroseconds(environment)
    }

    /// Sends one message; a failure is ignored (systemd then reports the missing READY/WATCHDOG).
    func send(_ state: String) {
        switch notifier {
        case .some(let n): try? n.send(state)
        case .none: break
        }
    }
}

/// Test-only faults of `touchwire run --test-fault` (hidden from help).
enum TestFault: String, ExpressibleByArgument, CaseIterable {
    /// The recognizer loop stops advancing: proves that the watchdog restarts a hung service.
    case hangRecognizer = "hang-recognizer"
}

/// What `touchwire --version` prints: the package version (set by `tools/package` at build time
/// through `TOUCHWIRE_VERSION`, else the source tree's) and the Swift it was built with.
enum Version {
    static let number = "0.4.0"
    static var text: String {
        #if compiler(>=6.3)
            let swift = "Swift 6.3"
        #elseif compiler(>=6.2)
            let swift = "Swift 6.2"
        #else
            let swift = "Swift 6"
        #endif
        return "touchwire \(number) (\(swift), \(architecture))"
    }
    static var architecture: String {
        #if arch(x86_64)
            "x86_64"
        #elseif arch(arm64)
            "aarch64"
        #elseif arch(arm)
            "armv7"
        #else
            "unknown arch"
        #endif
    }
}
