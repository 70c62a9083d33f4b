import Foundation
import Logging
import OTel
import ServiceLifecycle
import TouchstoneStorage
import Tracing

/// `serve --otel-endpoint URL` (PROTOCOL "Traces"): swift-otel's tracer as the process' tracer, exporting the spans
/// over OTLP/HTTP (protobuf) with `POST URL/v1/traces`, in batches (OpenTelemetry's defaults: every 5 s, or
/// `OTEL_BSP_SCHEDULE_DELAY` milliseconds). Only traces: logs stay on standard error and metrics on `GET /metrics`,
/// so swift-otel's logging and metrics backends are never made.
///
/// Without it nothing is made or bootstrapped: swift-distributed-tracing's tracer stays the no-op one, and no span is
/// recorded or sent.
public struct TraceExport: Sendable {
    /// The batches and the exporter: a `Service` of the server's group, started first and stopped last, so that the
    /// spans of the last requests are sent before the server exits.
    let service: any Service

    /// Makes the tracer and bootstraps `InstrumentationSystem` with it: once per process.
    /// - Parameters:
    ///   - endpoint: an `http` or `https` URL; `/v1/traces` is appended to its path.
    ///   - logger: where the exporter's own warnings go (an export that failed).
    /// - Throws: ``ConfigurationError`` when `endpoint` is not such a URL.
    public static func bootstrap(endpoint: String, logger: Logger) throws -> TraceExport {
        guard let url = URLComponents(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else {
            throw ConfigurationError("--otel-endpoint takes an http or https URL without a query, such as http://127.0.0.1:4318")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "touchstone"
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        // Set explicitly, the endpoint is used as it is: the signal's path is ours to add.
        configuration.traces.otlpExporter.endpoint =
            (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/traces"
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return TraceExport(service: backend.service)
    }
}
