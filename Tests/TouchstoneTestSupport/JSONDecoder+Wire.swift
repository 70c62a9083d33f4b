import Foundation
import TouchstoneProtocol

extension JSONDecoder {
    /// The protocol's decoder (RFC 3339 dates).
    public static var wire: JSONDecoder { WireCoding.decoder() }
}
