import AsyncHTTPClient

extension HTTPClient.Configuration {
    /// This configuration without AsyncHTTPClient's own spans, which it makes with the process' tracer once
    /// `serve --otel-endpoint` bootstraps one.
    ///
    /// ⚠️ Every HTTP client of the server uses it: those spans record `url.full`, which holds an APNs push's device token
    /// and whatever a client's URL carries in its query. Each try is an ``OutboundSpan`` instead.
    package func untraced() -> Self {
        var configuration = self
        configuration.tracing.tracer = nil
        return configuration
    }
}
