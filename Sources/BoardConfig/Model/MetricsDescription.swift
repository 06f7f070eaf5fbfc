/// `[metrics]`: where the service also publishes its status figures for fleet monitoring.
package struct MetricsDescription: Sendable, Equatable {
    /// `prometheus_file`: an absolute path ending in `.prom`, rewritten atomically about once a
    /// second in the Prometheus text format (node_exporter's textfile collector); nil: none.
    package var prometheusFile: String?

    package init(prometheusFile: String? = nil) { self.prometheusFile = prometheusFile }
}
