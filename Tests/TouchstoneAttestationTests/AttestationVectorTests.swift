import Crypto
import Foundation
import Testing
import TouchstoneAttestation
import TouchstoneWebAuthn
import TouchstoneWebAuthnTestSupport
import SwiftASN1
import X509

/// The one runner over `Vectors/manifest.json`: every vector gives what the manifest says, and tampered copies of the
/// valid ones are refused with the code of the check they break.
struct AttestationVectorTests {
    // MARK: - Android

    @Test(arguments: try VectorManifest.load().android)
    func androidVector(_ vector: VectorManifest.Android) throws {
        let chain = try Vectors.chain(vector.chain)
        let time = try Vectors.date(vector.verifyAt)

        let extensionValue = try Self.keyDescriptionExtension(of: chain[0])
        if vector.keyDescription == "valid" {
            let description = try KeyDescription(derEncoded: extensionValue)
            if let expected = vector.expected {
                try ExpectedKeyDescription.expectMatches(description, try Vectors.json(expected))
            }
            if let locked = vector.deviceLocked {
                #expect(description.hardwareEnforced.rootOfTrust?.deviceLocked == locked)
            }
        } else {
            let error = #expect(throws: AttestationError.self) { try KeyDescription(derEncoded: extensionValue) }
            #expect(error?.code.rawValue == vector.keyDescription)
        }

        let attestation: AndroidKeyAttestation
        let verifier = AndroidKeyAttestationVerifier(statusList: AttestationStatusList())
        if vector.verification == "valid" {
            attestation = try verifier.verify(chain: chain, at: time)
            if let later = vector.stillValidAt {
                #expect(try verifier.verify(chain: chain, at: try Vectors.date(later)) == attestation)
            }
        } else {
            let error = #expect(throws: AttestationError.self) { try verifier.verify(chain: chain, at: time) }
            #expect(error?.code.rawValue == vector.verification)
            guard vector.trustChainRootInsecurely == true, let root = chain.last else { return }
            let anchors = AttestationTrustAnchors(insecureAdditionalRoots: [try Certificate(derEncoded: root)])
            attestation = try AndroidKeyAttestationVerifier(trustAnchors: anchors, statusList: AttestationStatusList())
                .verify(chain: chain, at: time)
        }
        var leafKey = DER.Serializer()
        try leafKey.serialize(try Certificate(derEncoded: chain[0]).publicKey)
        #expect(attestation.publicKey == (try AttestationPublicKey(subjectPublicKeyInfoDER: leafKey.serializedBytes)))

        let policy = try Self.policy(vector)
        let challenge = try Vectors.base64(try #require(vector.challenge))
        for (role, expected) in [(AndroidKeyRole.device, vector.deviceRefusals), (.biometric, vector.biometricRefusals)] {
            let expected = try #require(expected)
            let refusals = policy.refusals(of: attestation, expectedKey: attestation.publicKey, challenge: challenge, role: role)
            #expect(refusals.map(\.code.rawValue) == expected, "\(role)")
            if let first = expected.first {
                let error = #expect(throws: AttestationError.self) {
                    try policy.evaluate(attestation, expectedKey: attestation.publicKey, challenge: challenge, role: role)
                }
                #expect(error?.code.rawValue == first)
            } else {
                let storage = try policy.evaluate(attestation, expectedKey: attestation.publicKey, challenge: challenge, role: role)
                #expect("\(storage)" == vector.storage)
            }
        }
    }

    @Test(arguments: try VectorManifest.load().android.filter { $0.verification == "valid" })
    func tamperedAndroidChainIsRefused(_ vector: VectorManifest.Android) throws {
        let chain = try Vectors.chain(vector.chain)
        let time = try Vectors.date(vector.verifyAt)
        let verifier = AndroidKeyAttestationVerifier(statusList: AttestationStatusList())
        func expectRefused(
            _ code: AttestationError.Code, _ chain: [[UInt8]], at time: Date, by verifier: AndroidKeyAttestationVerifier,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let error = #expect(throws: AttestationError.self, sourceLocation: sourceLocation) {
                try verifier.verify(chain: chain, at: time)
            }
            #expect(error?.code == code, sourceLocation: sourceLocation)
        }
        // The copy untouched verifies, so each refusal below is the tampering's doing.
        let attestation = try verifier.verify(chain: chain, at: time)

        var leafSignature = chain
        leafSignature[0] = Vectors.flipped(chain[0], at: -1)
        expectRefused(.chainInvalid, leafSignature, at: time, by: verifier)
        var intermediateSignature = chain
        intermediateSignature[1] = Vectors.flipped(chain[1], at: -1)
        expectRefused(.chainInvalid, intermediateSignature, at: time, by: verifier)
        let challenge = try Vectors.base64(try #require(vector.challenge))
        let challengeOffset = try #require(Self.offset(of: challenge, in: chain[0]))
        var editedChallenge = chain
        editedChallenge[0] = Vectors.flipped(chain[0], at: challengeOffset)
        expectRefused(.chainInvalid, editedChallenge, at: time, by: verifier)
        expectRefused(.chainInvalid, [chain[0]] + chain.dropFirst(2), at: time, by: verifier)
        expectRefused(.missingKeyDescription, Array(chain.dropFirst()), at: time, by: verifier)
        expectRefused(.chainInvalid, [], at: time, by: verifier)
        expectRefused(.certificateOutsideValidity, chain, at: try Vectors.date("2100-01-01T00:00:00Z"), by: verifier)
        expectRefused(.certificateOutsideValidity, chain, at: Date(timeIntervalSince1970: 0), by: verifier)

        for (index, status) in [(1, "REVOKED"), (chain.count - 2, "SUSPENDED")] {
            let serial = try Certificate(derEncoded: chain[index]).serialNumber.bytes
            let hex = serial.map { String(format: "%02x", $0) }.joined()
            let list = try AttestationStatusList(json: Data(#"{"entries": {"\#(hex)": {"status": "\#(status)"}}}"#.utf8))
            expectRefused(.certificateRevoked, chain, at: time, by: AndroidKeyAttestationVerifier(statusList: list))
        }

        // The chain's own copy of the root may be left out: the anchor is found by the issuer's name and key.
        #expect(try verifier.verify(chain: Array(chain.dropLast()), at: time) == attestation)

        let policy = try Self.policy(vector)
        let otherKey = AttestationPublicKey(P256.Signing.PrivateKey().publicKey)
        let checks: [(AttestationError.Code, [AttestationError])] = [
            (.keyMismatch, policy.refusals(of: attestation, expectedKey: otherKey, challenge: challenge, role: .device)),
            (.challengeMismatch, policy.refusals(
                of: attestation, expectedKey: attestation.publicKey, challenge: Vectors.flipped(challenge, at: 0), role: .device)),
            (.applicationNotAllowed, AndroidKeyAttestationPolicy(allowedApplications: [
                AndroidApplication(packageName: "com.example.other", signingCertificateSHA256: Array(repeating: 7, count: 32))
            ]).refusals(of: attestation, expectedKey: attestation.publicKey, challenge: challenge, role: .device)),
        ]
        for (code, refusals) in checks {
            #expect(refusals.map(\.code).contains(code), "\(code)")
        }
    }

    // MARK: - Apple

    @Test(arguments: try VectorManifest.load().apple)
    func appleVector(_ vector: VectorManifest.Apple) throws {
        let (object, keyID, clientDataHash, time) = try Self.inputs(vector)
        let verifier = AppAttestVerifier(
            policy: AppAttestPolicy(allowedAppIDs: ["ABCDE12345.com.example.other", vector.appId], allowsDevelopment: true))
        let attestation = try verifier.verify(attestationObject: object, keyID: keyID, clientDataHash: clientDataHash, at: time)
        #expect(attestation.appID == vector.appId)
        #expect("\(attestation.environment)" == vector.environment)
        #expect(attestation.keyID == keyID)
        #expect(Vectors.sha256(attestation.publicKey.x963Representation) == keyID)
        #expect(attestation.receipt.starts(with: [0x30, 0x80]), "a BER CMS SignedData")

        let productionOnly = AppAttestVerifier(policy: AppAttestPolicy(allowedAppIDs: [vector.appId]))
        if vector.environment == "production" {
            let verified = try productionOnly.verify(attestationObject: object, keyID: keyID, clientDataHash: clientDataHash, at: time)
            #expect(verified.environment == .production)
            #expect(verified.publicKey.rawRepresentation == attestation.publicKey.rawRepresentation)
        } else {
            let error = #expect(throws: AttestationError.self) {
                try productionOnly.verify(attestationObject: object, keyID: keyID, clientDataHash: clientDataHash, at: time)
            }
            #expect(error?.code == .environmentNotAllowed)
        }

        // The other reading of the client data (hashed when it is given raw, raw when it is hashed) misses the nonce.
        let clientData = try Vectors.base64(vector.clientData)
        let otherHash = vector.hashClientData ? clientData : Vectors.sha256(clientData)
        let error = #expect(throws: AttestationError.self) {
            try verifier.verify(attestationObject: object, keyID: keyID, clientDataHash: otherHash, at: time)
        }
        #expect(error?.code == .nonceMismatch)
    }

    @Test(arguments: try VectorManifest.load().apple)
    func tamperedAppleAttestationIsRefused(_ vector: VectorManifest.Apple) throws {
        let (object, keyID, clientDataHash, time) = try Self.inputs(vector)
        let verifier = AppAttestVerifier(policy: AppAttestPolicy(allowedAppIDs: [vector.appId], allowsDevelopment: true))
        func expectRefused(
            _ code: AttestationError.Code, object: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], at time: Date,
            by verifier: AppAttestVerifier, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let error = #expect(throws: AttestationError.self, sourceLocation: sourceLocation) {
                try verifier.verify(attestationObject: object, keyID: keyID, clientDataHash: clientDataHash, at: time)
            }
            #expect(error?.code == code, sourceLocation: sourceLocation)
        }
        func expectRefused(_ code: AttestationError.Code, object: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
            expectRefused(code, object: object, keyID: keyID, clientDataHash: clientDataHash, at: time, by: verifier, sourceLocation: sourceLocation)
        }
        let parts = try AppAttestParts(object)
        #expect(parts.encoded() == object, "the copy re-encodes to the same bytes")
        #expect(try verifier.verify(attestationObject: parts.encoded(), keyID: keyID, clientDataHash: clientDataHash, at: time).keyID == keyID)

        expectRefused(.keyIDMismatch, object: object, keyID: Vectors.flipped(keyID, at: 0), clientDataHash: clientDataHash, at: time, by: verifier)
        expectRefused(.nonceMismatch, object: object, keyID: keyID, clientDataHash: Vectors.flipped(clientDataHash, at: 0), at: time, by: verifier)
        // rpIdHash, flags, counter, AAGUID, credential ID and COSE key: the nonce covers every byte of authData.
        for offset in [0, 32, 36, 37, 55, 60] {
            expectRefused(.nonceMismatch, object: parts.with(authData: Vectors.flipped(parts.authData, at: offset)).encoded())
        }
        expectRefused(.chainInvalid, object: parts.with(x5c: [Vectors.flipped(parts.x5c[0], at: -1), parts.x5c[1]]).encoded())
        expectRefused(.untrustedRoot, object: parts.with(x5c: [parts.x5c[0], Vectors.flipped(parts.x5c[1], at: -1)]).encoded())
        expectRefused(.untrustedRoot, object: parts.with(x5c: [parts.x5c[0]]).encoded())
        expectRefused(.chainInvalid, object: parts.with(x5c: [parts.x5c[1], parts.x5c[0]]).encoded())
        expectRefused(.malformedAttestationObject, object: parts.with(format: "apple").encoded())
        expectRefused(.malformedAttestationObject, object: object + [0x00])
        expectRefused(.malformedAttestationObject, object: Array(object.dropLast()))
        for moved in [-2 * 86_400.0, 400 * 86_400.0] {
            expectRefused(.certificateOutsideValidity, object: object, keyID: keyID, clientDataHash: clientDataHash,
                          at: time.addingTimeInterval(moved), by: verifier)
        }
        let otherApp = AppAttestVerifier(policy: AppAttestPolicy(allowedAppIDs: ["ABCDE12345.com.example.other"], allowsDevelopment: true))
        expectRefused(.appIDNotAllowed, object: object, keyID: keyID, clientDataHash: clientDataHash, at: time, by: otherApp)
    }

    // MARK: - Helpers

    /// The value of the leaf's key attestation extension.
    static func keyDescriptionExtension(of der: [UInt8]) throws -> [UInt8] {
        let leaf = try Certificate(derEncoded: der)
        let ext = try #require(leaf.extensions.first { $0.oid.description == "1.3.6.1.4.1.11129.2.1.17" })
        return Array(ext.value)
    }

    /// A policy that allows the vector's own app.
    static func policy(_ vector: VectorManifest.Android) throws -> AndroidKeyAttestationPolicy {
        let application = try #require(vector.application)
        return AndroidKeyAttestationPolicy(allowedApplications: [
            AndroidApplication(packageName: application.package, signingCertificateSHA256: try Vectors.base64(application.signature))
        ])
    }

    /// Where `needle` first stands in `haystack`.
    static func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The attestation object, keyId, clientDataHash and verification time of an Apple vector.
    static func inputs(_ vector: VectorManifest.Apple) throws -> (object: [UInt8], keyID: [UInt8], clientDataHash: [UInt8], time: Date) {
        let base64: String
        if let field = vector.yamlField {
            base64 = try Vectors.yamlField(field, in: vector.file)
        } else if let field = vector.jsonField {
            base64 = try #require(try Vectors.json(vector.file)[field] as? String)
        } else {
            base64 = try Vectors.text(vector.file).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let clientData = try Vectors.base64(vector.clientData)
        return (
            try Vectors.base64(base64), try Vectors.base64(vector.keyId),
            vector.hashClientData ? Vectors.sha256(clientData) : clientData, try Vectors.date(vector.verifyAt)
        )
    }
}
