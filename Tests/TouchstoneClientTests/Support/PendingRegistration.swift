import Foundation
import TouchstoneClient
import TouchstoneProtocol

/// A new device of a user who already has one: its registration runs in the background, waiting for a decision
/// from the user's other device.
final class PendingRegistration: Sendable {
    let profile: Profile
    let client: TouchstoneClient
    let task: Task<Session, any Error>
    private let announcements: AsyncStream<EnrollmentPending>

    /// Starts registering a new device of `username`; `onPending` runs when the registration starts waiting.
    init(
        on server: LiveServer, username: String = "ana", deviceName: String = "Second Device",
        onPending: @escaping @Sendable (EnrollmentPending) async -> Void = { _ in }
    ) {
        let profile = server.profile()
        let client = server.client(profile, deviceName: deviceName)
        let (announcements, announce) = AsyncStream.makeStream(of: EnrollmentPending.self)
        self.profile = profile
        self.client = client
        self.announcements = announcements
        task = Task {
            defer { announce.finish() }
            return try await client.register(
                username: username, password: LiveServer.password, pin: LiveServer.pin,
                onApprovalPending: { pending in
                    announce.yield(pending)
                    await onPending(pending)
                })
        }
    }

    deinit {
        task.cancel()
    }

    /// What `onApprovalPending` was given, once the registration waits; `nil` if it ended without waiting.
    func waitingForApproval() async -> EnrollmentPending? {
        for await pending in announcements {
            return pending
        }
        return nil
    }

    /// The outcome of the registration.
    var session: Session {
        get async throws { try await task.value }
    }
}
