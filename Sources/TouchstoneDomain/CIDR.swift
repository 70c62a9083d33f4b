import Foundation
import TouchstoneStorage

/// An address range such as `10.0.0.0/8` or `fd00::/8`, for `--trusted-proxy`.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    let network: [UInt8]
    let prefixLength: Int
    public let description: String

    /// - Throws: ``ConfigurationError`` when the text is not an IPv4 or IPv6 range.
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = parts.first.flatMap(CIDR.bytes) else {
            throw ConfigurationError("--trusted-proxy takes an address range such as 10.0.0.0/8 (got \(text))")
        }
        let length = parts.count == 2 ? Int(parts[1]) : address.count * 8
        guard let length, (0...address.count * 8).contains(length) else {
            throw ConfigurationError("the prefix length of \(text) is out of range")
        }
        network = address
        prefixLength = length
        description = text
    }

    /// Whether an address (as text) lies in this range.
    public func contains(_ address: String) -> Bool {
        guard let bytes = CIDR.bytes(address), bytes.count == network.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(bytes, network) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if a & mask != b & mask { return false }
            remaining -= bits
        }
        return true
    }

    package static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
