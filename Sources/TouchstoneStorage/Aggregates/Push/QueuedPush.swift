import Foundation
import TouchstoneProtocol

/// One push waiting in the outbox, claimed for sending: the item it announces, the device it is for, and where that
/// device's pushes go now.
package struct QueuedPush: OutboxMessage, Equatable {
    package var id: String
    /// What the push names (kind, item id, device id, a notice's event).
    package var reference: PushReference
    /// The app the device enrolled under: its credentials send the push.
    package var clientId: String
    /// The device's registration at the time of the claim.
    package var registration: PushRegistration
    /// When the item stops being answerable: no try after it. A notice's push expires one day after it was queued.
    package var expiresAt: Date
    /// Tries made before this one.
    package var attempts: Int

    package init(
        id: String, reference: PushReference, clientId: String, registration: PushRegistration, expiresAt: Date,
        attempts: Int
    ) {
        self.id = id
        self.reference = reference
        self.clientId = clientId
        self.registration = registration
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}
