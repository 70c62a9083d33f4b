/// A CBOR input that the strict decoder refuses.
///
/// The ``code`` is stable and safe to log or match on; ``offset`` is the byte position where decoding stopped.
public struct CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier for the kind of failure. New codes may be added; existing ones never change.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The input ended inside an item.
        public static let truncated = Code(rawValue: "cbor_truncated")
        /// Bytes follow the single top-level item.
        public static let trailingBytes = Code(rawValue: "cbor_trailing_bytes")
        /// An integer, length or simple value is not in its shortest form.
        public static let nonMinimalEncoding = Code(rawValue: "cbor_non_minimal_encoding")
        /// An indefinite-length string, array or map, or a stray "break" byte.
        public static let indefiniteLength = Code(rawValue: "cbor_indefinite_length")
        /// Additional information 28–30, reserved by RFC 8949.
        public static let reservedAdditionalInformation = Code(rawValue: "cbor_reserved_additional_information")
        /// A tag (major type 6); WebAuthn structures never carry tags.
        public static let tagNotSupported = Code(rawValue: "cbor_tag_not_supported")
        /// A floating-point number; WebAuthn structures never carry floats.
        public static let floatNotSupported = Code(rawValue: "cbor_float_not_supported")
        /// A simple value other than false, true and null (for example undefined).
        public static let simpleValueNotSupported = Code(rawValue: "cbor_simple_value_not_supported")
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8 = Code(rawValue: "cbor_invalid_utf8")
        /// A map key that is neither an integer nor a text string.
        public static let mapKeyNotSupported = Code(rawValue: "cbor_map_key_not_supported")
        /// The same key twice in one map.
        public static let duplicateMapKey = Code(rawValue: "cbor_duplicate_map_key")
        /// Map keys out of CTAP2 canonical order.
        public static let mapKeysNotCanonical = Code(rawValue: "cbor_map_keys_not_canonical")
        /// Arrays and maps nested deeper than the limit.
        public static let depthLimitExceeded = Code(rawValue: "cbor_depth_limit_exceeded")
        /// The input is larger than the limit.
        public static let sizeLimitExceeded = Code(rawValue: "cbor_size_limit_exceeded")
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset in the input at which the problem was found.
    public let offset: Int

    public init(_ code: Code, offset: Int) {
        self.code = code
        self.offset = offset
    }

    public var description: String { "\(code) at byte \(offset)" }
}
