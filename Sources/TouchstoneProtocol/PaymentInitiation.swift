/// The payment a CIBA request's `authorization_details` ask to approve (RFC 9396, type `payment_initiation`), read
/// from an inbox item for showing: what the device shows is what its decision's `txn` commits to.
public struct PaymentInitiation: Sendable, Equatable {
    public var amount: String
    public var currency: String
    public var creditorName: String
    public var creditorIBAN: String?
    public var remittanceInformation: String?

    /// The one `payment_initiation` object of `authorizationDetails`; `nil` for anything else.
    public init?(authorizationDetails: JSONValue) {
        guard case .array(let elements) = authorizationDetails, elements.count == 1,
            let payment = elements.first, payment["type"]?.stringValue == "payment_initiation",
            let amount = payment["instructedAmount"]?["amount"]?.stringValue,
            let currency = payment["instructedAmount"]?["currency"]?.stringValue,
            let creditorName = payment["creditorName"]?.stringValue
        else { return nil }
        self.amount = amount
        self.currency = currency
        self.creditorName = creditorName
        creditorIBAN = payment["creditorAccount"]?["iban"]?.stringValue
        remittanceInformation = payment["remittanceInformationUnstructured"]?.stringValue
    }
}

extension InboxItem {
    /// A CIBA request's payment, when it asks for one.
    public var payment: PaymentInitiation? {
        authorizationDetails.flatMap(PaymentInitiation.init(authorizationDetails:))
    }
}
