import Hummingbird
import NIOCore

/// The provider's own small pages: a refused authorization request (never a redirect) and "signed out". Plain HTML,
/// no script or style, under the default `Content-Security-Policy`.
enum ProviderPage {
    static func refused(_ reason: String) -> Response {
        page(status: .badRequest, title: "This sign-in request cannot be used", text: reason)
    }

    static var signedOut: Response {
        page(status: .ok, title: "You are signed out", text: "You can close this window.")
    }

    private static func page(status: HTTPResponse.Status, title: String, text: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(HTMLText.escaped(title)) · Touchstone</title></head>
            <body><main><h1>\(HTMLText.escaped(title))</h1><p>\(HTMLText.escaped(text))</p></main></body></html>
            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
