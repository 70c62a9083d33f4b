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
///
/// Hashing is bounded by a ``HashingGate``: an operation that will hash admits itself with ``admitting(if:_:)`` before
/// it counts or consumes anything, and a hash outside an admission takes a slot of its own.
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
    /// The bound on requests waiting for a hash.
    package let gate: HashingGate

    /// - Parameter insecurelyBelowMinimum: ⚠️ tests only (``ServerSettings/insecureTestBcryptCost``): accept a cost
    ///   below ``minimumCost``.
    /// - Parameter gate: the bound on requests waiting for a hash; the decoy is worked out outside it.
    /// - Throws: when `cost` is below ``minimumCost``.
    package init(
        cost: UInt8, bcrypt: any BcryptFunction, threadPool: NIOThreadPool = .singleton,
        insecurelyBelowMinimum: Bool = false, gate: HashingGate = HashingGate()
    ) async throws {
        guard cost >= Self.minimumCost || insecurelyBelowMinimum else {
            throw ConfigurationError("bcrypt cost must be at least \(Self.minimumCost)")
        }
        self.cost = cost
        self.bcrypt = bcrypt
        self.threadPool = threadPool
        self.gate = gate
        self.decoy = try await threadPool.runIfActive {
            Self.prehashedPrefix + bcrypt.hash(Self.prehash(SecretDigestSeed.random()), cost: cost)
        }
    }

    /// Runs `body`, an operation that will hash, in one slot of the ``gate``: the ``hash(_:)`` and
    /// ``verify(_:against:)`` calls inside it take no other. Call it before the operation counts or consumes anything
    /// (a password attempt, a challenge, a device token, an audit event), so that a refusal leaves all that as it was:
    ///
    ///     try await hasher.admitting(if: claims.pin != nil) {
    ///         // spend the token, consume the challenge, check the PIN, commit…
    ///     }
    ///
    /// - Parameter needsHash: whether the operation will hash; when false `body` just runs (a biometric login under a
    ///   flood of password guesses is still answered).
    /// - Throws: 503 `temporarily_unavailable` with `Retry-After: 1` at once, before `body` runs, when the gate is
    ///   full (``HashingGate/refusal``); otherwise what `body` throws.
    package func admitting<T>(if needsHash: Bool = true, _ body: () async throws -> T) async throws -> T {
        guard needsHash else { return try await body() }
        return try await gate.admitting(body)
    }

    /// A new hash of `secret`, in the pre-hashed scheme; in the slot of the running admission, or in one of its own.
    package func hash(_ secret: String) async throws -> String {
        let (cost, bcrypt, threadPool) = (cost, bcrypt, threadPool)
        return try await gate.admitting {
            try await threadPool.runIfActive {
                Self.prehashedPrefix + bcrypt.hash(Self.prehash(secret), cost: cost)
            }
        }
    }

    /// Verifies `secret` against `hash` in the scheme the stored hash names, or against the decoy when `hash` is nil
    /// (the same work, always false); in the slot of the running admission, or in one of its own.
    package func verify(_ secret: String, against hash: String?) async throws -> Bool {
        let (target, bcrypt, threadPool) = (hash ?? decoy, bcrypt, threadPool)
        let matches = try await gate.admitting {
            try await threadPool.runIfActive {
                if target.hasPrefix(Self.prehashedPrefix) {
                    let prehashed = String(target.dropFirst(Self.prehashedPrefix.count))
                    return bcrypt.verify(Self.prehash(secret), hash: prehashed)
                }
                // A plain bcrypt hash from before the pre-hashed scheme: only the first 72 bytes of the secret count.
                return bcrypt.verify(secret, hash: target)
            }
        }
        return hash != nil && matches
    }

    /// base64(SHA-256(UTF-8 of `secret`)): 44 ASCII bytes, within bcrypt's 72 and without NUL.
    package static func prehash(_ secret: String) -> String {
        Data(SHA256.hash(data: Data(secret.utf8))).base64EncodedString()
    }
}

private enum SecretDigestSeed {
    /// The decoy's password, from the system's generator rather than the services' ``RandomSource``: no test could pin
    /// the decoy anyway (bcrypt draws its own salt), and nothing ever matches it (``PasswordHasher/verify(_:against:)``
    /// is false without a stored hash).
    static func random() -> String {
        (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }
}
