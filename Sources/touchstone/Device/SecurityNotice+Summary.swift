import Foundation
import TouchstoneProtocol

extension SecurityNotice {
    /// One line for a person: what happened to the account.
    var summary: String {
        let device = detail.deviceName.map { "\"\($0)\"" } ?? detail.deviceId ?? "a device"
        let what =
            switch event {
            case .deviceAdded: "device \(device) was added to your account"
            case .deviceRemoved: "device \(device) was removed from your account"
            case .passwordChanged: "your password was changed"
            case .pinChanged: "the PIN of \(device) was changed"
            case .recoveryCodesCreated: "new recovery codes were created (the earlier ones no longer work)"
            case .recoveryCodeUsed: "a recovery code was used to add \(device)"
            case .passkeyAdded: "passkey \"\(detail.passkeyName ?? "")\" was added"
            case .passkeyRemoved: "passkey \"\(detail.passkeyName ?? "")\" was removed"
            case .sessionsEnded: "a session\(detail.deviceId == nil ? "" : " of \(device)") was ended"
            default: event.rawValue
            }
        let from = detail.ip.map { " from \($0)" } ?? ""
        return "\(id)  notice: \(what)\(from) at \(at.formatted(.iso8601))  (dismiss with `device dismiss \(id)`)"
    }
}
