import Testing
import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// An App Attest attestation object taken apart, to build tampered copies.
struct AppAttestParts {
    var format: String
    var x5c: [[UInt8]]
    var receipt: [UInt8]
    var authData: [UInt8]

    init(format: String, x5c: [[UInt8]], receipt: [UInt8], authData: [UInt8]) {
        self.format = format
        self.x5c = x5c
        self.receipt = receipt
        self.authData = authData
    }

    init(_ object: [UInt8]) throws {
        let map = try #require(try CBORDecoder().decode(object).map)
        let statement = try #require(map[text: "attStmt"]?.map)
        format = try #require(map[text: "fmt"]?.text)
        x5c = try #require(statement[text: "x5c"]?.array).compactMap(\.bytes)
        receipt = try #require(statement[text: "receipt"]?.bytes)
        authData = try #require(map[text: "authData"]?.bytes)
    }

    func with(format: String? = nil, x5c: [[UInt8]]? = nil, authData: [UInt8]? = nil) -> AppAttestParts {
        AppAttestParts(format: format ?? self.format, x5c: x5c ?? self.x5c, receipt: receipt, authData: authData ?? self.authData)
    }

    /// The canonical CBOR object.
    func encoded() -> [UInt8] {
        AppAttestFixture.encode(format: format, x5c: x5c, receipt: receipt, authData: authData)
    }
}
