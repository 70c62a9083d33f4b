import HTTPTypes
import Hummingbird

/// The web page at `GET /`: plain HTML, CSS and JavaScript modules from the target's resources, no build step.
///
/// The page's HTML carries its own Content-Security-Policy, which ``SecurityHeadersMiddleware`` keeps: scripts,
/// styles and requests from this origin only, no inline script or style, no framing, no form posts elsewhere.
package struct WebController: Sendable {
    /// The policy of the page itself; every other answer keeps the server's `default-src 'none'`.
    static let pagePolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    package let page: WebAsset
    /// The page's other files, each at `/NAME`: every file of `Web/Assets` (the scripts are ES modules that `app.js`
    /// imports), and `endpoints.js`, the endpoints the page calls, from the protocol's table.
    package let files: [WebAsset]

    /// The bundled files, the page naming `accountClientId` as the app it signs in to and `relyingPartyId` as its
    /// passkeys' RP ID.
    /// - Throws: ``WebAssetError`` when one is not in the resources, or is of no type the server knows.
    package static func bundled(accountClientId: String, relyingPartyId: String) throws -> WebController {
        let pageName = "index.html"
        return WebController(
            page: try .bundled(pageName).replacing(
                #"<meta name="touchstone-client-id" content="com.example.demo">"#,
                with: #"<meta name="touchstone-client-id" content="\#(HTMLText.escaped(accountClientId))">"#
            ).replacing(
                #"<meta name="touchstone-rp-id" content="localhost">"#,
                with: #"<meta name="touchstone-rp-id" content="\#(HTMLText.escaped(relyingPartyId))">"#),
            files: try WebAsset.bundledNames().filter { $0 != pageName }.map(WebAsset.bundled)
                + [PageEndpoints.module()])
    }

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.get("/", use: index)
        for file in files {
            routes.get(RouterPath(file.name)) { _, _ in Self.response(file) }
        }
        return routes
    }

    /// What the page may use of the browser: passkeys on this origin, nothing else.
    static let permissionsPolicy =
        "publickey-credentials-get=(self), publickey-credentials-create=(self), camera=(), microphone=(), "
        + "geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), display-capture=(), clipboard-read=()"

    /// The page, with its own Content-Security-Policy, a window of its own (no opener across origins) and only the
    /// browser features it uses.
    @Sendable func index(_ request: Request, context: TouchstoneRequestContext) -> Response {
        var response = Self.response(page)
        response.headers[.contentSecurityPolicy] = Self.pagePolicy
        response.headers[.crossOriginOpenerPolicy] = "same-origin"
        response.headers[.permissionsPolicy] = Self.permissionsPolicy
        return response
    }

    /// The file with its type; `no-cache` so that a new server version is picked up at once.
    private static func response(_ asset: WebAsset) -> Response {
        Response(
            status: .ok, headers: [.contentType: asset.contentType, .cacheControl: "no-cache"],
            body: .init(byteBuffer: asset.body))
    }
}
