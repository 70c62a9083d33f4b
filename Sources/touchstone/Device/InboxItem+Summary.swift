import TouchstoneProtocol

extension InboxItem {
    /// One line for a person: what is asked, and by whom.
    var summary: String {
        let asker = "\(clientId) of \(publisher)"
        switch kind {
        case .confirmation:
            return "\(id)  confirm: \"\(text ?? "")\" \(amount ?? "") \(currency ?? "") to \(payee ?? "")  (asked by \(asker))"
        case .ciba:
            var parts = ["\(id)  \(clientName ?? clientId) asks you to approve"]
            if let bindingMessage { parts.append("\"\(bindingMessage)\"") }
            if let payment { parts.append("pay " + Self.describe(payment)) }
            parts.append("scope \(scope ?? "openid")  (\(asker))")
            return parts.joined(separator: ": ")
        case .webLogin:
            let payment = self.payment.map { ": and pay \(Self.describe($0))" } ?? ""
            return "\(id)  web login from \(browser ?? "a browser") at \(ip ?? "?")\(payment): pick the browser's number \(numbersToPick)  (\(asker))"
        default:
            return "\(id)  new device \"\(name ?? "")\" (\(model ?? "")) from \(ip ?? "?") wants to join your account: pick its number \(numbersToPick)  (\(asker))"
        }
    }

    /// A payment as `123.50 EUR to Merchant A (IBAN), reference "…"`.
    private static func describe(_ payment: PaymentInitiation) -> String {
        var line = "\(payment.amount) \(payment.currency) to \(payment.creditorName)"
        if let iban = payment.creditorIBAN { line += " (\(iban))" }
        if let reference = payment.remittanceInformation { line += ", reference \"\(reference)\"" }
        return line
    }

    /// The numbers to pick from, as `12 / 47 / 83`.
    private var numbersToPick: String {
        (numbers ?? []).map(String.init).joined(separator: " / ")
    }
}
