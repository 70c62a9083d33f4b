import Foundation
import HTTPTypes
import NIOCore

/// One file of the web page, read once from the target's resources.
package struct WebAsset: Sendable {
    /// The name under `Web/Assets`, e.g. `app.js`.
    package let name: String
    let contentType: String
    package let body: ByteBuffer

    static let javaScript = "text/javascript; charset=utf-8"

    /// The type of each kind of file the page has, by the name's extension.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": javaScript, "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
    ]

    /// Reads `name` from the bundled `Assets` folder, its type from its extension.
    /// - Throws: ``WebAssetError`` when the package was built without the file, or ``contentTypes`` does not list its
    ///   extension.
    package static func bundled(_ name: String) throws -> WebAsset {
        let url = URL(fileURLWithPath: name)
        guard let contentType = contentTypes[url.pathExtension] else { throw WebAssetError.unknownType(name) }
        guard
            let file = Bundle.module.url(
                forResource: url.deletingPathExtension().lastPathComponent, withExtension: url.pathExtension,
                subdirectory: "Assets"),
            let data = try? Data(contentsOf: file)
        else { throw WebAssetError.missing(name) }
        return WebAsset(name: name, contentType: contentType, body: ByteBuffer(bytes: data))
    }

    /// The names of the files in the bundled `Assets` folder, sorted, without hidden ones (`.DS_Store`).
    /// - Throws: ``WebAssetError`` when the package was built without the folder.
    package static func bundledNames() throws -> [String] {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { throw WebAssetError.missing("Assets") }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }
}

extension WebAsset {
    /// This file with the first `placeholder` in its text replaced.
    package func replacing(_ placeholder: String, with value: String) -> WebAsset {
        let text = String(buffer: body).replacing(placeholder, with: value, maxReplacements: 1)
        return WebAsset(name: name, contentType: contentType, body: ByteBuffer(string: text))
    }
}
