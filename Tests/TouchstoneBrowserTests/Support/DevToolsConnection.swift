import Foundation
import Synchronization

/// A Chrome DevTools Protocol connection over one WebSocket: commands `{id, method, params, sessionId?}` answered by
/// the message with the same `id`, and events (messages with a `method` and no `id`) kept in arrival order.
///
/// Use ``withConnection(to:_:)``: the socket lives exactly as long as its body.
final class DevToolsConnection: Sendable {
    /// One event the browser sent.
    struct Event: Sendable {
        let method: String
        let sessionId: String?
        let params: JSONValue
    }

    /// A command the browser answered with an error, or a connection that ended.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The browser's own error message, when the browser answered with one.
        var browserMessage: String? = nil
    }

    private struct State {
        var nextId = 1
        var pending: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var cancelled: Set<Int> = []
        var events: [Event] = []
        var closed: (any Error)?
    }

    private let outbound: AsyncStream<String>.Continuation
    private let state = Mutex(State())

    private init(outbound: AsyncStream<String>.Continuation) {
        self.outbound = outbound
    }

    /// Opens `url` (a `ws://127.0.0.1:PORT/devtools/browser/ID`), runs `body` with the connection, then closes it.
    static func withConnection<T: Sendable>(
        to url: String, _ body: (DevToolsConnection) async throws -> T
    ) async throws -> T {
        // Screenshots arrive as one large text message.
        let socket = try await WebSocketChannel.connect(to: url, maxMessageSize: 64 << 20)
        let (messages, continuation) = AsyncStream.makeStream(of: String.self)
        let connection = DevToolsConnection(outbound: continuation)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await socket.exchange(sending: messages) { connection.receive($0) }
                    connection.close(Failure(description: "the DevTools connection closed"))
                } catch {
                    connection.close(error)
                }
            }
            defer {
                continuation.finish()
                group.cancelAll()
            }
            return try await body(connection)
        }
    }

    /// Sends a command and waits for its answer (its `result`).
    /// - Parameters:
    ///   - sessionId: the attached target's session, for page commands; `nil` for browser commands.
    ///   - timeout: seconds before giving up.
    /// - Throws: ``Failure`` when the browser answers with an error, the connection ends, or time runs out.
    @discardableResult
    func send(
        _ method: String, _ params: JSONValue = [:], sessionId: String? = nil, timeout: TimeInterval = 60
    ) async throws -> JSONValue {
        let id = state.withLock { state in
            defer { state.nextId += 1 }
            return state.nextId
        }
        var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": params]
        if let sessionId { message["sessionId"] = .string(sessionId) }
        let text = String(decoding: try JSONValue.object(message).serialized(), as: UTF8.self)
        return try await withThrowingTaskGroup(of: JSONValue.self) { group in
            group.addTask {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let refused: (any Error)? = self.state.withLock { state in
                            if let closed = state.closed { return closed }
                            if state.cancelled.remove(id) != nil { return CancellationError() }
                            state.pending[id] = continuation
                            return nil
                        }
                        if let refused {
                            continuation.resume(throwing: refused)
                        } else {
                            self.outbound.yield(text)
                        }
                    }
                } onCancel: {
                    let waiting = self.state.withLock { state in
                        let waiting = state.pending.removeValue(forKey: id)
                        if waiting == nil { state.cancelled.insert(id) }
                        return waiting
                    }
                    waiting?.resume(throwing: CancellationError())
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                throw Failure(description: "\(method) got no answer within \(Int(timeout)) s")
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() else { throw CancellationError() }
            return result
        }
    }

    /// Every event received so far, in order.
    var events: [Event] {
        state.withLock { $0.events }
    }

    private func receive(_ text: String) {
        guard let message = try? JSONValue(parsing: Data(text.utf8)) else { return }
        if let id = message["id"]?.int {
            let waiting = state.withLock { $0.pending.removeValue(forKey: id) }
            if let error = message["error"] {
                waiting?.resume(
                    throwing: Failure(description: "DevTools error: \(error)", browserMessage: error["message"]?.string))
            } else {
                waiting?.resume(returning: message["result"] ?? [:])
            }
        } else if let method = message["method"]?.string {
            let event = Event(method: method, sessionId: message["sessionId"]?.string, params: message["params"] ?? [:])
            state.withLock { $0.events.append(event) }
        }
    }

    private func close(_ error: any Error) {
        let waiting = state.withLock { state in
            state.closed = state.closed ?? error
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }
}
