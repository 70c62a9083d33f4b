@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// Rewrites parts of an attestation object (decoded strictly, re-encoded canonically) to make tampered copies.
enum AttestationObjectEditor {
    static func edit(
        _ bytes: [UInt8], format: ((String) -> String)? = nil, authData: (([UInt8]) -> [UInt8])? = nil,
        statement: ((CBORMap) -> CBORValue)? = nil
    ) -> [UInt8] {
        guard let map = try? CBORDecoder().decode(bytes).map,
            let fmt = map[text: "fmt"]?.text, let attStmt = map[text: "attStmt"]?.map, let data = map[text: "authData"]?.bytes
        else { preconditionFailure("not an attestation object") }
        return SoftAuthenticator.attestationObject(
            format: format?(fmt) ?? fmt, statement: statement?(attStmt) ?? .map(attStmt),
            authenticatorData: authData?(data) ?? data)
    }

    /// The statement with `key` replaced by `value`.
    static func replacing(_ key: String, with value: CBORValue, in statement: CBORMap) -> CBORValue {
        .map(CBORMap(statement.entries.map { $0.key == .text(key) ? CBORMap.Entry(key: $0.key, value: value) : $0 }))
    }

    /// The statement without `key`.
    static func removing(_ key: String, from statement: CBORMap) -> CBORValue {
        .map(CBORMap(statement.entries.filter { $0.key != .text(key) }))
    }

    static func flip(_ bytes: [UInt8], at index: Int, mask: UInt8 = 0x01) -> [UInt8] {
        var copy = bytes
        let i = index < 0 ? copy.count + index : index
        copy[i] ^= mask
        return copy
    }
}
