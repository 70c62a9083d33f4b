import Foundation
import TouchstoneProtocol

extension JSONDecoder {
    /// The protocol's decoder (RFC 3339 dates).
    static var wire: JSONDecoder { WireCoding.decoder() }
}
