import Testing

@testable import TouchstoneStorage

extension LiveServer {
    /// Gives the demo app APNs credentials for its own bundle id and an FCM service account, straight in the store (as
    /// `touchstone admin app push` does). Their keys are never used: these tests send no push.
    func configurePush() async throws {
        let apns = APNsCredentials(
            keyPEM: "unused", keyId: "ABCDE12345", teamId: "TEAM123456", topics: [LiveServer.demoApp])
        let fcm = FCMServiceAccount(
            projectId: "demo-project", clientEmail: "push@demo-project.iam.gserviceaccount.com", privateKeyId: "key-1",
            privateKeyPEM: "unused", tokenURI: "https://oauth2.googleapis.com/token")
        #expect(
            try await store.updatePushCredentials(
                clientId: LiveServer.demoApp, apns: .set(apns), fcm: .set(fcm), at: clock.now()))
    }
}
