import TouchstoneProtocol

/// The title and body an APNs alert shows: one fixed text per kind and, for notices, per event, the same for every
/// user. ⚠️ Never a detail of the item (a username, amount, payee, binding message, number, address or device name):
/// the app fetches the item and shows it.
package struct PushText: Sendable, Equatable {
    package let title: String
    package let body: String
    /// The text of the item `reference` announces; a kind or event this table does not know gets a general text.
    package init(_ reference: PushReference) {
        switch reference.kind.rawValue {
        case InboxItemKind.confirmation.rawValue:
            self.init("Confirmation requested", "An app asks you to confirm something. Open to review it.")
        case InboxItemKind.webLogin.rawValue:
            self.init("Sign-in request", "Someone is signing in on the web. Open to approve or deny.")
        case InboxItemKind.enrollment.rawValue:
            self.init("New device", "A new device asks to join your account. Open to approve or deny.")
        case "ciba":
            self.init("Approval requested", "A service asks for your approval. Open to review it.")
        case InboxItemKind.notice.rawValue:
            self.init("Security notice", Self.noticeBodies[reference.event?.rawValue ?? ""] ?? "Something changed in your account.")
        default:
            self.init("Touchstone", "Something waits for you. Open to see it.")
        }
    }

    private init(_ title: String, _ body: String) {
        self.title = title
        self.body = body
    }

    private static let noticeBodies: [String: String] = [
        SecurityEvent.deviceAdded.rawValue: "A device was added to your account.",
        SecurityEvent.deviceRemoved.rawValue: "A device was removed from your account.",
        SecurityEvent.passwordChanged.rawValue: "Your password was changed.",
        SecurityEvent.pinChanged.rawValue: "Your PIN was changed.",
        SecurityEvent.recoveryCodesCreated.rawValue: "New recovery codes were made.",
        SecurityEvent.recoveryCodeUsed.rawValue: "A recovery code was used.",
        SecurityEvent.passkeyAdded.rawValue: "A passkey was added to your account.",
        SecurityEvent.passkeyRemoved.rawValue: "A passkey was removed from your account.",
        SecurityEvent.sessionsEnded.rawValue: "Sessions of your account were ended.",
    ]
}
