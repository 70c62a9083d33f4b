import Foundation
import HTTPTypes
import NIOCore

/// One file of the web page, read once from the target's resources.
package struct WebAsset: Sendable {
    /// The name under `Web/Assets`, e.g. `app.js`.
    package let name: String
    let contentType: String
    package let body: ByteBuffer

    /// Reads `name` from the bundled `Assets` folder.
    /// - Throws: ``WebAssetMissing`` when the package was built without the file.
    package static func bundled(_ name: String, contentType: String) throws -> WebAsset {
        let url = URL(fileURLWithPath: name)
        guard
            let file = Bundle.module.url(
                forResource: url.deletingPathExtension().lastPathComponent, withExtension: url.pathExtension,
                subdirectory: "Assets"),
            let data = try? Data(contentsOf: file)
        else { throw WebAssetMissing(name: name) }
        return WebAsset(name: name, contentType: contentType, body: ByteBuffer(bytes: data))
    }
}

extension WebAsset {
    /// This file with the first `placeholder` in its text replaced.
    package func replacing(_ placeholder: String, with value: String) -> WebAsset {
        let text = String(buffer: body).replacing(placeholder, with: value, maxReplacements: 1)
        return WebAsset(name: name, contentType: contentType, body: ByteBuffer(string: text))
    }
}

/// A file of the web page is missing from the built resources.
struct WebAssetMissing: Error, CustomStringConvertible {
    package let name: String

    package var description: String { "the web page's file \(name) is missing from the server's resources; rebuild the package" }
}
