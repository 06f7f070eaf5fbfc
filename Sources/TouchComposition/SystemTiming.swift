import TouchDrivers
import TouchLinux

extension DriverTiming {
    /// The real thing: `nanosleep` and `CLOCK_MONOTONIC`, `TouchLinux.SystemClock`. Built
    /// here, where the pipeline meets the system, so that `TouchDrivers` never links Linux code.
    package static var system: DriverTiming {
        DriverTiming(clock: SystemClock.shared)
    }
}
