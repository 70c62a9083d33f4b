/// Why a compact JWS was refused. The reason is for the log; a client sees only its protocol's code.
public struct JWSError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
