/// A request that may carry a DPoP proof (RFC 9449): the proof, and what it must name.
package struct DPoPRequest: Sendable {
    /// The `DPoP` header's value; `nil` when the request has none.
    package var proof: String?
    /// The request's method.
    package var method: String
    /// ISSUER and the request's path, without query (never derived from the Host header).
    package var url: String

    package init(proof: String?, method: String, url: String) {
        self.proof = proof
        self.method = method
        self.url = url
    }
}
