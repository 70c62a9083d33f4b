import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import TouchstoneDelivery
import TouchstoneDomain
import TouchstoneHTTP
import TouchstoneProtocol
import TouchstoneStorage

/// A Touchstone over one database: its domain services, its routes, and what must run for them.
///
/// Nothing runs when it is opened. A server runs the database, the housekeeping loop and the HTTP server as the
/// `Service`s of one `ServiceGroup` (``application(host:port:onServerRunning:)``, with graceful shutdown); other work
/// runs the database for the length of a closure (``run(_:)``). Either readies the database first: migrations, the demo
/// app, the signing keys.
public final class TouchstoneRuntime: Sendable {
    package let environment: ServiceEnvironment
    package let services: Services
    package let store: SQLStore
    /// Every metric of this server, as `GET /metrics` on the metrics listener shows them.
    package let metrics: PrometheusCollectorRegistry
    private let web: WebController
    /// Where pushes go: the real APNs and FCM hosts, or the test overrides of `serve`.
    private let push: PushEndpoints
    /// Given once the database is ready (``prepare()``): housekeeping and push delivery wait for it.
    private let prepared = Readiness()

    private init(
        environment: ServiceEnvironment, store: SQLStore, metrics: PrometheusCollectorRegistry, web: WebController,
        push: PushEndpoints
    ) {
        self.environment = environment
        self.services = Services(environment: environment)
        self.store = store
        self.metrics = metrics
        self.web = web
        self.push = push
    }

    /// Opens the database (SQLite's file; PostgreSQL connects once it runs) and builds the services over it, reading
    /// the web page's files and working out the password hasher's decoy.
    /// - Parameter random: where tokens, challenges and record ids come from; only tests pass another than the system's.
    public static func open(
        database: DatabaseLocation, settings: ServerSettings, clock: any WallClock = SystemClock(),
        random: any RandomSource = SystemRandom(), logger: Logger
    ) async throws -> TouchstoneRuntime {
        try await open(database: database, settings: settings, clock: clock, random: random, push: .live, logger: logger)
    }

    /// ``open(database:settings:clock:random:logger:)``, with the pushes going to `push`: the test overrides of `serve`
    /// (`--insecure-apns-url`, `--insecure-fcm-url`, `--insecure-push-ca`).
    package static func open(
        database: DatabaseLocation, settings: ServerSettings, clock: any WallClock = SystemClock(),
        random: any RandomSource = SystemRandom(), push: PushEndpoints, logger: Logger
    ) async throws -> TouchstoneRuntime {
        // Every line logged while a request is served names it (`request_id`).
        var logger = logger
        logger.handler.metadataProvider = .multiplex(
            [logger.metadataProvider, RequestMetadata.loggingProvider].compactMap { $0 })
        let registry = PrometheusCollectorRegistry()
        let metrics = metricsFactory(registry)
        let store = SQLStore(
            provider: try await openDatabase(database, bounds: settings.databaseBounds, logger: logger, metrics: metrics))
        let signer = TokenSigner(
            store: store, clock: clock, issuer: settings.issuer, accessTokenLifetime: TimeInterval(settings.accessTokenLifetime))
        let environment = ServiceEnvironment(
            store: store, clock: clock, random: random, settings: settings,
            hasher: try await PasswordHasher(settings: settings, metrics: ServerMetrics(factory: metrics)),
            signer: signer, logger: logger, metrics: ServerMetrics(factory: metrics))
        return TouchstoneRuntime(
            environment: environment, store: store, metrics: registry,
            web: try WebController.bundled(
                accountClientId: settings.accountClientId, relyingPartyId: settings.relyingParty.id),
            push: push)
    }

    static func openDatabase(
        _ database: DatabaseLocation, bounds: DatabaseBounds, logger: Logger,
        metrics: any MetricsFactory = NOOPMetricsHandler.instance
    ) async throws -> any SQLDatabaseProvider {
        switch database {
        case .sqlite(let path):
            try await SQLiteDatabaseProvider.open(path: path, logger: logger, metrics: metrics)
        case .postgres(let url, let poolSize):
            try PostgresDatabaseProvider.open(
                url: url, poolSize: poolSize, stepTimeout: bounds.stepTimeout, connectionWait: bounds.connectionWait,
                logger: logger, metrics: metrics)
        }
    }

    /// swift-metrics into `registry`, with histogram buckets from 1 ms: a login takes a few milliseconds.
    private static func metricsFactory(_ registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
            .seconds(10),
        ]
        return factory
    }

    /// Runs the database and readies it while `body` uses this runtime, then closes the database.
    public func run<T>(_ body: () async throws -> T) async throws -> T {
        try await store.provider.withRunning {
            try await prepare()
            return try await body()
        }
    }

    /// Migrates the running database, seeds the demo app and loads (or creates) the signing keys.
    private func prepare() async throws {
        try await store.provider.ready()
        try await store.migrate()
        try await store.createDemoAppIfEmpty(.demo, at: environment.clock.now())
        try await environment.signer.start()
        prepared.give()
    }

    /// The router with every route and middleware.
    public func router() -> Router<TouchstoneRequestContext> {
        TouchstoneRouter.build(services: services, web: web)
    }

    /// Runs the server as `touchstone serve` does, until SIGTERM or SIGINT: the HTTP application, the metrics
    /// listener when `metricsPort` is set, and the admin API's when `adminPort` is.
    ///
    /// On a signal the server stops accepting connections and closes idle ones, long polls answer at once with what
    /// they have, requests in flight finish (for 10 s at most, after which they are cancelled), then the database
    /// writes what it acknowledged and closes, and this returns.
    /// - Throws: ``ListenerFailure`` when a listener fails before a stop was asked for: a port that cannot be bound, a
    ///   database that cannot be readied.
    /// - Parameter reservation: the port `port` names, held since `serve --port 0` picked it; released just before the
    ///   server binds it.
    /// - Parameter traces: the export of `serve --otel-endpoint` (``TraceExport``), run with the server.
    public func serve(
        host: String, port: Int, metricsPort: Int?, adminPort: Int? = nil, traces: TraceExport? = nil,
        reservation: PortReservation? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        // Stopped in the reverse order: the notice first, so that long polls end before the server waits for them, and
        // the trace export last, so that it sends the spans of the last requests.
        let notice = environment.shutdown
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = traces.map { [.init(service: $0.service)] } ?? []
        services += [
            .init(
                service: Listener(
                    application: application(
                        host: host, port: port, reservation: reservation, onServerRunning: onServerRunning),
                    address: "\(host):\(port) (--port)", notice: notice))
        ]
        if let metricsPort {
            services.append(
                .init(
                    service: Listener(
                        application: metricsApplication(host: host, port: metricsPort),
                        address: "\(host):\(metricsPort) (--metrics-port)", notice: notice)))
        }
        if let adminPort {
            services.append(
                .init(
                    service: Listener(
                        application: adminApplication(host: host, port: adminPort),
                        address: "\(host):\(adminPort) (--admin-port)", notice: notice)))
        }
        services.append(.init(service: ShutdownNoticeService(notice: notice)))
        var configuration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: environment.logger)
        configuration.maximumGracefulShutdownDuration = Self.longestShutdown
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let failure as ListenerFailure {
            throw failure
        } catch where environment.shutdown.hasBegun {
            // Requests that outlived the bound were cancelled (unanswered); everything answered was written before it
            // was answered. A stop asked for is still a clean stop.
            environment.logger.warning(
                "stopped after cancelling requests still in flight \(Self.longestShutdown) after the signal",
                metadata: ["error": "\(error)"])
        }
    }

    /// How long requests in flight may take to finish once the server stops.
    static let longestShutdown: Duration = .seconds(10)

    /// `GET /metrics` (Prometheus' text format) on a listener of its own, never on the public port.
    private func metricsApplication(host: String, port: Int) -> some ApplicationProtocol {
        let router = Router()
        let registry = metrics
        router.get("metrics") { _, _ in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "touchstone-metrics"),
            logger: environment.logger)
    }

    /// The router of the admin API (`/admin/v1/*`, admin tokens).
    public func adminRouter() -> Router<AdminRequestContext> {
        AdminRouter.build(services: services)
    }

    /// The admin API on a listener of its own, never on the public port; it binds once the database is ready.
    private func adminApplication(host: String, port: Int) -> some ApplicationProtocol {
        var application = Application(
            router: adminRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "touchstone-admin"),
            logger: environment.logger)
        let ready = prepared.waiter()
        application.beforeServerStarts {
            for await _ in ready {}
        }
        return application
    }

    /// The HTTP application: the database, the housekeeping loop and the server, started in this order and stopped
    /// in the reverse one, as the services of one `ServiceGroup`; the database is readied before the server binds.
    /// - Parameters:
    ///   - reservation: the port `port` names, held until now; released after the database is readied, the last step
    ///     before the server binds.
    ///   - onServerRunning: called with the bound port once the server accepts connections.
    public func application(
        host: String, port: Int, reservation: PortReservation? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var application = Application(
            router: router(),
            // `Connection: close` in the answer to a request that lists it, and the connection's end after it.
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionCloseHandler()])),
            configuration: .init(address: .hostname(host, port: port), serverName: "touchstone"),
            services: [
                store.provider,
                Housekeeping(
                    store: store, clock: environment.clock, logger: environment.logger, after: prepared.waiter()),
                PushDelivery(
                    endpoints: push, store: store, now: { [clock = environment.clock] in clock.now() },
                    logger: environment.logger, metrics: environment.metrics.factory, after: prepared.waiter()),
                PingDelivery(
                    store: store, now: { [clock = environment.clock] in clock.now() }, logger: environment.logger,
                    after: prepared.waiter()),
                WebhookDelivery(
                    store: store, now: { [clock = environment.clock] in clock.now() }, logger: environment.logger,
                    metrics: environment.metrics.factory, after: prepared.waiter()),
            ],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: environment.logger)
        application.beforeServerStarts { try await self.prepare() }
        if let reservation {
            application.beforeServerStarts { try await reservation.release() }
        }
        return application
    }
}

/// One HTTP application of
/// ``TouchstoneRuntime/serve(host:port:metricsPort:adminPort:traces:reservation:onServerRunning:)``: its error before
/// the server was asked to stop — a port that cannot be bound, a database that cannot be readied — ends the server as
/// a ``ListenerFailure``, never as a stop asked for.
private struct Listener<Application: ApplicationProtocol>: Service {
    let application: Application
    /// `host:port (--option)`, for the reason.
    let address: String
    let notice: ShutdownNotice

    func run() async throws {
        do {
            try await application.run()
        } catch where !notice.hasBegun {
            throw ListenerFailure(address: address, error: error)
        }
    }
}

/// A listener of `touchstone serve` that failed: `serve` exits non-zero with this one-line reason.
struct ListenerFailure: Error, CustomStringConvertible {
    /// `host:port (--option)`.
    let address: String
    let error: any Error

    var description: String {
        // A socket's error as the system names it ("Address already in use"), without NIO's call and errno.
        let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
        return "cannot serve on \(address): " + reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Begins the ``ShutdownNotice`` when the server is asked to stop.
private struct ShutdownNoticeService: Service {
    let notice: ShutdownNotice

    func run() async throws {
        try? await gracefulShutdown()
        notice.begin()
    }
}
