import Crypto
import Foundation
import JWTKit
import Logging
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

/// The server's ES256 signing keys: generated on first start, kept in the database, published as a JWKS and
/// rotated by `admin signing-key rotate`. Instances on one database use and publish the same keys.
package actor TokenSigner {
    /// How long a new key is published before it signs.
    static let activationDelay: TimeInterval = 600

    private let store: any TouchstoneStore
    private let clock: any WallClock
    private let issuer: String
    private let accessTokenLifetime: TimeInterval
    private var keys: JWTKeyCollection = JWTKeyCollection()
    private var published: [JWKSet.Key] = []
    private var signing: SigningKey?
    private var loadedAt: Date = .distantPast
    /// How often keys are read again from the database, so that a rotation reaches every instance.
    private let reloadInterval: TimeInterval = 30

    package init(store: any TouchstoneStore, clock: any WallClock, issuer: String, accessTokenLifetime: TimeInterval) {
        self.store = store
        self.clock = clock
        self.issuer = issuer
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// Creates the first key when the database has none, and loads the keys.
    package func start() async throws {
        try await store.createFirstServerKey(Self.newKey(createdAt: clock.now(), activatesAt: clock.now()))
        try await reload()
    }

    /// Publishes a new key now; it signs from ten minutes later, when the current keys retire.
    package static func rotate(store: any TouchstoneStore, now: Date) async throws -> ServerKeyRecord {
        let next = newKey(createdAt: now, activatesAt: now.addingTimeInterval(activationDelay))
        try await store.rotateServerKey(next: next)
        return next
    }

    /// The published keys: the current one, the next one and recently retired ones.
    package func jwks() async throws -> JWKSet {
        try await reloadIfStale()
        return JWKSet(keys: published)
    }

    /// Signs access-token claims with the current key.
    package func sign(_ claims: AccessTokenClaims) async throws -> String {
        try await reloadIfStale()
        guard let signing else { throw ConfigurationError("no active signing key") }
        return try signing.sign(claims, encodedHeader: signing.accessTokenHeader)
    }

    /// Signs other server statements (`typ` other than `at+jwt`, so they never pass as access tokens) with the
    /// current key, which relying services find in the JWKS.
    package func sign(_ claims: some Encodable, type: String) async throws -> String {
        try await reloadIfStale()
        guard let signing else { throw ConfigurationError("no active signing key") }
        return try signing.sign(claims, encodedHeader: try SigningKey.encodedHeader(kid: signing.kid, type: type))
    }

    /// The current key with its encoded header, signing with swift-crypto directly: the compact JWS is written once,
    /// without a second JSON encoding of the header or a pass through jwt-kit's key collection.
    private struct SigningKey {
        let key: P256.Signing.PrivateKey
        let kid: String
        /// base64url of `{"alg":"ES256","kid":…,"typ":"at+jwt"}` and the `.` after it.
        let accessTokenHeader: [UInt8]

        init(key: P256.Signing.PrivateKey, kid: String) throws {
            self.key = key
            self.kid = kid
            accessTokenHeader = try Self.encodedHeader(kid: kid, type: "at+jwt")
        }

        static func encodedHeader(kid: String, type: String) throws -> [UInt8] {
            struct Header: Encodable {
                let alg = "ES256"
                let kid: String
                let typ: String
            }
            return Array((Base64URL.encode(try JSONEncoder().encode(Header(kid: kid, typ: type))) + ".").utf8)
        }

        func sign(_ claims: some Encodable, encodedHeader: [UInt8]) throws -> String {
            let signingInput = encodedHeader + Array(Base64URL.encode(try JSONEncoder().encode(claims)).utf8)
            let signature = try key.signature(for: signingInput).rawRepresentation
            return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
        }
    }

    /// Verifies an access token's signature (with a published key, ES256 only), `typ`, `iss` and `exp`.
    package func verify(_ token: String) async throws -> AccessTokenClaims? {
        try await reloadIfStale()
        guard let kid = Self.headerKid(token), published.contains(where: { $0.kid == kid }) else { return nil }
        guard let claims = try? await keys.verify(token, as: AccessTokenClaims.self) else { return nil }
        let now = Int64(clock.now().timeIntervalSince1970)
        guard claims.iss == issuer, now < claims.exp else { return nil }
        return claims
    }

    private func reloadIfStale() async throws {
        if clock.now().timeIntervalSince(loadedAt) >= reloadInterval {
            try await reload()
        }
    }

    private func reload() async throws {
        let now = clock.now()
        let records = try await store.serverKeys()
        let collection = JWTKeyCollection()
        var published: [JWKSet.Key] = []
        var signing: (record: ServerKeyRecord, key: P256.Signing.PrivateKey)?
        for record in records {
            if let retired = record.retiredAt, retired.addingTimeInterval(2 * accessTokenLifetime) < now { continue }
            guard let raw = Base64URL.decode(record.privateKey),
                let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: raw)
            else { continue }
            await collection.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: JWKIdentifier(string: record.kid))
            let point = privateKey.publicKey.rawRepresentation
            published.append(
                JWKSet.Key(
                    kty: "EC", crv: "P-256", x: Base64URL.encode(point.prefix(32)), y: Base64URL.encode(point.suffix(32)),
                    kid: record.kid, alg: "ES256", use: "sig"))
            if record.activatesAt <= now, record.retiredAt.map({ $0 > now }) ?? true {
                if signing.map({ record.activatesAt >= $0.record.activatesAt }) ?? true { signing = (record, privateKey) }
            }
        }
        self.keys = collection
        self.published = published
        self.signing = try signing.map { try SigningKey(key: $0.key, kid: $0.record.kid) }
        self.loadedAt = now
    }

    private static func newKey(createdAt: Date, activatesAt: Date) -> ServerKeyRecord {
        let key = P256.Signing.PrivateKey()
        let point = key.publicKey.rawRepresentation
        let jwk = PublicJWK(kty: "EC", crv: "P-256", x: Base64URL.encode(point.prefix(32)), y: Base64URL.encode(point.suffix(32)))
        return ServerKeyRecord(
            kid: Thumbprint.of(jwk), privateKey: Base64URL.encode(key.rawRepresentation), createdAt: createdAt,
            activatesAt: activatesAt, retiredAt: nil)
    }

    private static func headerKid(_ token: String) -> String? {
        struct Header: Decodable {
            let kid: String
            let alg: String
            let typ: String
        }
        guard let encoded = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let data = Base64URL.decode(String(encoded)),
            let header = try? JSONDecoder().decode(Header.self, from: data),
            header.alg == "ES256", header.typ == "at+jwt"
        else { return nil }
        return header.kid
    }
}
