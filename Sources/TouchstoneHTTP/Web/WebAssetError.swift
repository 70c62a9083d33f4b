/// A file of the web page the server cannot serve; the server does not start without it.
struct WebAssetError: Error, CustomStringConvertible {
    let description: String

    /// The package was built without `name`.
    static func missing(_ name: String) -> WebAssetError {
        WebAssetError(
            description: "the web page's file \(name) is missing from the server's resources; rebuild the package")
    }

    /// `name` has an extension ``WebAsset/contentTypes`` does not list.
    static func unknownType(_ name: String) -> WebAssetError {
        WebAssetError(
            description: "the web page's file \(name) has no content type; add its extension to WebAsset.contentTypes")
    }
}
