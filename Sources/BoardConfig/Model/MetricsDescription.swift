/// `[metrics]`: where the service also publishes its status figures for fleet monitoring.
public struct MetricsDescription: Sendable, Equatable {
    /// `prometheus_file`: an absolute path ending in `.prom`, rewritten atomically about once a
    /// second in the Prometheus text format (node_exporter's textfile collector); nil: none.
    public var prometheusFile: String?

    public init(prometheusFile: String? = nil) { self.prometheusFile = prometheusFile }
}
