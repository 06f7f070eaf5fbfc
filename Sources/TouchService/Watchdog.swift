import TouchCore

/// Decides when to send `WATCHDOG=1`: only when the recognizer loop advanced since the last
/// check, so a hung pipeline stops feeding systemd's watchdog and is killed and restarted.
///
/// Pure and clock-free: the caller checks every `checkInterval(for:)` microseconds with the
/// current `ServiceHealth.recognizerTicks`. The recognizer loop wakes at least once a second,
/// so with `WatchdogSec=` of 4 s or more a healthy loop always advances between two checks.
package struct WatchdogFeeder: Sendable, Equatable {
    private var lastTicks: UInt64?

    package init() {}

    /// Half the watchdog period (`$WATCHDOG_USEC`), as `sd_watchdog_enabled(3)` recommends,
    /// but at least 1.5 s so that an idle loop (one wake per second) counts as advancing.
    package static func checkInterval(forWatchdogMicroseconds usec: Int64) -> Int64 {
        max(usec / 2, 1_500_000)
    }

    /// True when `ticks` differs from the value seen at the previous check (the first check feeds).
    package mutating func shouldFeed(ticks: UInt64) -> Bool {
        defer { lastTicks = ticks }
        guard let lastTicks else { return true }
        return ticks != lastTicks
    }
}
