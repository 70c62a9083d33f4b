/// Hand-built DER for the parser tests: tag-length-value with the length in its shortest form unless told otherwise.
enum DERBuilder {
    static func tlv(_ identifier: [UInt8], _ content: [UInt8]) -> [UInt8] {
        identifier + length(content.count) + content
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func sequence(_ children: [[UInt8]]) -> [UInt8] { tlv([0x30], children.flatMap { $0 }) }
    static func set(_ children: [[UInt8]]) -> [UInt8] { tlv([0x31], children.flatMap { $0 }) }
    static func octets(_ bytes: [UInt8]) -> [UInt8] { tlv([0x04], bytes) }
    static let null: [UInt8] = [0x05, 0x00]

    /// A minimal INTEGER (non-negative).
    static func integer(_ value: Int, identifier: UInt8 = 0x02) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        } while rest > 0
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv([identifier], bytes)
    }

    static func enumerated(_ value: Int) -> [UInt8] { integer(value, identifier: 0x0a) }

    /// `[tag] EXPLICIT` around `content` (context-specific, constructed).
    static func tagged(_ tag: Int, _ content: [UInt8]) -> [UInt8] {
        guard tag >= 31 else { return tlv([0xa0 | UInt8(tag)], content) }
        var digits: [UInt8] = [UInt8(tag & 0x7f)]
        var rest = tag >> 7
        while rest > 0 {
            digits.insert(0x80 | UInt8(rest & 0x7f), at: 0)
            rest >>= 7
        }
        return tlv([0xbf] + digits, content)
    }
}
