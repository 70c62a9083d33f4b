import HummingbirdBcrypt
import NIOPosix
import TouchstoneDomain

/// bcrypt from hummingbird-auth.
///
/// Its salt is not drawn from the services' ``RandomSource``: `Bcrypt.hash` draws its 16 bytes itself (the standard
/// library's system generator) and takes none, and the C function that takes one is internal to that package. A
/// hash is never pinned by a test: tests verify it.
struct HummingbirdBcryptFunction: BcryptFunction {
    func hash(_ secret: String, cost: UInt8) -> String {
        Bcrypt.hash(secret, cost: cost)
    }

    func verify(_ secret: String, hash: String) -> Bool {
        Bcrypt.verify(secret, hash: hash)
    }
}

extension PasswordHasher {
    /// The server's hasher: hummingbird-auth's bcrypt on the shared thread pool, behind a gate of
    /// ``ServerSettings/hashingLimit`` slots whose refusals `metrics` counts.
    /// The cost is ``ServerSettings/bcryptCost``, unless a test set ``ServerSettings/insecureTestBcryptCost``.
    package init(settings: ServerSettings, metrics: ServerMetrics) async throws {
        let gate = HashingGate(limit: settings.hashingLimit, metrics: metrics)
        if let cost = settings.insecureTestBcryptCost {
            try await self.init(
                cost: cost, bcrypt: HummingbirdBcryptFunction(), insecurelyBelowMinimum: true, gate: gate)
        } else {
            try await self.init(cost: settings.bcryptCost, bcrypt: HummingbirdBcryptFunction(), gate: gate)
        }
    }

    package init(cost: UInt8, threadPool: NIOThreadPool = .singleton) async throws {
        try await self.init(cost: cost, bcrypt: HummingbirdBcryptFunction(), threadPool: threadPool)
    }
}
