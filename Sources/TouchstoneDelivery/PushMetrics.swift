import Metrics
import TouchstoneProtocol

/// `touchstone_push_sent_total{provider,outcome}` per try, and `touchstone_push_queued`.
struct PushMetrics: Sendable {
    enum Outcome: String {
        case delivered, unregistered, retried, failed
    }

    let factory: any MetricsFactory
    /// Pushes queued and not finished, retries waiting included.
    let queued: Gauge

    init(factory: any MetricsFactory) {
        self.factory = factory
        queued = Gauge(label: "touchstone_push_queued", factory: factory)
    }

    func count(_ provider: PushProvider, _ outcome: Outcome) {
        Counter(
            label: "touchstone_push_sent_total", dimensions: [("provider", provider.rawValue), ("outcome", outcome.rawValue)],
            factory: factory
        ).increment()
    }
}
