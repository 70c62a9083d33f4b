import Foundation
import NIOCore
import TouchstoneProtocol

/// The endpoints the web page calls, under the names its modules use (`endpoints.passwordSession`): served as the
/// module `endpoints.js`, written from the protocol's table when the server starts, so that the page types no path.
enum PageEndpoints {
    /// Each endpoint the page calls, under its name in the protocol's table; `WebPageModuleTests` checks that the
    /// page's modules use exactly these.
    static let table: KeyValuePairs<String, Endpoint> = [
        "account": .account,
        "accountNotices": .accountNotices,
        "createAccount": .createAccount,
        "createRecoveryCodes": .createRecoveryCodes,
        "devices": .devices,
        "endSession": .endSession,
        "logout": .logout,
        "oauthSignInCancel": .oauthSignInCancel,
        "oauthSignInComplete": .oauthSignInComplete,
        "oauthSignInRequest": .oauthSignInRequest,
        "passkeyAuthenticationOptions": .passkeyAuthenticationOptions,
        "passkeyAuthenticationVerify": .passkeyAuthenticationVerify,
        "passkeyRegistrationOptions": .passkeyRegistrationOptions,
        "passkeyRegistrationVerify": .passkeyRegistrationVerify,
        "passkeys": .passkeys,
        "passwordSession": .passwordSession,
        "pollWebLogin": .pollWebLogin,
        "refresh": .refresh,
        "removeDevice": .removeDevice,
        "removePasskey": .removePasskey,
        "sessions": .sessions,
        "startWebLogin": .startWebLogin,
        "stepUp": .stepUp,
    ]

    /// `endpoints.js`: one frozen `{ method, template }` export per endpoint of ``table``.
    static func module() throws -> WebAsset {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var text = "// The endpoints the page calls, from the server's table (TouchstoneProtocol's `Endpoint`).\n"
        for (name, endpoint) in table {
            let json = try encoder.encode(["method": endpoint.method, "template": endpoint.template])
            text += "export const \(name) = Object.freeze(\(String(decoding: json, as: UTF8.self)));\n"
        }
        return WebAsset(name: "endpoints.js", contentType: WebAsset.javaScript, body: ByteBuffer(string: text))
    }
}
