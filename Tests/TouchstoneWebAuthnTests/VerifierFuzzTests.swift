import Foundation
import Testing
@testable import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport

/// Mutated §16 responses through the full verifiers: every input either verifies or is refused with a
/// `WebAuthnError` (the verifiers throw nothing else), and none traps. Mutations reach the deep parsers too:
/// COSE keys, TPM structures, certificates and the Android key description.
@Suite struct VerifierFuzzTests {
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var copy = bytes
        CBORDecoderTests.mutate(&copy, &rng)
        return copy
    }

    /// Mutates one byte-string member of attStmt (sig, certInfo, pubArea or a certificate), keeping the CBOR valid.
    static func mutateStatement(_ attestationObject: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var local = rng
        defer { rng = local }
        return AttestationObjectEditor.edit(attestationObject, statement: { statement in
            guard !statement.entries.isEmpty else { return .map(statement) }
            var entries = statement.entries
            let index = Int.random(in: 0..<entries.count, using: &local)
            switch entries[index].value {
            case .bytes(let b):
                entries[index] = .init(key: entries[index].key, value: .bytes(mutate(b, &local)))
            case .array(let chain) where !chain.isEmpty:
                var certificates = chain
                let i = Int.random(in: 0..<chain.count, using: &local)
                certificates[i] = .bytes(mutate(chain[i].bytes ?? [], &local))
                entries[index] = .init(key: entries[index].key, value: .array(certificates))
            default:
                break
            }
            return .map(CBORMap(entries))
        })
    }

    @Test func mutatedRegistrationsAreRefusedOrVerifiedNeverTrapped() async {
        var rng = SplitMix64(seed: 0xfa22)
        var refused = 0
        var verified = 0
        let vectors = W3CVector.all
        for iteration in 0..<3_000 {
            let vector = vectors[iteration % vectors.count]
            var clientData = vector.registrationClientData
            var attestationObject = vector.attestationObject
            switch iteration % 4 {
            case 0: attestationObject = Self.mutate(attestationObject, &rng)
            case 1: attestationObject = Self.mutateStatement(attestationObject, &rng)
            case 2: attestationObject = AttestationObjectEditor.edit(attestationObject, authData: { Self.mutate($0, &rng) })
            default: clientData = Self.mutate(clientData, &rng)
            }
            do {
                _ = try await Fixtures.registrationVerifier(crossOrigin: Fixtures.crossOrigin(for: vector)).verify(
                    clientDataJSON: clientData, attestationObject: attestationObject,
                    expecting: RegistrationExpectations(
                        challenge: vector.registrationChallenge, userHandle: Fixtures.userHandle, requiresUserVerification: false),
                    now: Fixtures.now)
                verified += 1
            } catch {
                refused += 1
            }
        }
        #expect(refused + verified == 3_000)
        #expect(refused > 2_000)
    }

    @Test func mutatedAssertionsAreRefusedOrVerifiedNeverTrapped() async throws {
        var rng = SplitMix64(seed: 0xfa23)
        var credentials: [String: Credential] = [:]
        for vector in W3CVector.all where vector.section != "16.12" {
            credentials[vector.section] = try await Fixtures.register(vector).credential
        }
        var refused = 0
        for iteration in 0..<3_000 {
            let vector = W3CVector.all.filter { $0.section != "16.12" }[iteration % 14]
            guard let credential = credentials[vector.section] else { continue }
            var clientData = vector.authenticationClientData
            var authData = vector.authenticatorData
            var signature = vector.signature
            switch iteration % 3 {
            case 0: clientData = Self.mutate(clientData, &rng)
            case 1: authData = Self.mutate(authData, &rng)
            default: signature = Self.mutate(signature, &rng)
            }
            do {
                _ = try Fixtures.authenticationVerifier(crossOrigin: Fixtures.crossOrigin(for: vector)).verify(
                    credentialID: vector.credentialID, clientDataJSON: clientData, authenticatorData: authData,
                    signature: signature, userHandle: nil,
                    expecting: AuthenticationExpectations(
                        challenge: vector.authenticationChallenge, requiresUserVerification: false, identifiedUser: Fixtures.userHandle),
                    credential: credential)
            } catch {
                refused += 1
            }
        }
        // Any change to signed bytes must be refused; only changes to JSON whitespace-free parts can be no-ops.
        #expect(refused >= 2_900)
    }
}
