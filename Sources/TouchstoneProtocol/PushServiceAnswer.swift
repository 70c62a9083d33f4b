import Foundation

/// What the push services (APNs, FCM HTTP v1) and Google's OAuth token endpoint answer, read from the bytes they send.
///
/// These bytes come from outside (a service, or whoever sits in its place): every reader here takes any input, returns
/// `nil` (or nothing) for what it cannot read, and keeps only short codes of `[A-Za-z0-9_.:-]` (at most 64
/// characters), so that a logged or counted reason is never free text. They are fuzz targets (`push-answers`).
package enum PushServiceAnswer {
    /// An FCM error body's `error.status` and the `errorCode`s of its `error.details`.
    package struct FCMError: Sendable, Equatable {
        package var status: String?
        package var errorCodes: [String]

        package init(status: String?, errorCodes: [String]) {
            self.status = status
            self.errorCodes = errorCodes
        }
    }

    /// A token endpoint's success: the access token and its lifetime in seconds.
    package struct AccessToken: Sendable, Equatable {
        package var token: String
        package var expiresIn: Int

        package init(token: String, expiresIn: Int) {
            self.token = token
            self.expiresIn = expiresIn
        }
    }

    /// APNs' error body `{"reason": "BadDeviceToken", …}`: its `reason`.
    package static func apnsReason(_ body: [UInt8]) -> String? {
        code((try? JSONDecoder().decode(APNsBody.self, from: Data(body)))?.reason)
    }

    /// FCM's error body `{"error": {"status": "NOT_FOUND", "details": [{"errorCode": "UNREGISTERED", …}]}}`; `nil`
    /// when it has no `error` object.
    package static func fcmError(_ body: [UInt8]) -> FCMError? {
        guard let error = (try? JSONDecoder().decode(FCMBody.self, from: Data(body)))?.error else { return nil }
        return FCMError(status: code(error.status), errorCodes: (error.details ?? []).compactMap { code($0.errorCode) })
    }

    /// An OAuth token response `{"access_token", "expires_in", …}`; `nil` without a token of printable ASCII (at most
    /// 4096 characters) or a positive `expires_in`.
    package static func accessToken(_ body: [UInt8]) -> AccessToken? {
        guard let answer = try? JSONDecoder().decode(TokenBody.self, from: Data(body)),
            let token = answer.accessToken, let expiresIn = answer.expiresIn,
            (1...4096).contains(token.utf8.count), token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
            expiresIn > 0
        else { return nil }
        return AccessToken(token: token, expiresIn: expiresIn)
    }

    /// An OAuth error response's `error` (RFC 6749 §5.2), e.g. `invalid_grant`.
    package static func oauthError(_ body: [UInt8]) -> String? {
        code((try? JSONDecoder().decode(OAuthErrorBody.self, from: Data(body)))?.error)
    }

    /// A `Retry-After` header in seconds (its delay-seconds form, at most nine digits); `nil` for an HTTP date or
    /// anything else.
    package static func retryAfterSeconds(_ value: String) -> Int? {
        let digits = value.trimmingCharacters(in: .whitespaces)
        guard (1...9).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(digits)
    }

    /// `value` when it is a short code (1–64 of `[A-Za-z0-9_.:-]`).
    private static func code(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || "_.:-".utf8.contains(byte)
            })
        else { return nil }
        return value
    }

    private struct APNsBody: Decodable {
        var reason: String?
    }

    private struct FCMBody: Decodable {
        struct Status: Decodable {
            struct Detail: Decodable {
                var errorCode: String?
            }

            var status: String?
            var details: [Detail]?
        }

        var error: Status?
    }

    private struct TokenBody: Decodable {
        var accessToken: String?
        var expiresIn: Int?

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", expiresIn = "expires_in"
        }
    }

    private struct OAuthErrorBody: Decodable {
        var error: String?
    }
}
