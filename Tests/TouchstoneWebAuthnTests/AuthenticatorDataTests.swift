import Crypto
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

@Suite struct AuthenticatorDataTests {
    let authenticator = SoftAuthenticator(seed: 20)

    func code(_ bytes: [UInt8]) -> WebAuthnError.Code? {
        let error = #expect(throws: WebAuthnError.self) { try AuthenticatorData(bytes: bytes) }
        return error?.code
    }

    @Test func parsesEveryField() throws {
        let bytes = authenticator.authenticatorData(
            flags: [.userPresent, .userVerified, .backupEligible], signCount: 0x0102_0304, attested: true,
            extensions: CBOREncoder.map([(.text("credProtect"), .unsigned(2))]))
        let data = try AuthenticatorData(bytes: bytes)
        #expect(data.rpIdHash == Array(SHA256.hash(data: Array("example.org".utf8))))
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .attestedCredentialData, .extensionData])
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredentialData?.aaguid == authenticator.aaguid)
        #expect(data.attestedCredentialData?.credentialID == authenticator.credentialID)
        #expect(data.attestedCredentialData?.credentialPublicKeyBytes == authenticator.coseKey)
        #expect(data.extensions?[text: "credProtect"] == .unsigned(2))
        #expect(data.bytes == bytes)
    }

    @Test func parsesTheVectorsAuthenticatorData() throws {
        let data = try AttestationObject(bytes: W3CVector.section("16.6").attestationObject).authenticatorData
        #expect(data.attestedCredentialData?.credentialID.count == 1023)
        #expect(data.signCount == 0)
    }

    @Test func refusesDataThatDisagreesWithItsFlags() {
        let plain = authenticator.authenticatorData(flags: [.userPresent], signCount: 1, attested: false)
        let attested = authenticator.authenticatorData(flags: [.userPresent], signCount: 1, attested: true)
        #expect(code(Array(plain.prefix(36))) == .malformedAuthenticatorData)
        #expect(code(plain + [0xa0]) == .malformedAuthenticatorData)  // extensions without ED
        #expect(code(AttestationObjectEditor.flip(plain, at: 32, mask: 0x80)) == .malformedAuthenticatorData)  // ED without extensions
        #expect(code(AttestationObjectEditor.flip(plain, at: 32, mask: 0x40)) == .malformedAuthenticatorData)  // AT without data
        #expect(code(attested + [0x00]) == .malformedAuthenticatorData)
        #expect(code(AttestationObjectEditor.flip(attested, at: 32, mask: 0x40)) == .malformedAuthenticatorData)  // data without AT
        var longID = attested
        longID[53] = 0xff  // credential ID length beyond the data
        #expect(code(longID) == .malformedAuthenticatorData)
        #expect(code(Array(attested.prefix(60))) == .malformedAuthenticatorData)
        // A credential public key that is not canonical CBOR, or not a map.
        let badKey = Array(plain[0..<32]) + [0x41, 0, 0, 0, 1] + authenticator.aaguid + [0, 1, 7] + [0xa2, 0x02, 0x01, 0x01, 0x00]
        #expect(code(badKey) == .malformedCredentialPublicKey)
        let notMap = Array(plain[0..<32]) + [0x41, 0, 0, 0, 1] + authenticator.aaguid + [0, 1, 7] + [0x80]
        #expect(code(notMap) == .malformedCredentialPublicKey)
        // Extensions must be a canonical map keyed by text.
        let unsorted: [UInt8] = [0xa2, 0x62, 0x7a, 0x7a, 0x01, 0x61, 0x61, 0x01]
        #expect(code(AttestationObjectEditor.flip(plain, at: 32, mask: 0x80) + unsorted) == .malformedAuthenticatorData)
    }
}
