import Crypto
import Foundation
import NIOPosix
import TouchstoneStorage

/// bcrypt itself: given to the domain by the composition root, so that the domain imports no Hummingbird package.
package protocol BcryptFunction: Sendable {
    func hash(_ secret: String, cost: UInt8) -> String
    func verify(_ secret: String, hash: String) -> Bool
}

/// bcrypt for passwords and PINs, always off the event loop.
///
/// bcrypt alone reads a secret only up to its 72nd byte (and, through a C string, up to a NUL), so new hashes are
/// bcrypt over base64(SHA-256(UTF-8 of the secret)): 44 ASCII bytes, no NUL, every code point counting. They are
/// stored as ``prehashedPrefix`` + the bcrypt hash; a plain bcrypt hash (`$2b$…`, from before) still verifies the
/// old way.
package struct PasswordHasher: Sendable {
    /// The lowest cost the server accepts.
    package static let minimumCost: UInt8 = 12
    /// Marks a hash of the pre-hashed scheme; what follows is a standard bcrypt hash (`$2b$…`).
    package static let prehashedPrefix = "$touchstone-sha256$"

    package let cost: UInt8
    private let bcrypt: any BcryptFunction
    /// Where bcrypt runs: never on an event loop.
    package let threadPool: NIOThreadPool
    /// A hash of a random password, verified against when the username is unknown so that the work is the same.
    package let decoy: String

    /// - Parameter insecurelyBelowMinimum: ⚠️ tests only (``ServerSettings/insecureTestBcryptCost``): accept a cost
    ///   below ``minimumCost``.
    /// - Throws: when `cost` is below ``minimumCost``.
    package init(
        cost: UInt8, bcrypt: any BcryptFunction, threadPool: NIOThreadPool = .singleton, insecurelyBelowMinimum: Bool = false
    ) async throws {
        guard cost >= Self.minimumCost || insecurelyBelowMinimum else {
            throw ConfigurationError("bcrypt cost must be at least \(Self.minimumCost)")
        }
        self.cost = cost
        self.bcrypt = bcrypt
        self.threadPool = threadPool
        self.decoy = try await threadPool.runIfActive {
            Self.prehashedPrefix + bcrypt.hash(Self.prehash(SecretDigestSeed.random()), cost: cost)
        }
    }

    /// A new hash of `secret`, in the pre-hashed scheme.
    package func hash(_ secret: String) async throws -> String {
        let (cost, bcrypt) = (cost, bcrypt)
        return try await threadPool.runIfActive {
            Self.prehashedPrefix + bcrypt.hash(Self.prehash(secret), cost: cost)
        }
    }

    /// Verifies `secret` against `hash` in the scheme the stored hash names, or against the decoy when `hash` is nil
    /// (the same work, always false).
    package func verify(_ secret: String, against hash: String?) async throws -> Bool {
        let (target, bcrypt) = (hash ?? decoy, bcrypt)
        let matches = try await threadPool.runIfActive {
            if target.hasPrefix(Self.prehashedPrefix) {
                return bcrypt.verify(Self.prehash(secret), hash: String(target.dropFirst(Self.prehashedPrefix.count)))
            }
            // A plain bcrypt hash from before the pre-hashed scheme: only the first 72 bytes of the secret count.
            return bcrypt.verify(secret, hash: target)
        }
        return hash != nil && matches
    }

    /// base64(SHA-256(UTF-8 of `secret`)): 44 ASCII bytes, within bcrypt's 72 and without NUL.
    package static func prehash(_ secret: String) -> String {
        Data(SHA256.hash(data: Data(secret.utf8))).base64EncodedString()
    }
}

private enum SecretDigestSeed {
    static func random() -> String {
        (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }
}
