import Foundation
import TouchstoneProtocol

/// Apps' push credentials, devices' registrations, and the push outbox.
///
/// Pushes are queued by the stores that create inbox items, in the transaction that creates the item (one row per
/// device the item reaches); ``pushOutbox`` is how they leave: claimed by one sender at a time, finished, or put back.
/// Every method is atomic on its own.
package protocol PushStore: Sendable {
    /// Sets, removes or keeps each provider's credentials of the app, in one statement (a change to one provider
    /// leaves the other's as they are, whatever another writer does meanwhile).
    /// - Returns: `false` when no app has the client id.
    func updatePushCredentials(
        clientId: String, apns: PushCredentialChange<APNsCredentials>, fcm: PushCredentialChange<FCMServiceAccount>,
        at now: Date
    ) async throws -> Bool
    /// The app's credentials; empty when none are set.
    func pushCredentials(clientId: String) async throws -> PushCredentials

    /// Makes `registration` the device's only one; another device holding the same token loses its registration.
    func registerPush(_ registration: PushRegistration) async throws
    func pushRegistration(deviceId: String) async throws -> PushRegistration?
    /// Removes the device's registration; with `token`, only while it still holds that token (a refusal from the
    /// push service must not remove a registration the device has since replaced).
    /// - Returns: whether one was removed.
    @discardableResult
    func removePushRegistration(deviceId: String, token: String?) async throws -> Bool

    /// The push outbox. A claim returns only pushes still wanted: not expired, whose item still waits (pending, not
    /// dismissed) and whose device is active with a registration; the others it deletes.
    var pushOutbox: any OutboxQueue<QueuedPush> { get }
}
