import Foundation
import Testing
import TouchstoneProtocol
import TouchstoneTestSupport

@testable import TouchstoneDelivery

@Suite struct PushEndpointsTests {
    @Test func liveEndpointsAreApplesAndGooglesHostsWithTheSystemsRootsOnly() throws {
        for endpoints in [PushEndpoints.live, try PushEndpoints()] {
            #expect(endpoints.apnsProduction == "https://api.push.apple.com")
            #expect(endpoints.apnsDevelopment == "https://api.sandbox.push.apple.com")
            #expect(endpoints.fcm == "https://fcm.googleapis.com")
            #expect(endpoints.additionalTrustRoots.isEmpty)
        }
    }

    @Test func theTestOverridesReplaceBothAPNsHostsAndFCMAndAddTheirCA() async throws {
        try await withPushTestServer { server in
            let apnsOnly = try PushEndpoints(insecureAPNsURL: "https://127.0.0.1:8443/")
            #expect(apnsOnly.apnsProduction == "https://127.0.0.1:8443")
            #expect(apnsOnly.apnsDevelopment == "https://127.0.0.1:8443")
            #expect(apnsOnly.fcm == "https://fcm.googleapis.com")
            let all = try PushEndpoints(
                insecureAPNsURL: "https://[::1]:9443", insecureFCMURL: "https://localhost:9444",
                insecureTrustRootsPEM: server.caPEM())
            #expect(all.apnsProduction == "https://[::1]:9443")
            #expect(all.fcm == "https://localhost:9444")
            #expect(all.additionalTrustRoots.count == 1)
        }
    }

    @Test(arguments: ["http://127.0.0.1:8443", "https://127.0.0.1:8443/3/device", "https://127.0.0.1?x=1", "127.0.0.1:8443", "https://user@host"])
    func anOverrideThatIsNotAnHTTPSOriginIsRefused(_ url: String) {
        #expect(throws: PushConfigurationError.self) { try PushEndpoints(insecureAPNsURL: url) }
        #expect(throws: PushConfigurationError.self) { try PushEndpoints(insecureFCMURL: url) }
    }

    @Test func aCAFileWithoutACertificateIsRefused() {
        #expect(throws: PushConfigurationError.self) { try PushEndpoints(insecureTrustRootsPEM: "not a certificate") }
        #expect(throws: PushConfigurationError.self) {
            try PushEndpoints(insecureTrustRootsPEM: PushFixture.apns.keyPEM)
        }
    }

    @Test func everyKindAndNoticeEventHasItsOwnFixedText() {
        let kinds: [InboxItemKind] = [.confirmation, .webLogin, .enrollment, InboxItemKind(rawValue: "ciba")]
        let events: [SecurityEvent] = [
            .deviceAdded, .deviceRemoved, .passwordChanged, .pinChanged, .recoveryCodesCreated, .recoveryCodeUsed,
            .passkeyAdded, .passkeyRemoved, .sessionsEnded,
        ]
        let texts = kinds.map { PushText(PushReference(kind: $0, id: "itm_1", deviceId: "dev_1")) }
            + events.map { PushText(PushReference(kind: .notice, id: "itm_1", deviceId: "dev_1", event: $0)) }
        #expect(Set(texts.map { $0.title + "\n" + $0.body }).count == kinds.count + events.count)
        let general = PushText(PushReference(kind: InboxItemKind(rawValue: "later"), id: "itm_1", deviceId: "dev_1"))
        #expect(general.title == "Touchstone" && general.body == "Something waits for you. Open to see it.")
        #expect(!texts.contains(general))
    }
}
