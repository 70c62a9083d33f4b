import Foundation
import TouchstoneCrypto
import TouchstoneProtocol

extension TouchstoneClient {
    /// Everything in this device's inbox: requests waiting for its decision (``InboxEntry/request(_:)``) and security
    /// notices about the account (``InboxEntry/notice(_:)``: a device, passkey or recovery code added or used, the
    /// password or a PIN changed, sessions ended), which need no decision.
    /// - Parameter waitSeconds: how long the server may wait for an item to arrive (0 to 30); it answers at once while
    ///   any item waits, notices included, so dismiss the notices the user has seen.
    public func inbox(waitSeconds: Int = 0) async throws -> [InboxEntry] {
        let registration = try await requireRegistration()
        let path = Endpoint.inbox.path(registration.deviceId)
        let proof = try await signedRequest("GET", path, by: registration)
        return try await call(
            "GET", path + "?waitSeconds=\(min(max(waitSeconds, 0), 30))",
            headers: ["Authorization": "TouchstoneDevice \(proof)"], as: Inbox.self
        ).entries
    }

    /// Requests waiting for this device: transaction confirmations, web logins and new devices of the user (the
    /// inbox's notices left out; ``inbox(waitSeconds:)`` has them).
    /// - Parameter waitSeconds: how long the server may wait for an item to arrive (0 to 30).
    public func pendingRequests(waitSeconds: Int = 0) async throws -> [InboxItem] {
        try await inbox(waitSeconds: waitSeconds).compactMap { entry in
            if case .request(let item) = entry { item } else { nil }
        }
    }

    /// Dismisses a security notice from this device's inbox (other devices keep theirs).
    /// - Throws: ``TouchstoneError`` `server` (`not_found`) for a notice this device does not have (any more).
    public func dismiss(_ notice: SecurityNotice) async throws {
        try await dismissNotice(id: notice.id)
    }

    /// Dismisses the security notice `id` from this device's inbox.
    public func dismissNotice(id: String) async throws {
        let registration = try await requireRegistration()
        let path = Endpoint.dismissNotice.path(registration.deviceId, id)
        let proof = try await signedRequest("DELETE", path, by: registration)
        try await send("DELETE", path, headers: ["Authorization": "TouchstoneDevice \(proof)"])
    }

    /// Approves a request with a biometric, showing `prompt` (e.g. "Confirm money transfer"), or with the PIN
    /// after a fallback as for login. A confirmation's approval commits to exactly the text, amount, currency and
    /// payee of `item`, as shown.
    /// - Parameter number: for a web login or a new device, the number the user picked among the item's `numbers`
    ///   (the one the browser or the new device shows); a wrong one denies the request.
    /// - Throws: ``TouchstoneError`` `numberRequired` (nothing sent) when approving a web login or a new device without
    ///   a number.
    /// - ⚠️ Let the user pick the number; never choose it for them (number matching stops approvals of requests the
    ///   user did not make).
    public func approve(_ item: InboxItem, prompt: String, number: Int? = nil, fallback: PINPrompt? = nil) async throws
        -> DecisionStatus
    {
        try await decide(item, approve: true, number: number, verification: .biometric(prompt: prompt, fallback: fallback))
    }

    /// Approves a request with the app PIN; `number` as for a biometric approval.
    public func approve(_ item: InboxItem, pin: String, number: Int? = nil) async throws -> DecisionStatus {
        try await decide(item, approve: true, number: number, verification: .pin(pin))
    }

    /// Denies a request; a denial is signed like an approval, so that only the user can give it.
    public func deny(_ item: InboxItem, prompt: String, fallback: PINPrompt? = nil) async throws -> DecisionStatus {
        try await decide(item, approve: false, number: nil, verification: .biometric(prompt: prompt, fallback: fallback))
    }

    /// Denies a request with the app PIN.
    public func deny(_ item: InboxItem, pin: String) async throws -> DecisionStatus {
        try await decide(item, approve: false, number: nil, verification: .pin(pin))
    }

    /// Requests approved by picking the number the requester shows: web logins and new devices.
    private static let numberMatched: Set<InboxItemKind> = [.webLogin, .enrollment]

    private enum Verification {
        case biometric(prompt: String, fallback: PINPrompt?)
        case pin(String)
    }

    private func decide(_ item: InboxItem, approve: Bool, number: Int?, verification: Verification) async throws
        -> DecisionStatus
    {
        try await checkIntegrity()
        let registration = try await requireRegistration()
        let matchesNumber = Self.numberMatched.contains(item.kind)
        if approve, matchesNumber, number == nil {
            let shownBy = item.kind == .webLogin ? "browser" : "new device"
            throw TouchstoneError(.numberRequired, "pick the number the \(shownBy) shows")
        }
        var txn: String?
        if item.kind == .confirmation {
            guard let text = item.text, let amount = item.amount, let currency = item.currency, let payee = item.payee
            else { throw TouchstoneError(.transport, "the confirmation is incomplete") }
            txn = TransactionHash.of(text: text, amount: amount, currency: currency, payee: payee)
        } else if item.kind == .ciba {
            // Computed from what is shown (the client, its binding message and payment), never taken from the item.
            let details = try item.authorizationDetails.map { value in
                do {
                    return try CanonicalJSON.bytes(of: value)
                } catch {
                    throw TouchstoneError(.transport, "the request's payment cannot be canonicalised")
                }
            }
            txn = TransactionHash.ofBackchannel(
                clientId: item.clientId, bindingMessage: item.bindingMessage, canonicalDetails: details)
        } else if item.kind == .webLogin, item.authorizationDetails != nil {
            // A sign-in with a payment: the item names the sign-in page's app, not the site whose id the txn hashes,
            // so the device signs the item's txn beside the payment it shows.
            txn = item.txn
        }
        let (key, pin) = try await verify(verification, registration: registration)
        let times = tokenTimes()
        let decision = try await key.sign(
            DecisionClaims(
                iss: registration.deviceId, aud: issuer, iat: times.iat, exp: times.exp, nonce: item.challenge,
                decision: approve ? "approve" : "deny", txn: txn, number: matchesNumber ? number : nil,
                pin: pin))
        let endpoint: Endpoint =
            switch item.kind {
            case .confirmation: .decideConfirmation
            case .webLogin: .decideWebLogin
            case .ciba: .decideBackchannel
            default: .decideEnrollment
            }
        return try await call(
            endpoint.method, endpoint.path(item.id), body: DecisionRequest(assertion: decision), as: DecisionRecorded.self
        ).status
    }

    /// The key that signs after verifying the user, and the PIN when it is the device key.
    private func verify(_ verification: Verification, registration: Registration) async throws
        -> (key: any DeviceKey, pin: String?)
    {
        switch verification {
        case .pin(let pin):
            if let problem = try await policy().pinProblem(pin) { throw TouchstoneError(.invalidPIN, problem) }
            return (registration.deviceKey, pin)
        case .biometric(let prompt, let fallback):
            let reason: TouchstoneError
            if let biometricKey = registration.biometricKey {
                do {
                    try await platform.verifier.verify(prompt: prompt)
                    return (biometricKey, nil)
                } catch let error as TouchstoneError where Self.fallsBackToPIN.contains(error.code) {
                    reason = error
                }
            } else {
                reason = TouchstoneError(.optedOut, "biometrics are off on this device")
            }
            guard let fallback else { throw reason }
            guard let pin = try await fallback(reason) else { throw TouchstoneError(.userCancelled, "the user cancelled") }
            return try await verify(.pin(pin), registration: registration)
        }
    }
}
