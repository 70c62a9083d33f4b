import Foundation

/// A JSON value whose objects keep their members in the order they were read (RFC 8259), for what must be shown and
/// hashed exactly as sent: a CIBA request's `authorization_details` (RFC 9396).
///
/// ``StrictJSONParser`` reads one under I-JSON's rules (RFC 7493); ``CanonicalJSON`` writes its RFC 8785 form.
public indirect enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in document order; names are unique in a value ``StrictJSONParser`` read. Two objects are equal when
    /// they have the same members in any order.
    case object([(name: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            // Members are unordered (RFC 8259 §4); names compare scalar by scalar.
            a.count == b.count
                && a.allSatisfy { member in
                    b.first { $0.name.unicodeScalars.elementsEqual(member.name.unicodeScalars) }?.value == member.value
                }
        default: false
        }
    }

    /// The value of member `name` of an object; `nil` for anything else.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }
}

extension JSONValue: Codable {
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Name.self) {
            self = .object(
                try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
        } else if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .object(let members):
            var object = encoder.container(keyedBy: Name.self)
            for member in members { try object.encode(member.value, forKey: Name(stringValue: member.name)) }
        }
    }
}
