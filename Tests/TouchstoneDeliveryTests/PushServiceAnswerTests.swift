import Foundation
import Testing
import TouchstoneProtocol

/// The readers of what push services and the token endpoint send: they read the documented shapes, and anything
/// else gives nothing (never a trap, never free text).
@Suite struct PushServiceAnswerTests {
    @Test func documentedAnswersAreRead() {
        #expect(PushServiceAnswer.apnsReason(Array(#"{"reason":"Unregistered","timestamp":1800000000000}"#.utf8)) == "Unregistered")
        let fcm = #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"x","errorCode":"UNREGISTERED"},{"@type":"y"}]}}"#
        #expect(PushServiceAnswer.fcmError(Array(fcm.utf8)) == .init(status: "NOT_FOUND", errorCodes: ["UNREGISTERED"]))
        let token = #"{"access_token":"ya29.a0-_~+/=","expires_in":3599,"token_type":"Bearer"}"#
        #expect(PushServiceAnswer.accessToken(Array(token.utf8)) == .init(token: "ya29.a0-_~+/=", expiresIn: 3599))
        #expect(PushServiceAnswer.oauthError(Array(#"{"error":"invalid_grant","error_description":"no"}"#.utf8)) == "invalid_grant")
        #expect(PushServiceAnswer.retryAfterSeconds(" 120 ") == 120)
    }

    @Test(arguments: [
        "", "null", "[]", "{", #"{"reason":1}"#, #"{"reason":""}"#, #"{"reason":"two words"}"#,
        #"{"reason":"line\nbreak"}"#, "{\"reason\":\"" + String(repeating: "A", count: 65) + "\"}", "\u{FEFF}{}",
        #"{"reason":"\ud800"}"#,
    ])
    func malformedAPNsBodiesGiveNoReason(_ body: String) {
        #expect(PushServiceAnswer.apnsReason(Array(body.utf8)) == nil)
        #expect(PushServiceAnswer.oauthError(Array(body.replacingOccurrences(of: "reason", with: "error").utf8)) == nil)
    }

    @Test func malformedFCMErrorsGiveOnlyWhatIsAShortCode() {
        #expect(PushServiceAnswer.fcmError(Array("not json".utf8)) == nil)
        #expect(PushServiceAnswer.fcmError(Array(#"{"error":"NOT_FOUND"}"#.utf8)) == nil)
        #expect(PushServiceAnswer.fcmError(Array(#"{"error":{"details":[1]}}"#.utf8)) == nil)
        #expect(PushServiceAnswer.fcmError(Array(#"{"error":{"status":"a b","details":[{"errorCode":"<script>"}]}}"#.utf8))
            == .init(status: nil, errorCodes: []))
    }

    @Test func malformedTokenAnswersGiveNoToken() {
        for body in [
            #"{"access_token":"t"}"#, #"{"expires_in":3600}"#, #"{"access_token":"","expires_in":3600}"#,
            #"{"access_token":"a b","expires_in":3600}"#, #"{"access_token":"t","expires_in":0}"#,
            #"{"access_token":"t","expires_in":"3600"}"#, #"{"access_token":"t","expires_in":1e400}"#,
            "{\"access_token\":\"" + String(repeating: "t", count: 4097) + "\",\"expires_in\":3600}", "",
        ] {
            #expect(PushServiceAnswer.accessToken(Array(body.utf8)) == nil, "\(body)")
        }
    }

    @Test(arguments: ["", "-1", "1.5", "Wed, 21 Oct 2026 07:28:00 GMT", "1234567890", "+5", "٣"])
    func aRetryAfterThatIsNotShortDelaySecondsIsIgnored(_ value: String) {
        #expect(PushServiceAnswer.retryAfterSeconds(value) == nil)
    }
}
