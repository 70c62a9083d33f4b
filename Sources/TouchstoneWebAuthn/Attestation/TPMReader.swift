/// Reads the big-endian, size-prefixed structures of the TPM 2.0 specification (Part 2), refusing truncation.
struct TPMReader {
    struct Truncated: Error {}

    private let bytes: [UInt8]
    private(set) var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func bytes(_ count: Int) throws(Truncated) -> [UInt8] {
        guard count >= 0, bytes.count - position >= count else { throw Truncated() }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func uint16() throws(Truncated) -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() throws(Truncated) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws(Truncated) -> UInt64 {
        try bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A TPM2B structure: a 16-bit size, then that many bytes.
    mutating func sized() throws(Truncated) -> [UInt8] {
        try bytes(Int(try uint16()))
    }
}
