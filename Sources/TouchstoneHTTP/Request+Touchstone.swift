import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchstoneDomain
import TouchstoneProtocol

extension Request {
    /// Decodes a JSON body of at most 64 KiB: 413 when larger, 400 `invalid_request` when malformed.
    /// - Parameter allowingEmpty: decode an empty body as `{}` (for endpoints whose body has only optional fields).
    func decodeBody<T: Decodable>(
        _ type: T.Type, context: some RequestContext, allowingEmpty: Bool = false
    ) async throws -> T {
        var buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: context.maxUploadSize)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ProblemError(.payloadTooLarge)
        }
        // JSON bodies are UTF-8 (RFC 8259 §8.1), but Foundation's decoder also takes UTF-16/32: refuse any byte order
        // mark (a UTF-8 one too: no client of ours sends it) and any NUL byte, so that U+0000 cannot come in that way.
        if buffer.hasByteOrderMark || buffer.readableBytesView.contains(0) {
            throw ProblemError.invalidRequest("the body must be JSON in UTF-8, without a byte order mark or NUL bytes")
        }
        // No field of the protocol may hold U+0000 (and PostgreSQL text cannot): refuse it for every endpoint.
        if buffer.containsEscapedNUL {
            throw ProblemError.invalidRequest("text may not contain U+0000")
        }
        if allowingEmpty, buffer.readableBytes == 0 {
            buffer = ByteBuffer(string: "{}")
        }
        do {
            return try WireCoding.decoder().decode(type, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw ProblemError.invalidRequest(Self.describe(error))
        } catch {
            throw ProblemError.invalidRequest("the body is not JSON")
        }
    }

    /// The credential after `scheme ` in `Authorization`, if that is the scheme used.
    func authorization(scheme: String) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let prefix = scheme + " "
        guard value.count > prefix.count, value.lowercased().hasPrefix(prefix.lowercased()) else { return nil }
        return String(value.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing field \(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "field \(path(context)) has the wrong type"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the body is not JSON" : "field \(path(context)) is invalid"
        @unknown default:
            return "the body does not match the expected shape"
        }
    }
}

extension ByteBuffer {
    /// Whether the readable bytes start with a UTF-8, UTF-16 or UTF-32 byte order mark (FF FE covers FF FE 00 00).
    fileprivate var hasByteOrderMark: Bool {
        let marks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0xFE, 0xFF]]
        return marks.contains { readableBytesView.starts(with: $0) }
    }

    /// Whether the readable bytes hold the JSON escape `\u0000` (a raw NUL byte is not JSON at all).
    fileprivate var containsEscapedNUL: Bool {
        withUnsafeReadableBytes { bytes in
            let escape = Array(#"\u0000"#.utf8)
            var start = bytes.startIndex
            while let backslash = bytes[start...].firstIndex(of: UInt8(ascii: "\\")) {
                if bytes[backslash...].starts(with: escape) { return true }
                start = backslash + 1
            }
            return false
        }
    }
}

extension Response {
    /// A JSON answer; `noStore` for anything that carries tokens or secrets.
    package static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, noStore: Bool = false) throws -> Response {
        json(bytes: try WireCoding.encoder().encode(value), status: status, noStore: noStore)
    }

    /// The same for the bodies of the login path, which write their own JSON.
    package static func json(_ value: some HandWrittenJSON, status: HTTPResponse.Status = .ok, noStore: Bool = false)
        -> Response
    {
        json(bytes: value.jsonBytes, status: status, noStore: noStore)
    }

    private static func json(bytes: some Sequence<UInt8>, status: HTTPResponse.Status, noStore: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if noStore {
            headers[.cacheControl] = "no-store"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
