import Foundation
import TouchstoneProtocol
import TouchstoneStorage

/// Webhooks, for administrators: where security events are delivered, signed as the Standard Webhooks specification
/// says. The events themselves are queued by the store, in the transaction of what they report.
package struct WebhookService: Sendable {
    typealias Store = WebhookStore

    let store: any Store
    let clock: any WallClock
    let random: any RandomSource
    /// Resolves a new webhook's host, whose addresses must not be link-local.
    let resolver: any HostResolver
    let audit: AdminAudit

    /// Makes a webhook; the answer is the only place its secret is ever shown. The secret is stored as it is, not
    /// hashed or sealed: every delivery signs with it, as the server keeps its own signing keys and the apps' push keys.
    /// - Throws: `invalid_request` for a URL that is not `https` (or `http` on `localhost` or `127.0.0.1`), whose host
    ///   resolves to a link-local address, or for no events or one that is not among the fourteen.
    package func create(_ input: WebhookInput, by caller: AdminCaller) async throws -> CreatedWebhook {
        try caller.require(.write)
        let target: WebhookTarget
        do {
            target = try WebhookTarget(url: input.url)
        } catch let refusal as WebhookTarget.Refusal {
            throw ProblemError.invalidRequest(refusal.reason)
        }
        let events = try Self.checkedEvents(input.events)
        try await refuseLinkLocal(target.host)
        let secret = WebhookSecret(bytes: random.bytes(WebhookSecret.byteCount))
        let webhook = WebhookRecord(
            id: random.recordID(), url: input.url, events: events, secret: secret, createdAt: clock.now())
        try await store.createWebhook(webhook)
        // The host alone: a URL's path or query may carry the receiver's own secret.
        try await audit.record(.adminWebhookCreate, by: caller, detail: "\(webhook.id) \(target.host)")
        return CreatedWebhook(
            webhookId: webhook.id, url: webhook.url, events: events.map(\.rawValue), secret: secret.text)
    }

    /// Every webhook, oldest first, without secrets.
    package func list() async throws -> WebhookList {
        WebhookList(
            webhooks: try await store.webhooks().map { webhook in
                WebhookView(
                    webhookId: webhook.id, url: webhook.url, events: webhook.events.map(\.rawValue),
                    createdAt: webhook.createdAt, disabledAt: webhook.disabledAt)
            })
    }

    /// Deletes a webhook with its deliveries not yet made.
    /// - Throws: `not_found` for an unknown id.
    package func delete(_ webhookId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        guard try await store.deleteWebhook(id: webhookId) else { throw Self.notFound }
        try await audit.record(.adminWebhookDelete, by: caller, detail: webhookId)
    }

    /// Queues a `webhook.test` event for the webhook, delivered and retried like any other.
    /// - Throws: `not_found` for an unknown id; `invalid_request` for a webhook disabled by a 410 answer.
    package func test(_ webhookId: String, by caller: AdminCaller) async throws {
        try caller.require(.write)
        switch try await store.queueTestEvent(webhookId: webhookId, at: clock.now()) {
        case .queued:
            try await audit.record(.adminWebhookTest, by: caller, detail: webhookId)
        case .disabled:
            throw ProblemError.invalidRequest("this webhook is disabled: its endpoint answered 410 Gone")
        case .notFound:
            throw Self.notFound
        }
    }

    static let notFound = ProblemError(.notFound, detail: "No webhook has this id.")

    /// The events asked for, without repeats, in the order of ``WebhookEvent/subscribable``.
    /// - Throws: `invalid_request` for none, or for a name that is not one of the fourteen.
    static func checkedEvents(_ names: [String]) throws -> [WebhookEvent] {
        guard !names.isEmpty else { throw ProblemError.invalidRequest("a webhook needs at least one event") }
        let asked = Set(names.map(WebhookEvent.init(rawValue:)))
        if let unknown = names.first(where: { !WebhookEvent.subscribable.contains(WebhookEvent(rawValue: $0)) }) {
            throw ProblemError.invalidRequest("\(unknown) is not an event a webhook may subscribe to")
        }
        return WebhookEvent.subscribable.filter(asked.contains)
    }

    /// Refuses a host that resolves to a link-local address (a cloud's metadata service). A host that does not
    /// resolve now is taken: each delivery resolves it again and refuses a link-local address then.
    /// - Throws: `invalid_request`.
    func refuseLinkLocal(_ host: String) async throws {
        let addresses: [[UInt8]]
        do {
            addresses = try await resolver.addresses(of: host)
        } catch {
            return
        }
        if addresses.contains(where: LinkLocal.contains) {
            throw ProblemError.invalidRequest("a webhook's host must not resolve to a link-local address")
        }
    }
}
