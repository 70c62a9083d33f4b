/// The parameters of an OAuth request (a query or a form body) in the order they came, repeats included.
package struct OAuthParameters: Sendable {
    package let pairs: [(name: String, value: String)]

    package init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// The value of `name`, `nil` when absent or empty (RFC 6749 §3.1: a parameter without a value counts as
    /// omitted).
    /// - Throws: `invalid_request` when it is repeated (RFC 6749 §3.1).
    package func single(_ name: String) throws(OAuthError) -> String? {
        let values = pairs.filter { $0.name == name }.map(\.value)
        guard values.count <= 1 else { throw .invalidRequest("\(name) is repeated") }
        return values.first.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value of `name`.
    /// - Throws: `invalid_request` when it is absent, empty or repeated.
    package func required(_ name: String) throws(OAuthError) -> String {
        guard let value = try single(name) else { throw .invalidRequest("\(name) is missing") }
        return value
    }

    /// The names present, each once.
    package var names: Set<String> { Set(pairs.map(\.name)) }
}
