import Crypto
import Foundation
import Logging
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The server's signing keys: ES256 for access tokens, receipts and ES256 ID tokens, RS256 for the other ID tokens
/// (OpenID Connect makes it mandatory to implement). Generated when first needed, kept in the database, published as
/// a JWKS and rotated together by `admin signing-key rotate`. Instances on one database use and publish the same keys.
package actor TokenSigner {
    /// How long a new key is published before it signs.
    static let activationDelay: TimeInterval = 600

    private let store: any TouchstoneStore
    private let clock: any WallClock
    private let issuer: String
    private let accessTokenLifetime: TimeInterval
    private var published: [JWKSet.Key] = []
    /// The published keys' public halves by `kid`, each verifying its one algorithm.
    private var verificationKeys: [String: JWSKey] = [:]
    /// The key of each algorithm that signs now, with its encoded headers.
    private var signing: [ServerKeyAlgorithm: SigningKey] = [:]
    private var loadedAt: Date = .distantPast
    /// How often keys are read again from the database, so that a rotation reaches every instance.
    private let reloadInterval: TimeInterval = 30

    package init(store: any TouchstoneStore, clock: any WallClock, issuer: String, accessTokenLifetime: TimeInterval) {
        self.store = store
        self.clock = clock
        self.issuer = issuer
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// Creates the first ES256 key when the database has none, and loads the keys. The RSA key, slow to generate, is
    /// made when first published or needed.
    package func start() async throws {
        try await store.createFirstServerKey(try Self.newKey(.es256, createdAt: clock.now(), activatesAt: clock.now()))
        try await reload()
    }

    /// Publishes a new key of each algorithm now; they sign from ten minutes later, when the current keys retire.
    /// - Returns: the new ES256 key (the access tokens').
    package static func rotate(store: any TouchstoneStore, now: Date) async throws -> ServerKeyRecord {
        let activation = now.addingTimeInterval(activationDelay)
        if try await store.serverKeys().contains(where: { $0.algorithm == ServerKeyAlgorithm.rs256.rawValue }) {
            try await store.rotateServerKey(next: try newKey(.rs256, createdAt: now, activatesAt: activation))
        }
        let next = try newKey(.es256, createdAt: now, activatesAt: activation)
        try await store.rotateServerKey(next: next)
        return next
    }

    /// The published keys: the current ones, the next ones and recently retired ones.
    package func jwks() async throws -> JWKSet {
        try await reloadIfStale()
        try await ensureKey(.rs256)
        return JWKSet(keys: published)
    }

    /// Signs access-token claims with the current ES256 key.
    package func sign(_ claims: AccessTokenClaims) async throws -> String {
        try await reloadIfStale()
        let key = try current(.es256)
        return try key.sign(payload: claims.jsonBytes, encodedHeader: key.accessTokenHeader)
    }

    /// Signs other server statements (`typ` other than `at+jwt`, so they never pass as access tokens) with the
    /// current ES256 key, which relying services find in the JWKS.
    package func sign(_ claims: some Encodable, type: String) async throws -> String {
        try await reloadIfStale()
        let key = try current(.es256)
        return try key.sign(claims, encodedHeader: try SigningKey.encodedHeader(alg: key.algorithm, kid: key.kid, type: type))
    }

    /// Signs an ID token (`typ: JWT`) with the current key of `algorithm`.
    package func signIDToken(_ claims: IDTokenClaims, algorithm: ServerKeyAlgorithm) async throws -> String {
        try await reloadIfStale()
        try await ensureKey(algorithm)
        let key = try current(algorithm)
        return try key.sign(claims, encodedHeader: key.idTokenHeader)
    }

    private func current(_ algorithm: ServerKeyAlgorithm) throws -> SigningKey {
        guard let key = signing[algorithm] else { throw ConfigurationError("no active \(algorithm.rawValue) signing key") }
        return key
    }

    /// Makes the first key of `algorithm` when the database has none.
    private func ensureKey(_ algorithm: ServerKeyAlgorithm) async throws {
        guard signing[algorithm] == nil else { return }
        let now = clock.now()
        try await store.createFirstServerKey(try Self.newKey(algorithm, createdAt: now, activatesAt: now))
        try await reload()
    }

    /// A current key with its encoded headers, signing with swift-crypto directly: the compact JWS is written once,
    /// without a second JSON encoding of the header or a pass through jwt-kit's key collection.
    private struct SigningKey {
        let key: ServerSigningKey
        let kid: String
        /// base64url of `{"alg":…,"kid":…,"typ":"at+jwt"}` and the `.` after it.
        let accessTokenHeader: [UInt8]
        /// The same with `"typ":"JWT"`.
        let idTokenHeader: [UInt8]

        var algorithm: ServerKeyAlgorithm { key.algorithm }

        init(key: ServerSigningKey, kid: String) throws {
            self.key = key
            self.kid = kid
            accessTokenHeader = try Self.encodedHeader(alg: key.algorithm, kid: kid, type: "at+jwt")
            idTokenHeader = try Self.encodedHeader(alg: key.algorithm, kid: kid, type: "JWT")
        }

        static func encodedHeader(alg: ServerKeyAlgorithm, kid: String, type: String) throws -> [UInt8] {
            try CompactJWS.encodedHeader(alg: alg.rawValue, kid: kid, typ: type)
        }

        func sign(_ claims: some Encodable, encodedHeader: [UInt8]) throws -> String {
            try sign(payload: Array(try JSONEncoder().encode(claims)), encodedHeader: encodedHeader)
        }

        func sign(payload: [UInt8], encodedHeader: [UInt8]) throws -> String {
            try CompactJWS.serialize(encodedHeader: encodedHeader, payload: payload) { Array(try key.signature(for: $0)) }
        }
    }

    /// Verifies an access token (`typ: at+jwt`, ES256 with a published key, `iss` and `exp`); `nil` for anything else.
    package func verify(_ token: String) async throws -> AccessTokenClaims? {
        try await reloadIfStale()
        guard let jws = try? CompactJWS(token), let key = jws.header.kid.flatMap({ verificationKeys[$0] }),
            key.publicKey.algorithm == .es256
        else { return nil }
        return try? jws.verify(as: AccessTokenClaims.self, with: key, expecting: expectations)
    }

    /// The claims of an ID token this provider signed with a key it still publishes, expired or not (logout's
    /// `id_token_hint`); `nil` for anything else.
    package func verifyIDTokenSignature(_ token: String) async throws -> IDTokenClaims? {
        try await reloadIfStale()
        guard let jws = try? CompactJWS(token), let key = jws.header.kid.flatMap({ verificationKeys[$0] }) else {
            return nil
        }
        return try? jws.verify(as: IDTokenClaims.self, with: key, expecting: expectations)
    }

    private var expectations: ServerTokenExpectations {
        ServerTokenExpectations(issuer: issuer, now: Int64(clock.now().timeIntervalSince1970))
    }

    private func reloadIfStale() async throws {
        if clock.now().timeIntervalSince(loadedAt) >= reloadInterval {
            try await reload()
        }
    }

    private func reload() async throws {
        let now = clock.now()
        let records = try await store.serverKeys()
        var published: [JWKSet.Key] = []
        var verificationKeys: [String: JWSKey] = [:]
        var signing: [ServerKeyAlgorithm: (record: ServerKeyRecord, key: ServerSigningKey)] = [:]
        for record in records {
            if let retired = record.retiredAt, retired.addingTimeInterval(2 * accessTokenLifetime) < now { continue }
            guard let key = try? ServerSigningKey(record) else { continue }
            published.append(try key.publicJWK(kid: record.kid))
            verificationKeys[record.kid] = try JWSKey(DevicePublicKey(jwk: key.publicJWKForThumbprint()))
            if record.activatesAt <= now, record.retiredAt.map({ $0 > now }) ?? true {
                let current = signing[key.algorithm]
                if current.map({ record.activatesAt >= $0.record.activatesAt }) ?? true {
                    signing[key.algorithm] = (record, key)
                }
            }
        }
        self.published = published
        self.verificationKeys = verificationKeys
        self.signing = try signing.mapValues { try SigningKey(key: $0.key, kid: $0.record.kid) }
        self.loadedAt = now
    }

    private static func newKey(_ algorithm: ServerKeyAlgorithm, createdAt: Date, activatesAt: Date) throws
        -> ServerKeyRecord
    {
        let key = try ServerSigningKey.generate(algorithm)
        return ServerKeyRecord(
            kid: Thumbprint.of(try key.publicJWKForThumbprint()), algorithm: algorithm.rawValue,
            privateKey: Base64URL.encode(key.privateRepresentation), createdAt: createdAt, activatesAt: activatesAt,
            retiredAt: nil)
    }
}
