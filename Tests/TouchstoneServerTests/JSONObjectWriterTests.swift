import Foundation
import Testing
import TouchstoneProtocol

@testable import TouchstoneDomain

/// The login path's bodies written by hand (``JSONObjectWriter``) give the bytes Foundation's coders give.
@Suite struct JSONObjectWriterTests {
    /// Every control character, the characters JSON escapes, `/`, and text beyond ASCII.
    private static let awkward = [
        "", "plain", #"quote " and backslash \ and slash /"#, String((0..<32).map { Character(Unicode.Scalar($0)) }),
        "é 漢字 👍🏽 \u{2028}\u{2029} \u{7F}", "https://id.example.com/path?x=1&y=<2>",
    ]

    @Test(arguments: awkward) func aSessionIsWrittenAsWireCodingWritesIt(_ text: String) throws {
        for deviceId in [nil, text] {
            let session = Session(
                accessToken: text, refreshToken: "r-" + text, expiresIn: 900, amr: [AuthenticationMethod(rawValue: text), .biometric], acr: AssuranceLevel(rawValue: text),
                userId: text, deviceId: deviceId, scope: text)
            #expect(session.jsonBytes == Array(try WireCoding.encoder().encode(session)), "\(text.debugDescription)")
            #expect(try WireCoding.decoder().decode(Session.self, from: Data(session.jsonBytes)) == session)
        }
    }

    @Test func challengeExpiriesAreWrittenAsWireCodingWritesDates() throws {
        var generator = SystemRandomNumberGenerator()
        // Leap days, the ends of years and months, the epoch, and times with fractions of a second (cut, not rounded).
        let fixed: [TimeInterval] = [
            0, 59.999, 951_782_400, 951_868_799.5, 4_107_542_400, 1_798_761_599, 1_800_000_000.25, 253_402_300_799,
        ]
        let random = (0..<2_000).map { _ in TimeInterval(Double.random(in: 0..<253_402_300_800, using: &generator)) }
        for seconds in fixed + random {
            let issued = ChallengeIssued(challenge: "c", expiresAt: Date(timeIntervalSince1970: seconds))
            #expect(
                String(decoding: issued.jsonBytes, as: UTF8.self)
                    == String(decoding: try WireCoding.encoder().encode(issued), as: UTF8.self), "\(seconds)")
        }
    }

    @Test(arguments: awkward) func accessTokenClaimsAreWrittenAsTheirEncodableWritesThem(_ text: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        for (did, cnf) in [(nil, nil), (text, AccessTokenClaims.Confirmation(jkt: text))] {
            let claims = AccessTokenClaims(
                iss: text, aud: text, sub: text, sid: text, did: did, amr: [AuthenticationMethod(rawValue: text)], acr: AssuranceLevel(rawValue: text), auth_time: 1_800_000_000,
                scope: text, cnf: cnf, iat: -1, exp: Int64.max, jti: text)
            let written = String(decoding: claims.jsonBytes, as: UTF8.self)
            let encoded = String(decoding: try encoder.encode(claims), as: UTF8.self)
            #expect(written == encoded)
            #expect(try JSONDecoder().decode(AccessTokenClaims.self, from: Data(claims.jsonBytes)) == claims)
        }
    }
}
