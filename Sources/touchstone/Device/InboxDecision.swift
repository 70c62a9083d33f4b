import TouchstoneClient
import TouchstoneProtocol

/// `device approve` or `device deny`: a decision on an item of this device's inbox, made after verifying the user.
struct InboxDecision {
    /// The item's id, from `device inbox`.
    var id: String
    /// Approve, or deny.
    var approve: Bool
    /// Verify the user with this PIN instead of a fingerprint.
    var pin: String?
    /// Shown with the fingerprint request, instead of one that says what is decided.
    var prompt: String?
    /// For a web login or a new device: the number it shows (asked when absent).
    var number: Int?

    /// Verifies the user, sends the decision, and prints what the server recorded.
    func make(_ options: DeviceOptions, _ verification: VerifierOptions) async throws {
        let client = try options.client(verifier: verification.verifier)
        guard let item = try await client.pendingRequests().first(where: { $0.id == id }) else {
            throw TouchstoneError(.server, "no request \(id) waits for this device", serverCode: .notFound)
        }
        var number = number
        if approve, item.kind == .webLogin || item.kind == .enrollment, number == nil {
            let shownBy = item.kind == .webLogin ? "in the browser" : "on the new device"
            number = Terminal.readSecret(prompt: item.summary + "\nNumber shown \(shownBy): ").flatMap { Int($0) }
        }
        let defaultPrompt =
            switch item.kind {
            case .confirmation: "Confirm \(item.amount ?? "") \(item.currency ?? "") to \(item.payee ?? "")"
            case .ciba:
                item.payment.map { "Pay \($0.amount) \($0.currency) to \($0.creditorName)" }
                    ?? "Approve \(item.clientName ?? item.clientId)'s request"
            case .webLogin:
                item.payment.map { "Sign in and pay \($0.amount) \($0.currency) to \($0.creditorName)" }
                    ?? "Approve the web login"
            default: "Approve the new device \(item.name ?? "")"
            }
        let status: DecisionStatus
        if let pin {
            status = approve
                ? try await client.approve(item, pin: pin, number: number) : try await client.deny(item, pin: pin)
        } else {
            let fallback = options.pinPrompt
            status = approve
                ? try await client.approve(item, prompt: prompt ?? defaultPrompt, number: number, fallback: fallback)
                : try await client.deny(item, prompt: prompt ?? defaultPrompt, fallback: fallback)
        }
        if options.json {
            try printJSON(DecisionRecorded(status: status))
        } else {
            print("\(id): \(status.rawValue)")
        }
    }
}
