import HummingbirdBcrypt
import NIOPosix

/// bcrypt for passwords and PINs, always off the event loop.
struct PasswordHasher: Sendable {
    /// The lowest cost the server accepts.
    static let minimumCost: UInt8 = 12

    let cost: UInt8
    /// Where bcrypt runs: never on an event loop.
    let threadPool: NIOThreadPool
    /// A hash of a random password, verified against when the username is unknown so that the work is the same.
    let decoy: String

    /// - Throws: when `cost` is below ``minimumCost``.
    init(cost: UInt8, threadPool: NIOThreadPool = .singleton) async throws {
        guard cost >= Self.minimumCost else { throw ConfigurationError("bcrypt cost must be at least \(Self.minimumCost)") }
        self.cost = cost
        self.threadPool = threadPool
        let cost = cost
        self.decoy = try await threadPool.runIfActive {
            Bcrypt.hash(SecretDigestSeed.random(), cost: cost)
        }
    }

    func hash(_ secret: String) async throws -> String {
        let cost = cost
        return try await threadPool.runIfActive { Bcrypt.hash(secret, cost: cost) }
    }

    /// Verifies `secret` against `hash`, or against the decoy when `hash` is nil (the same work, always false).
    func verify(_ secret: String, against hash: String?) async throws -> Bool {
        let target = hash ?? decoy
        let matches = try await threadPool.runIfActive { Bcrypt.verify(secret, hash: target) }
        return hash != nil && matches
    }
}

private enum SecretDigestSeed {
    static func random() -> String {
        (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }
}

/// Configuration that cannot work; the message says what to change.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
