import HTTPTypes
import Hummingbird
import NIOCore
import TouchstoneDomain
import TouchstoneProtocol

extension OAuthError {
    /// The status of each code: 401 for a client or token that failed authentication, 400 otherwise (RFC 6749 §5.2,
    /// RFC 6750 §3.1).
    var status: HTTPResponse.Status {
        switch code {
        case .invalidClient, .invalidToken: .unauthorized
        case .invalidDPoPProof where dpopChallenge: .unauthorized
        case .temporarilyUnavailable: .serviceUnavailable
        default: .badRequest
        }
    }

    /// The JSON answer `{error, error_description}`, never stored; `WWW-Authenticate` for a Basic client refused and
    /// for a bad access token or DPoP proof at a protected resource (RFC 9449 §7.1: `algs` lists the proofs' algorithms).
    func response(status: HTTPResponse.Status? = nil) throws -> Response {
        var response = try Response.json(
            OAuthErrorResponse(error: code.rawValue, errorDescription: description), status: status ?? self.status,
            noStore: true)
        if dpopChallenge {
            let algorithms = OpenIDConfiguration.dpopAlgorithms.joined(separator: " ")
            response.headers[.wwwAuthenticate] = #"DPoP error="\#(code.rawValue)", algs="\#(algorithms)""#
        } else if code == .invalidClient, usedBasic {
            response.headers[.wwwAuthenticate] = #"Basic realm="touchstone""#
        } else if code == .invalidToken {
            response.headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        }
        return response
    }
}
