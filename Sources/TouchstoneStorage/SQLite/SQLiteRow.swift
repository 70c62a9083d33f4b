import CSQLite
import Foundation
import SQLKit

/// A value as SQLite stores it.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value to bind for a SQLKit bind: strings, integers, doubles, booleans (0/1), `Data`, and optionals of them.
    package init(binding value: any Encodable) throws {
        guard let convertible = value as? any SQLiteValueConvertible else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "cannot bind a \(type(of: value)) to an SQLite statement")
        }
        self = convertible.sqliteValue
    }
}

/// A Swift type that is stored as one SQLite value and read back from it.
protocol SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { get }
    /// `nil` when `value` is not of this type (no conversion between text and numbers).
    init?(sqliteValue value: SQLiteValue)
}

extension String: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .text(self) }

    init?(sqliteValue value: SQLiteValue) {
        guard case .text(let text) = value else { return nil }
        self = text
    }
}

extension Int64: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .integer(self) }

    init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value else { return nil }
        self = integer
    }
}

extension Int: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .integer(Int64(self)) }

    init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value, let converted = Int(exactly: integer) else { return nil }
        self = converted
    }
}

extension Double: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .real(self) }

    init?(sqliteValue value: SQLiteValue) {
        switch value {
        case .real(let real): self = real
        case .integer(let integer): self = Double(integer)
        default: return nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }

    init?(sqliteValue value: SQLiteValue) {
        guard case .integer(let integer) = value else { return nil }
        self = integer != 0
    }
}

extension Data: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { .blob(Array(self)) }

    init?(sqliteValue value: SQLiteValue) {
        guard case .blob(let bytes) = value else { return nil }
        self = Data(bytes)
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }

    init?(sqliteValue value: SQLiteValue) {
        if value == .null {
            self = .none
        } else if let wrapped = Wrapped(sqliteValue: value) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
}

/// One result row; columns are looked up by name.
struct SQLiteRow: SQLRow, Sendable {
    package let columns: [String]
    package let values: [SQLiteValue]

    var allColumns: [String] { columns }

    package func contains(column: String) -> Bool {
        columns.contains(column)
    }

    package func decodeNil(column: String) throws -> Bool {
        try value(column) == .null
    }

    package func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let value = try value(column)
        guard let convertible = type as? any SQLiteValueConvertible.Type else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [SomeCodingKey(stringValue: column)], debugDescription: "not an SQLite value type"))
        }
        guard let decoded = convertible.init(sqliteValue: value) else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [SomeCodingKey(stringValue: column)], debugDescription: "column holds \(value)"))
        }
        return decoded as! D
    }

    private func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(
                SomeCodingKey(stringValue: column), .init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return values[index]
    }
}
