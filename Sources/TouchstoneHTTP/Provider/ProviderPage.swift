import Hummingbird
import NIOCore
import TouchstoneProtocol

/// The provider's own small pages: a refused authorization request (never a redirect), "Sign out of Touchstone?" and
/// "signed out". Plain HTML, no script or style, under the default `Content-Security-Policy` (which leaves plain
/// form submission to the page's own origin alone).
enum ProviderPage {
    static func refused(_ reason: String) -> Response {
        page(status: .badRequest, title: "This sign-in request cannot be used", text: reason)
    }

    /// A logout request whose query or form is not well encoded.
    static func refusedLogout(_ reason: String) -> Response {
        page(status: .badRequest, title: "This sign-out request cannot be used", text: reason)
    }

    /// The browser's provider session ended.
    static var signedOut: Response {
        page(
            status: .ok, title: "You are signed out",
            text: "This browser is signed out of Touchstone and of the sites you signed in to with it. "
                + "You can close this window.")
    }

    /// The browser had no provider session.
    static var notSignedIn: Response {
        page(status: .ok, title: "You are signed out", text: "This browser is not signed in to Touchstone.")
    }

    /// Asks the user before ending the provider session: a plain form that posts `token` (bound to the session) to
    /// `POST /oauth2/logout/confirm`. `again` says that a confirmation came without the right token.
    static func confirmSignOut(token: String, again: Bool) -> Response {
        let text =
            (again ? "That sign-out did not come from this page, so nothing changed. " : "")
            + "Signing out ends your Touchstone sign-in in this browser and at the sites you signed in to with it."
        let form = """
            <form method="post" action="\(Endpoint.oauthLogoutConfirm.template)">\
            <input type="hidden" name="token" value="\(HTMLText.escaped(token))">\
            <button type="submit">Sign out</button></form>
            """
        return page(status: again ? .forbidden : .ok, title: "Sign out of Touchstone?", text: text, form: form)
    }

    /// - Parameter form: trusted HTML after the text (its values escaped by the caller).
    private static func page(status: HTTPResponse.Status, title: String, text: String, form: String = "") -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(HTMLText.escaped(title)) · Touchstone</title></head>
            <body><main><h1>\(HTMLText.escaped(title))</h1><p>\(HTMLText.escaped(text))</p>\(form)</main></body></html>
            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
