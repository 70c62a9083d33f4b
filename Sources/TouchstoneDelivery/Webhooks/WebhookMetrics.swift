import Metrics

/// `touchstone_webhook_deliveries_total{outcome}` per try (`delivered`, `gone`, `retried`, `failed`: given up), and
/// `touchstone_webhook_queued`.
struct WebhookMetrics: Sendable {
    enum Outcome: String {
        case delivered, gone, retried, failed
    }

    let factory: any MetricsFactory
    /// Deliveries queued and not finished, retries waiting included.
    let queued: Gauge

    init(factory: any MetricsFactory) {
        self.factory = factory
        queued = Gauge(label: "touchstone_webhook_queued", factory: factory)
    }

    func count(_ outcome: Outcome) {
        Counter(label: "touchstone_webhook_deliveries_total", dimensions: [("outcome", outcome.rawValue)], factory: factory)
            .increment()
    }
}
