import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking IPv4 TCP socket on the loopback address, for what an HTTP client library hides: a port held by a
/// listener of this process (``listening()``), and the answers and the end of one connection (``connected(to:)``).
final class TCPSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32
    /// Bytes received past the last response read.
    private var unread: [UInt8] = []

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// A socket listening on 127.0.0.1 at a port the kernel picks; it accepts nobody.
    static func listening() throws -> TCPSocket {
        let socket = try TCPSocket(descriptor: make())
        var address = loopback(port: 0)
        try check(withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }, "bind")
        try check(listen(socket.descriptor, 1), "listen")
        return socket
    }

    /// A connection to 127.0.0.1:`port`; reads give up after `timeout`.
    static func connected(to port: Int, timeout: TimeInterval = 10) throws -> TCPSocket {
        let socket = try TCPSocket(descriptor: make())
        var limit = timeval(tv_sec: Int(timeout), tv_usec: 0)
        try check(setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)), "setsockopt")
        var address = loopback(port: port)
        try check(withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }, "connect")
        return socket
    }

    /// The port this socket is bound to.
    var port: Int {
        get throws {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try Self.check(withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }, "getsockname")
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            try Self.check(count < 0 ? -1 : 0, "send")
            sent += count
        }
    }

    /// Reads what arrives next: at least one byte, or nothing when the peer closed the connection.
    /// - Throws: when nothing arrives within the timeout (the connection is still open), or on a reset.
    func read() throws -> [UInt8] {
        if !unread.isEmpty {
            defer { unread = [] }
            return unread
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        try Self.check(count < 0 ? -1 : 0, "recv")
        return Array(buffer.prefix(count))
    }

    /// Everything until the peer closes the connection.
    /// - Throws: when the connection stays open past the timeout.
    func readToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        while case let more = try read(), !more.isEmpty {
            received += more
        }
        return received
    }

    /// Reads one HTTP/1.1 response with a `Content-Length` body; what follows it stays unread.
    func readResponse() throws -> HTTPResponseHead {
        var received: [UInt8] = []
        while true {
            if let (head, length) = HTTPResponseHead.parse(received) {
                unread = Array(received[length...])
                return head
            }
            let more = try read()
            guard !more.isEmpty else {
                throw Failure(description: "closed before a whole response: \(String(decoding: received, as: UTF8.self))")
            }
            received += more
        }
    }

    private static func make() throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try check(descriptor, "socket")
        return descriptor
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        return address
    }

    private static func check(_ result: Int32, _ call: String) throws {
        guard result >= 0 else { throw Failure(description: "\(call): \(String(cString: strerror(errno)))") }
    }
}

/// The head of one HTTP/1.1 response.
struct HTTPResponseHead {
    let status: Int
    /// Field names in lower case; repeated fields joined with `, `.
    let fields: [String: String]

    /// The head of the response at the start of `bytes` and the response's length with its `Content-Length` body; `nil`
    /// until `bytes` hold all of it.
    static func parse(_ bytes: [UInt8]) -> (HTTPResponseHead, Int)? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
        }
        let length = end + separator.count + (Int(fields["content-length"] ?? "0") ?? 0)
        guard bytes.count >= length else { return nil }
        return (HTTPResponseHead(status: status, fields: fields), length)
    }
}
