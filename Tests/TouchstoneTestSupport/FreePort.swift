#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A TCP port on 127.0.0.1 that nothing listens on, so a test server can be given its URL before it starts.
///
/// Ports are drawn below the kernel's ephemeral range (32768–60999 on Linux), so that no outgoing connection of a
/// concurrent test can take the port between this check and the server's bind; each port is handed out once per
/// process.
public enum FreePort {
    private static let claimed = Mutex<Set<Int>>([])

    public struct Exhausted: Error {}

    public static func claim() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let isNew = claimed.withLock { $0.insert(port).inserted }
            if isNew, canBind(port) { return port }
        }
        throw Exhausted()
    }

    /// Whether a socket can bind 127.0.0.1:`port` now.
    private static func canBind(_ port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }
}
