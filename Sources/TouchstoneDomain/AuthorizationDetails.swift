import TouchstoneProtocol

/// A request's `authorization_details` (RFC 9396), checked: a JSON array of exactly one `payment_initiation` object
/// under the contract's rules (PROTOCOL.md "Decoupled authorization"), kept as sent and in its RFC 8785 form.
package struct AuthorizationDetails: Sendable, Equatable {
    /// The array as the client sent it: what the device shows.
    package let value: JSONValue
    /// Its canonical JSON (RFC 8785): what `txn` hashes.
    package let canonical: [UInt8]

    /// The only type of authorization details the provider knows.
    package static let paymentInitiation = "payment_initiation"
    /// `^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`
    static let ibanLengths = 15...34
    /// RFC 9396 §2.2's `actions` and `locations`: 1…10 strings of 1…200 code points.
    static let listLengths = 1...10
    static let listItemLengths = 1...200

    /// Reads and checks the form parameter's text.
    /// - Throws: `invalid_authorization_details` for text that is not I-JSON (duplicate names, lone surrogates), not
    ///   an array of one object, of another type, with a member not named in the contract, a value that is not a
    ///   string, object or array, or a member that breaks its rule.
    package init(_ text: String) throws(OAuthError) {
        let value: JSONValue
        do {
            value = try StrictJSONParser.parse(text.utf8)
        } catch {
            throw Self.refused("is not I-JSON: \(error)")
        }
        guard case .array(let elements) = value, elements.count == 1, case .object(let members) = elements[0] else {
            throw Self.refused("must be an array of exactly one object")
        }
        try Self.check(members)
        self.value = value
        do {
            canonical = try CanonicalJSON.bytes(of: value)
        } catch {
            // Unreachable after the checks (only strings, objects and arrays remain), and refused all the same.
            throw Self.refused("cannot be written in its RFC 8785 form")
        }
    }

    /// The one object's members.
    private static func check(_ members: [(name: String, value: JSONValue)]) throws(OAuthError) {
        let allowed: Set<String> = [
            "type", "instructedAmount", "creditorName", "creditorAccount", "remittanceInformationUnstructured",
            "actions", "locations",
        ]
        if let unknown = members.first(where: { !allowed.contains($0.name) }) {
            throw refused("may not hold \(unknown.name)")
        }
        let object = JSONValue.object(members)
        guard object["type"]?.stringValue == paymentInitiation else { throw refused("type must be payment_initiation") }
        guard case .object(let amount)? = object["instructedAmount"], amount.count == 2,
            let currency = object["instructedAmount"]?["currency"]?.stringValue,
            let figure = object["instructedAmount"]?["amount"]?.stringValue
        else { throw refused("instructedAmount must be {currency, amount} as strings") }
        guard ConfirmationService.isCurrency(currency) else {
            throw refused("instructedAmount.currency must be three capital letters (ISO 4217)")
        }
        guard ConfirmationService.isAmount(figure) else {
            throw refused("instructedAmount.amount must look like 120 or 120.50 (up to 4 decimals, no sign)")
        }
        guard let creditor = object["creditorName"]?.stringValue else { throw refused("creditorName must be a string") }
        try shown(creditor, name: "creditorName", longest: ConfirmationService.longestPayee)
        if let account = object["creditorAccount"] {
            guard case .object(let accountMembers) = account, accountMembers.count == 1,
                let iban = account["iban"]?.stringValue
            else { throw refused("creditorAccount must be {iban} as a string") }
            guard isIBAN(iban) else { throw refused("creditorAccount.iban must match ^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$") }
        }
        if let remittance = object["remittanceInformationUnstructured"] {
            guard let text = remittance.stringValue else {
                throw refused("remittanceInformationUnstructured must be a string")
            }
            try shown(text, name: "remittanceInformationUnstructured", longest: ConfirmationService.longestText)
        }
        for name in ["actions", "locations"] {
            guard let list = object[name] else { continue }
            guard case .array(let items) = list, listLengths.contains(items.count),
                items.allSatisfy({ $0.stringValue.map { listItemLengths.contains($0.unicodeScalars.count) } ?? false })
            else { throw refused("\(name) must be 1 to 10 strings of 1 to 200 characters") }
        }
    }

    /// Text a device shows, under a confirmation's rules (``TextRules``, `.shown`).
    private static func shown(_ value: String, name: String, longest: Int) throws(OAuthError) {
        do {
            try ConfirmationService.checkShown(value, name: name, longest: longest)
        } catch let problem as ProblemError {
            throw refused(problem.detail ?? "\(name) breaks the rules for shown text")
        } catch {
            throw refused("\(name) breaks the rules for shown text")
        }
    }

    private static func isIBAN(_ iban: String) -> Bool {
        let bytes = Array(iban.utf8)
        let isLetter = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        return ibanLengths.contains(bytes.count) && bytes[0..<2].allSatisfy(isLetter) && bytes[2..<4].allSatisfy(isDigit)
            && bytes[4...].allSatisfy { isLetter($0) || isDigit($0) }
    }

    private static func refused(_ reason: String) -> OAuthError {
        OAuthError(.invalidAuthorizationDetails, "authorization_details " + reason)
    }
}
