import Foundation
import Testing
import TouchstoneAttestation

/// Compares a parsed `KeyDescription` with upstream's expected JSON (integers as decimal strings, bytes as base64,
/// enums by name) for the fields Touchstone reads.
enum ExpectedKeyDescription {
    static func expectMatches(_ description: KeyDescription, _ json: [String: Any]) throws {
        #expect(description.attestationVersion == Int(try string(json, "attestationVersion")))
        #expect(description.attestationSecurityLevel == level(try string(json, "attestationSecurityLevel")))
        #expect(description.keyMintVersion == Int(try string(json, "keyMintVersion")))
        #expect(description.keyMintSecurityLevel == level(try string(json, "keyMintSecurityLevel")))
        #expect(description.attestationChallenge == (try Vectors.base64(try string(json, "attestationChallenge"))))
        try expectMatches(description.softwareEnforced, try #require(json["softwareEnforced"] as? [String: Any]))
        try expectMatches(description.hardwareEnforced, try #require(json["hardwareEnforced"] as? [String: Any]))
    }

    private static func expectMatches(_ list: AuthorizationList, _ json: [String: Any]) throws {
        #expect(list.purposes == ((json["purposes"] as? [String]) ?? []).compactMap { Int($0) })
        #expect(list.algorithm == integer(json, "algorithms"))
        #expect(list.keySize == integer(json, "keySize"))
        #expect(list.ecCurve == integer(json, "ecCurve"))
        #expect(list.noAuthRequired == (json["noAuthRequired"] as? Bool ?? false))
        #expect(list.userAuthType == integer(json, "userAuthType"))
        #expect(list.authTimeout == integer(json, "authTimeout"))
        #expect(list.origin == (json["origin"] as? String).map { $0 == "GENERATED" ? 0 : -1 })
        #expect(list.creationDateTime == integer(json, "creationDateTime").map { Date(timeIntervalSince1970: Double($0) / 1000) })
        if let rootOfTrust = json["rootOfTrust"] as? [String: Any] {
            let parsed = try #require(list.rootOfTrust)
            #expect(parsed.verifiedBootKey == (try Vectors.base64(try string(rootOfTrust, "verifiedBootKey"))))
            #expect(parsed.deviceLocked == rootOfTrust["deviceLocked"] as? Bool)
            #expect("\(parsed.verifiedBootState)".uppercased() == rootOfTrust["verifiedBootState"] as? String)
            #expect(parsed.verifiedBootHash == (try Vectors.base64(try string(rootOfTrust, "verifiedBootHash"))))
        } else {
            #expect(list.rootOfTrust == nil)
        }
        if let applicationID = json["attestationApplicationId"] as? [String: Any] {
            let parsed = try #require(list.attestationApplicationID)
            let packages = try #require(applicationID["packages"] as? [[String: String]])
            #expect(parsed.packages.map(\.name) == packages.compactMap { $0["name"] })
            #expect(parsed.packages.map(\.version) == packages.compactMap { $0["version"].flatMap { Int($0) } })
            let signatures = try #require(applicationID["signatures"] as? [String])
            #expect(parsed.signatureDigests == (try signatures.map { try Vectors.base64($0) }))
        } else {
            #expect(list.attestationApplicationID == nil)
        }
    }

    private static func level(_ name: String) -> SecurityLevel? {
        ["SOFTWARE": .software, "TRUSTED_ENVIRONMENT": .trustedEnvironment, "STRONG_BOX": .strongBox][name]
    }

    private static func string(_ json: [String: Any], _ key: String) throws -> String {
        try #require(json[key] as? String, "\(key) missing")
    }

    private static func integer(_ json: [String: Any], _ key: String) -> Int? {
        (json[key] as? String).flatMap { Int($0) }
    }
}
