import Foundation
import Testing
import TouchstoneProtocol

@testable import TouchstoneDomain
@testable import TouchstoneStorage

/// Webhooks for administrators: the URL rules (a link-local host refused through the resolver), the events, the
/// secret shown once, listing without it, deleting, and the test event; every change audited as its caller's.
@Suite struct WebhookServiceTests {
    /// Names resolved from a table; a name not in it does not resolve.
    struct TableResolver: HostResolver {
        struct NoSuchHost: Error {}

        static let table: [String: [[UInt8]]] = [
            "hooks.example.com": [[93, 184, 216, 34]],
            "metadata.example": [[93, 184, 216, 34], [169, 254, 169, 254]],
            "v6.example": [[0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]],
            "mapped.example": [Array(repeating: 0, count: 10) + [0xFF, 0xFF, 169, 254, 1, 1]],
            "localhost": [[127, 0, 0, 1]],
            "127.0.0.1": [[127, 0, 0, 1]],
        ]

        func addresses(of host: String) async throws -> [[UInt8]] {
            guard let addresses = Self.table[host] else { throw NoSuchHost() }
            return addresses
        }
    }

    static let operations = AdminCaller(actor: .adminToken(name: "ops"), ip: "203.0.113.1", scope: .write)
    static let reader = AdminCaller(actor: .adminToken(name: "viewer"), ip: "203.0.113.1", scope: .read)

    static func service(_ h: Harness, random: any RandomSource = SeededRandom(seed: 33)) -> WebhookService {
        WebhookService(
            store: h.store, clock: h.clock, random: random, resolver: TableResolver(),
            audit: AdminAudit(store: h.store, clock: h.clock))
    }

    /// Creating a webhook for `url` is refused with `invalid_request` and stores nothing.
    static func expectRefused(_ url: String) async throws {
        try await Harness.run { h in
            let refusal = await Self.refusal {
                _ = try await Self.service(h).create(WebhookInput(url: url, events: ["pin.locked"]), by: Self.operations)
            }
            let stored = try await h.store.webhooks()
            #expect(refusal?.code == .invalidRequest)
            #expect(stored.isEmpty)
        }
    }

    static func refusal(_ body: () async throws -> Void) async -> ProblemError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? ProblemError
        }
    }

    @Test func theSecretIsWhsecAndTheStandardBase64WithPaddingOf32RandomBytesShownOnceAndKept() async throws {
        try await Harness.run { h in
            let created = try await Self.service(h).create(
                WebhookInput(url: "https://hooks.example.com/touchstone", events: ["pin.locked"]), by: Self.operations)
            // The seeded source's first 32 bytes.
            let expected = SeededRandom(seed: 33).bytes(32)
            #expect(created.secret == "whsec_" + Data(expected).base64EncodedString())
            #expect(created.secret.count == 6 + 44 && created.secret.hasSuffix("="))
            #expect(WebhookSecret(text: created.secret)?.bytes == expected)
            #expect(try await h.store.webhooks().first?.secret.bytes == expected)
            // Listed without it.
            let listed = String(decoding: try WireCoding.encoder().encode(try await Self.service(h).list()), as: UTF8.self)
            #expect(!listed.contains("whsec_") && !listed.contains("secret"))
            #expect(listed.contains(created.webhookId))
        }
    }

    @Test(arguments: [
        "http://hooks.example.com/x", "ftp://hooks.example.com/x", "http://10.0.0.1/x", "http://[::1]/x", "https://",
        "hooks.example.com/x", "https://user:pass@hooks.example.com/x", "https://hooks.example.com/x#part", "",
        "https://hooks.example.com/" + String(repeating: "a", count: 2_048),
    ])
    func aURLThatIsNotHTTPSOrHTTPOnLocalhostIsRefused(_ url: String) async throws {
        try await Self.expectRefused(url)
    }

    @Test(arguments: ["https://metadata.example/latest", "https://v6.example/", "https://mapped.example/x"])
    func aHostResolvingToALinkLocalAddressIsRefused(_ url: String) async throws {
        try await Self.expectRefused(url)
    }

    @Test func httpsAnywhereHTTPOnLocalhostAndAHostThatDoesNotResolveYetAreTaken() async throws {
        try await Harness.run { h in
            let service = Self.service(h)
            for url in [
                "https://hooks.example.com/touchstone?tenant=7", "http://localhost:9000/hooks", "http://127.0.0.1:8080/",
                "https://not-yet.example/hooks",
            ] {
                let created = try await service.create(WebhookInput(url: url, events: ["user.reset"]), by: Self.operations)
                #expect(created.url == url)
            }
            #expect(try await service.list().webhooks.count == 4)
        }
    }

    @Test func eventsAreOneOrMoreOfTheFourteenKeptOnceEachInTheirOrder() async throws {
        try await Harness.run { h in
            let service = Self.service(h)
            for events in [[], ["webhook.test"], ["pin.locked", "pin.unlocked"], ["PIN.LOCKED"]] {
                let refusal = await Self.refusal {
                    _ = try await service.create(
                        WebhookInput(url: "https://hooks.example.com/", events: events), by: Self.operations)
                }
                #expect(refusal?.code == .invalidRequest, "\(events)")
            }
            let created = try await service.create(
                WebhookInput(url: "https://hooks.example.com/", events: ["user.reset", "device.added", "user.reset"]),
                by: Self.operations)
            #expect(created.events == ["device.added", "user.reset"])
            let all = WebhookEvent.subscribable.map(\.rawValue)
            #expect(all.count == 14 && Set(all).count == 14)
            #expect(
                try await service.create(WebhookInput(url: "https://hooks.example.com/", events: all), by: Self.operations)
                    .events == all)
            #expect(Set(try await service.list().webhooks.map(\.events)) == [["device.added", "user.reset"], all])
        }
    }

    @Test func deleteAndTestFindTheWebhookOrAnswerNotFoundAndEveryChangeIsAuditedAsItsCaller() async throws {
        try await Harness.run { h in
            let service = Self.service(h)
            let created = try await service.create(
                WebhookInput(url: "https://hooks.example.com/", events: ["pin.locked"]), by: Self.operations)
            try await service.test(created.webhookId, by: Self.operations)
            #expect(try await h.store.webhookOutbox.queuedCount() == 1)
            #expect(await Self.refusal { try await service.test("no-such-webhook", by: Self.operations) }?.code == .notFound)
            #expect(await Self.refusal { try await service.delete("no-such-webhook", by: Self.operations) }?.code == .notFound)
            try await service.delete(created.webhookId, by: Self.operations)
            #expect(try await service.list().webhooks.isEmpty)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
            let audited = try await h.store.auditEvents(since: nil, userId: nil)
                .filter { $0.event.rawValue.hasPrefix("admin.webhook.") }
            #expect(Set(audited.map(\.event)) == [.adminWebhookCreate, .adminWebhookTest, .adminWebhookDelete])
            #expect(audited.count == 3)
            #expect(audited.allSatisfy { $0.actor == .adminToken(name: "ops") && $0.ip == "203.0.113.1" })
            #expect(audited.allSatisfy { !($0.detail ?? "").contains("whsec_") })
        }
    }

    @Test func aReadTokenChangesNothing() async throws {
        try await Harness.run { h in
            let service = Self.service(h)
            let refused = await Self.refusal {
                _ = try await service.create(
                    WebhookInput(url: "https://hooks.example.com/", events: ["pin.locked"]), by: Self.reader)
            }
            #expect(refused?.code == .insufficientScope)
            let created = try await service.create(
                WebhookInput(url: "https://hooks.example.com/", events: ["pin.locked"]), by: Self.operations)
            #expect(await Self.refusal { try await service.test(created.webhookId, by: Self.reader) }?.code == .insufficientScope)
            #expect(await Self.refusal { try await service.delete(created.webhookId, by: Self.reader) }?.code == .insufficientScope)
            #expect(try await service.list().webhooks.count == 1)
            #expect(try await h.store.webhookOutbox.queuedCount() == 0)
        }
    }
}

/// The pure rules delivery shares: link-local addresses, the URL's parts, the system resolver.
@Suite struct WebhookTargetTests {
    @Test func linkLocalIsIPv4InTheAutoconfigurationBlockIPv6InFe80SlashTenAndTheirMappedForms() {
        let mapped: ([UInt8]) -> [UInt8] = { Array(repeating: 0, count: 10) + [0xFF, 0xFF] + $0 }
        let linkLocal: [[UInt8]] = [
            [169, 254, 0, 0], [169, 254, 169, 254], [169, 254, 255, 255], [0xFE, 0x80] + Array(repeating: 0, count: 14),
            [0xFE, 0xBF] + Array(repeating: 0xFF, count: 14), mapped([169, 254, 1, 1]),
        ]
        let other: [[UInt8]] = [
            [169, 253, 255, 255], [169, 255, 0, 0], [127, 0, 0, 1], [10, 0, 0, 1], [0xFE, 0xC0] + Array(repeating: 0, count: 14),
            [0xFF, 0x02] + Array(repeating: 0, count: 13) + [1], mapped([10, 0, 0, 1]), [169, 254, 1], [],
            Array(repeating: 0, count: 12) + [169, 254, 1, 1],
        ]
        #expect(linkLocal.allSatisfy(LinkLocal.contains))
        #expect(!other.contains(where: LinkLocal.contains))
    }

    @Test func aTargetHasItsSchemeHostPortAndPathWithTheQuery() throws {
        let target = try WebhookTarget(url: "https://Hooks.Example.com:8443/in/touchstone?tenant=7")
        #expect(target.scheme == "https" && target.host == "hooks.example.com" && target.port == 8443)
        #expect(target.path == "/in/touchstone?tenant=7")
        let local = try WebhookTarget(url: "http://localhost")
        #expect(local.port == 80 && local.path == "/")
        #expect(try WebhookTarget(url: "https://[fe80::1]/").host == "fe80::1")
        #expect(throws: WebhookTarget.Refusal.self) { try WebhookTarget(url: "http://example.com/") }
    }

    @Test func theSystemResolverFindsLoopbackAndAnAddressWrittenAsText() async throws {
        #expect(try await SystemHostResolver().addresses(of: "127.0.0.1") == [[127, 0, 0, 1]])
        #expect(try await SystemHostResolver().addresses(of: "::1") == [Array(repeating: 0, count: 15) + [1]])
        await #expect(throws: SystemHostResolver.Failure.self) {
            try await SystemHostResolver().addresses(of: "no-such-host.invalid")
        }
    }
}
