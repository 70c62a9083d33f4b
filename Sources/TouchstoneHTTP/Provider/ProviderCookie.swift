import Foundation
import HTTPTypes
import Hummingbird

/// The provider session's cookie, the only one Touchstone sets: `__Host-touchstone-op` (`touchstone-op` on
/// `http://localhost`, where `__Host-` would need `Secure`), `HttpOnly`, `SameSite=Lax`, `Path=/`. Only `/oauth2/*`
/// reads it.
struct ProviderCookie: Sendable {
    let name: String
    let secure: Bool

    init(issuer: String) {
        secure = issuer.hasPrefix("https://")
        name = secure ? "__Host-touchstone-op" : "touchstone-op"
    }

    /// The cookie's value in `request`, if it carries it.
    func value(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// `Set-Cookie` for a new provider session of `token` that lasts `lifetime` seconds.
    func setting(_ token: String, lifetime: Int) -> String {
        "\(name)=\(token); Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes it.
    var clearing: String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
