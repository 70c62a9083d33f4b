import Foundation
import Testing
import TouchstoneClient
import TouchstoneCrypto
import TouchstoneProtocol

/// Story 17 on the device: the platform's key attestor attests the registration's new keys for its challenge, and its
/// attestation goes with the completion.
@Suite("Key attestation")
struct KeyAttestorTests {
    /// The client of `server` on `profile` with `attestor`.
    static func client(_ server: LiveServer, _ profile: Profile, _ attestor: RecordingAttestor, _ transport: RecordingTransport)
        -> TouchstoneClient
    {
        var platform = Platform.software(
            directory: profile.directory, verifier: ScriptedVerifier(.match), deviceName: "Test Device",
            transport: transport)
        platform.attestor = attestor
        return TouchstoneClient(server: server.url, clientID: LiveServer.demoApp, platform: platform)
    }

    /// The `attestation` member of the completion `transport` sent, as JSON.
    static func sentAttestation(_ transport: RecordingTransport) throws -> Any? {
        let completion = try #require(transport.sent.first { $0.path.hasSuffix("/complete") })
        let data = try #require(completion.body)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return body["attestation"]
    }

    @Test("the attestation covers the enrolment's challenge and both new keys, and is sent with the completion")
    func attestationIsSentForTheNewKeys() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let transport = server.recorder()
            let attestor = RecordingAttestor(.attestation(.appleAppAttest(keyId: "AAAA", attestationObject: "oA")))
            let client = Self.client(server, profile, attestor, transport)
            // The demo app requires none, but one that is sent must pass: this one is not a real attestation.
            await expectError(.server, serverCode: .attestationInvalid) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(profile.credentialFiles.isEmpty, "nothing is kept")
            let subject = try #require(attestor.subjects.first)
            #expect(attestor.subjects.count == 1)
            let sent = try #require(try Self.sentAttestation(transport) as? [String: String])
            #expect(sent == ["format": "apple-appattest", "keyId": "AAAA", "attestationObject": "oA"])
            let completion = try #require(transport.sent.first { $0.path.hasSuffix("/complete") })
            let data = try #require(completion.body)
            let body = try JSONDecoder().decode(EnrollmentCompletion.self, from: data)
            #expect(subject.deviceKey.thumbprint == (try DevicePublicKey(jwk: body.deviceKey)).thumbprint)
            #expect(subject.biometricKey?.thumbprint == (try body.biometricKey.map(DevicePublicKey.init(jwk:)))?.thumbprint)
            #expect(subject.biometricKey != nil)
            // The challenge is the enrolment's: the one the proofs answer.
            let proofPayload = try #require(Base64URL.decode(String(body.deviceProof.split(separator: ".")[1])))
            let claims = try #require(try JSONSerialization.jsonObject(with: proofPayload) as? [String: Any])
            #expect(claims["nonce"] as? String == subject.challenge)
            #expect(
                subject.appAttestClientDataHash
                    == AppAttestClientData.hash(
                        challenge: subject.challenge, deviceKeyID: subject.deviceKey.thumbprint,
                        biometricKeyID: subject.biometricKey?.thumbprint))
        }
    }

    @Test("a device that cannot attest registers without an attestation")
    func noAttestation() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let transport = server.recorder()
            let attestor = RecordingAttestor(.none)
            let client = Self.client(server, server.profile(), attestor, transport)
            try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            #expect(attestor.subjects.count == 1)
            #expect(try Self.sentAttestation(transport) == nil)
        }
    }

    @Test("an attestation that fails on the device stops the registration before the completion is sent")
    func failingAttestor() async throws {
        try await LiveServer.run { server in
            try await server.createUser()
            let profile = server.profile()
            let transport = server.recorder()
            let client = Self.client(server, profile, RecordingAttestor(.failure), transport)
            await #expect(throws: RecordingAttestor.Failure.self) {
                try await client.register(username: "ana", password: LiveServer.password, pin: LiveServer.pin)
            }
            #expect(!transport.requests.contains { $0.hasSuffix("/complete") })
            #expect(profile.credentialFiles.isEmpty)
        }
    }
}
