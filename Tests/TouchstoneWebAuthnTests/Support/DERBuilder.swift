/// Just enough DER encoding to build Android key attestation extensions by hand.
enum DERBuilder {
    static func tlv(_ tag: [UInt8], _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        let length: [UInt8] = n < 0x80 ? [UInt8(n)] : n < 0x100 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xff)]
        return tag + length + content
    }

    static func integer(_ value: Int) -> [UInt8] {
        value < 0x80 ? [0x02, 0x01, UInt8(value)] : [0x02, 0x02, UInt8(value >> 8), UInt8(value & 0xff)]
    }

    static func enumerated(_ value: UInt8) -> [UInt8] { [0x0a, 0x01, value] }
    static func octets(_ bytes: [UInt8]) -> [UInt8] { tlv([0x04], bytes) }
    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv([0x30], parts.flatMap { $0 }) }

    /// An Android `AuthorizationList` with the fields WebAuthn reads.
    static func authorizationList(purposes: [Int]? = nil, origin: Int? = nil, allApplications: Bool = false) -> [UInt8] {
        var content: [UInt8] = []
        if let purposes { content += tlv([0xa1], tlv([0x31], purposes.flatMap(integer))) }
        content += tlv([0xbf, 0x83, 0x78], integer(1))  // [504] a field WebAuthn does not read
        if allApplications { content += tlv([0xbf, 0x84, 0x58], [0x05, 0x00]) }
        if let origin { content += tlv([0xbf, 0x85, 0x3e], integer(origin)) }
        return tlv([0x30], content)
    }

    /// An Android `KeyDescription`.
    static func keyDescription(challenge: [UInt8], software: [UInt8], tee: [UInt8], trailing: [UInt8] = []) -> [UInt8] {
        sequence(integer(300), enumerated(1), integer(300), enumerated(1), octets(challenge), octets([]), software, tee, trailing)
    }
}
