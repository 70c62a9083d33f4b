import Foundation
import Testing
import TouchstoneClient
import TouchstoneProtocol

/// A registration running in the background: a new device of a user who already has one waits there for a decision
/// from the user's other device.
final class PendingRegistration: Sendable {
    let profile: Profile
    let client: TouchstoneClient
    let task: Task<Session, any Error>
    private let announced: Task<EnrollmentPending?, Never>

    /// Starts registering a new device of `username`; `onPending` runs when the registration starts waiting.
    convenience init(
        on server: LiveServer, username: String = "ana", deviceName: String = "Second Device",
        onPending: @escaping @Sendable (EnrollmentPending) async -> Void = { _ in }
    ) {
        let profile = server.profile()
        self.init(server.client(profile, deviceName: deviceName), on: profile, username: username, onPending: onPending)
    }

    /// Starts registering `client`, whose key store is `profile` (which may hold a registration already).
    init(
        _ client: TouchstoneClient, on profile: Profile, username: String = "ana", pin: String = LiveServer.pin,
        onPending: @escaping @Sendable (EnrollmentPending) async -> Void = { _ in }
    ) {
        let (announcements, announce) = AsyncStream.makeStream(of: EnrollmentPending.self)
        self.profile = profile
        self.client = client
        announced = Task {
            for await pending in announcements {
                return pending
            }
            return nil
        }
        task = Task {
            defer { announce.finish() }
            return try await client.register(
                username: username, password: LiveServer.password, pin: pin,
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
        await announced.value
    }

    /// The number the new device shows, which the approving device must pick; the registration must wait.
    func number(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        try #require(await waitingForApproval(), "the registration waits for approval", sourceLocation: sourceLocation)
            .number
    }

    /// The outcome of the registration.
    var session: Session {
        get async throws { try await task.value }
    }
}
