import Foundation

/// Google's attestation certificate status list: the certificates of Android key attestation chains that are revoked
/// or suspended, by serial number. Loaded from a file the operator keeps current (Google publishes it at
/// `https://android.googleapis.com/attestation/status`); this target does no I/O.
///
/// Its JSON is `{"entries": {serial: {"status": "REVOKED" | "SUSPENDED", "reason": …, "comment"?: …}}}`, each serial
/// lowercase hexadecimal without leading zeros. Any certificate of a chain listed with either status fails the chain.
public struct AttestationStatusList: Sendable, Equatable {
    /// Why and how a certificate is listed.
    public struct Entry: Sendable, Equatable, Decodable {
        /// `REVOKED` or `SUSPENDED`; both refuse the certificate.
        public var status: String
        /// For example `KEY_COMPROMISE`, `CA_COMPROMISE`, `SUPERSEDED`, `SOFTWARE_FLAW`.
        public var reason: String?
        public var comment: String?
    }

    /// The entries by normalised serial (lowercase hexadecimal, no leading zeros).
    public let entries: [String: Entry]

    /// An empty list: nothing is revoked.
    public init() {
        entries = [:]
    }

    /// Parses the JSON of the status list.
    /// - Throws: ``AttestationStatusListError`` when the JSON is not a status list or a key is not a hexadecimal serial.
    public init(json: Data) throws {
        struct Document: Decodable { var entries: [String: Entry] }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch {
            throw AttestationStatusListError(detail: "not a status list: \(error)")
        }
        var entries: [String: Entry] = [:]
        for (serial, entry) in document.entries {
            guard let normalised = Self.normalised(hex: serial) else {
                throw AttestationStatusListError(detail: "the key \"\(serial)\" is not a hexadecimal serial number")
            }
            entries[normalised] = entry
        }
        self.entries = entries
    }

    /// The entry of the certificate with this serial number (its DER INTEGER content bytes), or `nil` when it is not
    /// listed.
    public func entry(forSerial serial: some Sequence<UInt8>) -> Entry? {
        let hex = serial.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        return Self.normalised(hex: hex).flatMap { entries[$0] }
    }

    /// Lowercase, without leading zeros ("0" for zero); `nil` for an empty or non-hexadecimal text.
    private static func normalised(hex: String) -> String? {
        let lower = hex.lowercased()
        guard !lower.isEmpty, lower.allSatisfy(\.isHexDigit) else { return nil }
        let trimmed = lower.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }
}

/// A status list that cannot be read; the detail says why.
public struct AttestationStatusListError: Error, Sendable, Equatable {
    public var detail: String
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
