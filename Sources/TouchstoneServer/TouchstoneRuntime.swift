import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TouchstoneProtocol

/// An opened Touchstone: its store migrated, the demo app seeded, the signing keys loaded.
public final class TouchstoneRuntime: Sendable {
    let environment: ServiceEnvironment
    private let store: SQLStore
    private let web: WebController

    private init(environment: ServiceEnvironment, store: SQLStore, web: WebController) {
        self.environment = environment
        self.store = store
        self.web = web
    }

    /// Opens the database, runs migrations, seeds the demo app, loads (or creates) the signing keys and reads the web
    /// page's files.
    public static func open(
        database: DatabaseLocation, settings: ServerSettings, clock: any WallClock = SystemClock(), logger: Logger
    ) async throws -> TouchstoneRuntime {
        let store = try await openStore(database, bounds: settings.databaseBounds, logger: logger)
        do {
            let web = try WebController.bundled(accountClientId: settings.accountClientId)
            try await store.createDemoAppIfEmpty(.demo, at: clock.now())
            let signer = TokenSigner(
                store: store, clock: clock, issuer: settings.issuer,
                accessTokenLifetime: TimeInterval(settings.accessTokenLifetime))
            try await signer.start()
            let environment = ServiceEnvironment(
                store: store, clock: clock, settings: settings, hasher: try await PasswordHasher(cost: settings.bcryptCost),
                signer: signer, logger: logger)
            return TouchstoneRuntime(environment: environment, store: store, web: web)
        } catch {
            try? await store.shutdown()
            throw error
        }
    }

    static func openStore(_ database: DatabaseLocation, bounds: DatabaseBounds = DatabaseBounds(), logger: Logger)
        async throws -> SQLStore
    {
        let provider: any SQLDatabaseProvider =
            switch database {
            case .sqlite(let path): try await SQLiteDatabaseProvider.open(path: path, logger: logger)
            case .postgres(let url, let poolSize):
                try await PostgresDatabaseProvider.open(
                    url: url, poolSize: poolSize, stepTimeout: bounds.stepTimeout,
                    connectionWait: bounds.connectionWait, logger: logger)
            }
        let store = SQLStore(provider: provider)
        do {
            try await store.migrate()
        } catch {
            try? await store.shutdown()
            throw error
        }
        return store
    }

    /// The router with every route and middleware.
    public func router() -> Router<TouchstoneRequestContext> {
        let router = Router(context: TouchstoneRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: AllowedOriginsMiddleware(origins: Set(environment.settings.relyingParty.origins)))
        router.add(middleware: ProblemMiddleware())
        TouchstoneController(environment: environment, openAPI: Self.openAPIDocument).addRoutes(to: router)
        PasskeyController(environment: environment).addRoutes(to: router)
        web.addRoutes(to: router)
        if environment.settings.touchIDAuthCompat {
            LegacyController(environment: environment).addRoutes(to: router)
        }
        return router
    }

    /// The HTTP application, with housekeeping alongside.
    /// - Parameter onServerRunning: called with the bound port once the server accepts connections.
    public func application(
        host: String, port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "touchstone"),
            services: [Housekeeping(store: store, clock: environment.clock, logger: environment.logger)],
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: environment.logger)
    }

    /// Closes the database.
    public func shutdown() async throws {
        try await store.shutdown()
    }

    static let openAPIDocument: String = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Resources"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return "" }
        return text
    }()
}

/// Deletes expired challenges, used-token digests and stale throttle rows once a minute.
struct Housekeeping: Service {
    let store: any TouchstoneStore
    let clock: any WallClock
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await store.purgeExpired(now: clock.now())
            } catch {
                logger.warning("housekeeping failed", metadata: ["error": .string("\(error)")])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(60)) }
            } catch {
                return
            }
        }
    }
}
