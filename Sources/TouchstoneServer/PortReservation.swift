import NIOCore
import NIOPosix

/// A free TCP port of a host, picked by the kernel for a listener of its own that accepts nobody and holds the port
/// until the server binds it: so that `serve --port 0` knows its port, and so its default issuer
/// `http://localhost:PORT`, before anything is built from the issuer.
///
/// ``TouchstoneRuntime/serve(host:port:metricsPort:adminPort:traces:reservation:onServerRunning:)`` releases it as the
/// last step before the server binds the same address and port.
public struct PortReservation: Sendable {
    /// The port held.
    public let port: Int
    private let channel: any Channel

    /// Listens on `host` at a port the kernel picks.
    /// - Throws: ``ListenerFailure`` when `host` cannot be resolved or bound (the server would bind the same address).
    public init(host: String) async throws {
        do {
            // Connections to the port wait in its backlog unaccepted; they are refused when the reservation is released.
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.autoRead, value: false)
                .bind(host: host, port: 0).get()
        } catch {
            throw ListenerFailure(address: "\(host):0 (--port)", error: error)
        }
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw ListenerFailure(address: "\(host):0 (--port)", error: ChannelError.unknownLocalAddress)
        }
        self.port = port
    }

    /// Gives the port up, for the server to bind it.
    func release() async throws {
        try await channel.close()
    }
}
