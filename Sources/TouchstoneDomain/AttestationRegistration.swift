import TouchstoneProtocol
import TouchstoneStorage

/// The builds an administrator allows to attest enrolments of an app, checked before they are stored.
package struct AttestationRegistration: Sendable, Equatable {
    /// Each `PACKAGE:SHA256` of `--android-app`.
    package var androidApps: [String]
    /// Each `TEAMID.bundle.id` of `--apple-app-id`.
    package var appleAppIDs: [String]
    /// `--apple-development`.
    package var appleDevelopment: Bool

    package init(androidApps: [String] = [], appleAppIDs: [String] = [], appleDevelopment: Bool = false) {
        self.androidApps = androidApps
        self.appleAppIDs = appleAppIDs
        self.appleDevelopment = appleDevelopment
    }

    /// The record to store with the app whose policy says `requirement`.
    /// - Throws: ``ConfigurationError`` for an Android pair that is not a package name, a colon and a SHA-256 in 64
    ///   lowercase hexadecimal digits; an App ID that is not a ten-character team ID, a dot and a bundle ID;
    ///   `--apple-development` without an App ID; or a required attestation that no build could make.
    package func record(requirement: AttestationRequirement) throws -> AttestedApps {
        let android = try androidApps.map(Self.androidApp)
        for appID in appleAppIDs where !Self.isAppID(appID) {
            throw ConfigurationError("--apple-app-id \(appID) is not TEAMID.bundle.id (a ten-character team ID first)")
        }
        if appleDevelopment, appleAppIDs.isEmpty {
            throw ConfigurationError("--apple-development goes with --apple-app-id")
        }
        if requirement == .required, android.isEmpty, appleAppIDs.isEmpty {
            throw ConfigurationError("--attestation required needs an --android-app or an --apple-app-id")
        }
        return AttestedApps(android: android, appleAppIds: appleAppIDs, appleDevelopment: appleDevelopment)
    }

    /// `PACKAGE:SHA256`, the package a Java-style name (dot-separated identifiers).
    private static func androidApp(_ text: String) throws -> AttestedAndroidApp {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, isPackageName(parts[0]) else {
            throw ConfigurationError("--android-app \(text) is not PACKAGE:SHA256, e.g. com.example.app:<64 hex digits>")
        }
        let digest = String(parts[1])
        guard digest.utf8.count == 64, HexDigits.bytes(digest) != nil else {
            throw ConfigurationError(
                "--android-app \(text): the signing certificate's SHA-256 must be 64 lowercase hexadecimal digits")
        }
        return AttestedAndroidApp(packageName: String(parts[0]), signingCertificateSHA256: digest)
    }

    private static func isPackageName(_ name: Substring) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 255 && segments.allSatisfy { segment in
            guard let first = segment.unicodeScalars.first, first.isASCIILetter else { return false }
            return segment.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
        }
    }

    /// `TEAMID.bundle.id`: ten uppercase letters or digits, a dot, then a bundle ID (letters, digits, `-` and `.`).
    private static func isAppID(_ appID: String) -> Bool {
        let scalars = Array(appID.unicodeScalars)
        guard scalars.count > 11, scalars.count <= 255, scalars[10] == "." else { return false }
        let team = scalars[..<10], bundle = scalars[11...]
        return team.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && bundle.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
            && bundle.first != "." && bundle.last != "."
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
