import BoardConfig
import TouchService

/// A board's `[realtime]` (with the command line's overrides applied) as the service's
/// `ThreadTuning`: `RealTimeSetup` applies it through `TouchLinux.RealTime`.
package struct BoardRealTime: ThreadTuning {
    package let description: RealTimeDescription

    package init(_ description: RealTimeDescription) { self.description = description }

    package var summary: String { description.summary }
    package func applyToProcess() -> [RealTimeMessage] { RealTimeSetup.applyToProcess(description) }
    package func applyToCurrentThread(_ thread: PipelineThread) -> [RealTimeMessage] {
        RealTimeSetup.applyToCurrentThread(thread, description)
    }
    package func describeCurrentThread() -> String { RealTimeSetup.describeCurrentThread() }
}
