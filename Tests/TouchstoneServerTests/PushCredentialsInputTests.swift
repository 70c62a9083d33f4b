import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// What `admin app push` accepts, checked in one place before anything is stored.
@Suite struct PushCredentialsInputTests {
    static let p8 = P256.Signing.PrivateKey().pemRepresentation

    static func serviceAccount(_ members: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: members)
    }

    static func validAccount() throws -> [String: Any] {
        [
            "type": "service_account", "project_id": "demo-project", "private_key_id": "0123abcd",
            "private_key": try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation,
            "client_email": "push@demo-project.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
    }

    static func apns(
        key: String? = p8, keyId: String? = "ABCDE12345", teamId: String? = "TEAM123456",
        topics: [String] = ["com.example.pay"]
    ) -> PushCredentialsInput {
        PushCredentialsInput(apnsKeyPEM: key, apnsKeyId: keyId, apnsTeamId: teamId, apnsTopics: topics)
    }

    @Test func validAPNsAndFCMInputBecomeCredentialsAndLeaveTheOtherProviderAlone() throws {
        let apns = try Self.apns(topics: ["com.example.pay", "com.example.pay.voip", "com.example.pay"]).changes()
        guard case .set(let credentials) = apns.apns, case .keep = apns.fcm else {
            Issue.record("\(apns)")
            return
        }
        #expect(credentials == APNsCredentials(
            keyPEM: Self.p8, keyId: "ABCDE12345", teamId: "TEAM123456", topics: ["com.example.pay", "com.example.pay.voip"]))

        let fcm = try PushCredentialsInput(fcmServiceAccount: try Self.serviceAccount(try Self.validAccount())).changes()
        guard case .keep = fcm.apns, case .set(let account) = fcm.fcm else {
            Issue.record("\(fcm)")
            return
        }
        #expect(account.projectId == "demo-project" && account.privateKeyId == "0123abcd")

        let removal = try PushCredentialsInput(removesAPNs: true).changes()
        guard case .remove = removal.apns, case .keep = removal.fcm else {
            Issue.record("\(removal)")
            return
        }
    }

    @Test func malformedInputIsRefusedWithAMessageWithoutKeyMaterial() throws {
        let ecSEC1 = P256.Signing.PrivateKey().pemRepresentation.replacingOccurrences(of: "PRIVATE KEY", with: "EC PRIVATE KEY")
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048).pkcs8PEMRepresentation
        let valid = try Self.validAccount()
        func account(_ change: (inout [String: Any]) -> Void) throws -> PushCredentialsInput {
            var members = valid
            change(&members)
            return PushCredentialsInput(fcmServiceAccount: try Self.serviceAccount(members))
        }
        var refused: [PushCredentialsInput] = [
            PushCredentialsInput(),
            Self.apns(key: nil), Self.apns(keyId: nil), Self.apns(teamId: nil), Self.apns(topics: []),
            Self.apns(key: "not a key"), Self.apns(key: ecSEC1), Self.apns(key: p384), Self.apns(key: rsa),
            Self.apns(key: String(Self.p8.dropLast(40))),
            Self.apns(keyId: ""), Self.apns(keyId: "abcde12345"), Self.apns(keyId: "ABCDE1234"), Self.apns(keyId: "ABCDE123456"),
            Self.apns(teamId: ""), Self.apns(teamId: "TEAM12345-"),
            Self.apns(topics: [""]), Self.apns(topics: [".com.example"]), Self.apns(topics: ["com example"]),
            PushCredentialsInput(apnsKeyId: "ABCDE12345", removesAPNs: true),
            PushCredentialsInput(fcmServiceAccount: Data("{".utf8)),
            PushCredentialsInput(fcmServiceAccount: Data("[]".utf8)),
            PushCredentialsInput(fcmServiceAccount: try Self.serviceAccount(valid), removesFCM: true),
            try account { $0["private_key"] = "not a key" },
            try account { $0["private_key"] = Self.p8 },
            try account { $0["token_uri"] = "http://oauth2.googleapis.com/token" },
            try account { $0["token_uri"] = "oauth2.googleapis.com" },
        ]
        for member in ["project_id", "client_email", "private_key_id", "private_key", "token_uri"] {
            refused.append(try account { $0[member] = nil })
            refused.append(try account { $0[member] = "" })
            refused.append(try account { $0[member] = 7 })
        }
        for input in refused {
            let error = #expect(throws: ConfigurationError.self, "\(input)") { try input.changes() }
            #expect(error?.description.contains("\n") == false, "one line: \(String(describing: error))")
            #expect(error?.description.contains("PRIVATE KEY") == false, "\(String(describing: error))")
        }
    }
}
