import SwiftASN1

/// The readers the `KeyDescription` parser builds on: swift-asn1's strict DER, plus the one leniency Android needs.
///
/// Each throws `ASN1Error` for anything that is not the expected, minimally encoded type.
enum KeyDescriptionDER {
    /// An INTEGER that fits an `Int`.
    static func integer(_ node: ASN1Node) throws -> Int {
        try Int(derEncoded: node)
    }

    /// An ENUMERATED that fits an `Int`.
    static func enumerated(_ node: ASN1Node) throws -> Int {
        try Int(derEncoded: node, withIdentifier: .enumerated)
    }

    /// An ENUMERATED that names one of `Value`'s cases.
    static func enumerated<Value: RawRepresentable<Int>>(_ node: ASN1Node, as type: Value.Type) throws -> Value {
        let raw = try enumerated(node)
        guard let value = Value(rawValue: raw) else {
            throw ASN1Error.invalidASN1Object(reason: "\(raw) is not a \(Value.self)")
        }
        return value
    }

    /// The bytes of an OCTET STRING.
    static func octets(_ node: ASN1Node) throws -> [UInt8] {
        Array(try ASN1OctetString(derEncoded: node).bytes)
    }

    /// A SET OF INTEGER, in the order received.
    static func integers(_ node: ASN1Node) throws -> [Int] {
        try DER.set(of: Int.self, identifier: .set, rootNode: node)
    }

    /// A NULL, which says that a flag is set.
    static func null(_ node: ASN1Node) throws {
        _ = try ASN1Null(derEncoded: node)
    }

    /// A BOOLEAN: DER's 0xFF or 0x00, and also 0x01 for true, which real devices send (Android's own parser reads
    /// any non-zero byte as true; this accepts only that one extra form).
    static func boolean(_ node: ASN1Node) throws -> Bool {
        guard node.identifier == .boolean, case .primitive(let content) = node.content, content.count == 1,
            let byte = content.first
        else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        switch byte {
        case 0x00: return false
        case 0x01, 0xFF: return true
        default: throw ASN1Error.invalidASN1Object(reason: "BOOLEAN content 0x\(String(byte, radix: 16))")
        }
    }

    /// The children of a SEQUENCE.
    static func sequence(_ node: ASN1Node) throws -> [ASN1Node] {
        guard node.identifier == .sequence, case .constructed(let children) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        return Array(children)
    }
}
