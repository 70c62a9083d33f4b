import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
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
    private let web: WebController
    /// Finishes once the database is ready (``prepare()``): housekeeping waits for it.
    private let prepared: AsyncStream<Void>
    private let preparedContinuation: AsyncStream<Void>.Continuation

    private init(environment: ServiceEnvironment, store: SQLStore, web: WebController) {
        self.environment = environment
        self.services = Services(environment: environment)
        self.store = store
        self.web = web
        (prepared, preparedContinuation) = AsyncStream.makeStream()
    }

    /// Opens the database (SQLite's file; PostgreSQL connects once it runs) and builds the services over it, reading
    /// the web page's files and working out the password hasher's decoy.
    public static func open(
        database: DatabaseLocation, settings: ServerSettings, clock: any WallClock = SystemClock(), logger: Logger
    ) async throws -> TouchstoneRuntime {
        // Every line logged while a request is served names it (`request_id`).
        var logger = logger
        logger.handler.metadataProvider = .multiplex(
            [logger.metadataProvider, RequestMetadata.loggingProvider].compactMap { $0 })
        let store = SQLStore(provider: try await openDatabase(database, bounds: settings.databaseBounds, logger: logger))
        let signer = TokenSigner(
            store: store, clock: clock, issuer: settings.issuer, accessTokenLifetime: TimeInterval(settings.accessTokenLifetime))
        let environment = ServiceEnvironment(
            store: store, clock: clock, settings: settings, hasher: try await PasswordHasher(cost: settings.bcryptCost),
            signer: signer, logger: logger)
        return TouchstoneRuntime(
            environment: environment, store: store,
            web: try WebController.bundled(
                accountClientId: settings.accountClientId, relyingPartyId: settings.relyingParty.id))
    }

    static func openDatabase(_ database: DatabaseLocation, bounds: DatabaseBounds, logger: Logger) async throws
        -> any SQLDatabaseProvider
    {
        switch database {
        case .sqlite(let path):
            try await SQLiteDatabaseProvider.open(path: path, logger: logger)
        case .postgres(let url, let poolSize):
            try PostgresDatabaseProvider.open(
                url: url, poolSize: poolSize, stepTimeout: bounds.stepTimeout, connectionWait: bounds.connectionWait,
                logger: logger)
        }
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
        preparedContinuation.finish()
    }

    /// The router with every route and middleware.
    public func router() -> Router<TouchstoneRequestContext> {
        TouchstoneRouter.build(services: services, web: web)
    }

    /// The HTTP application: the database, the housekeeping loop and the server, started in this order and stopped
    /// in the reverse one, as the services of one `ServiceGroup`; the database is readied before the server binds.
    /// - Parameter onServerRunning: called with the bound port once the server accepts connections.
    public func application(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var application = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "touchstone"),
            services: [
                store.provider,
                Housekeeping(store: store, clock: environment.clock, logger: environment.logger, after: prepared),
            ],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: environment.logger)
        application.beforeServerStarts { try await self.prepare() }
        return application
    }
}
