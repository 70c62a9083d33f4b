import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the addresses of a host name: for the webhook rules, which refuse a host that resolves to a link-local
/// address (``LinkLocal``) at creation and on the address each delivery connects to.
public protocol HostResolver: Sendable {
    /// The host's addresses, each 4 bytes (IPv4) or 16 (IPv6) in network order, without repeats; an IP address written
    /// as text is its own.
    func addresses(of host: String) async throws -> [[UInt8]]
}

/// The system's resolver, `getaddrinfo`; as it blocks, it runs on a dispatch queue rather than on the caller's thread.
public struct SystemHostResolver: HostResolver {
    /// `getaddrinfo` failed (no such host, no answer).
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var host: String
        /// What `gai_strerror` says of the failure.
        public var reason: String
        public var description: String { "\(host) does not resolve: \(reason)" }
    }

    public init() {}

    public func addresses(of host: String) async throws -> [[UInt8]] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.resolve(host) })
            }
        }
    }

    private static func resolve(_ host: String) throws -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            throw Failure(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        for entry in sequence(first: list, next: { $0.pointee.ai_next }) {
            guard let socketAddress = entry.pointee.ai_addr else { continue }
            let address: [UInt8]
            switch entry.pointee.ai_family {
            case AF_INET:
                address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) }
                }
            case AF_INET6:
                address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
                }
            default:
                continue
            }
            if !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }
}
