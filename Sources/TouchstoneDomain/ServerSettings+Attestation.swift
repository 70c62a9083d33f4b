import Foundation
import TouchstoneAttestation
import TouchstoneStorage

extension ServerSettings {
    /// Reads the attestation status list and the extra attestation roots from their files.
    /// - Parameters:
    ///   - statusFile: Google's attestation status list as JSON (`--android-attestation-status`); `nil` for none.
    ///   - insecureRootFiles: PEM files of one certificate each, trusted for both attestation formats
    ///     (`--insecure-attestation-root`).
    /// - Throws: ``ConfigurationError`` naming the file that cannot be read, is not a status list, or is not one PEM
    ///   certificate.
    /// - ⚠️ Every extra root can vouch for any key: give them for tests and private CAs only.
    public mutating func loadAttestation(statusFile: String?, insecureRootFiles: [String]) throws {
        if let statusFile {
            let json = try Self.contents(of: statusFile)
            do {
                androidAttestationStatus = try AttestationStatusList(json: json)
            } catch {
                let reason = (error as? AttestationStatusListError)?.detail ?? "\(error)"
                throw ConfigurationError(
                    "--android-attestation-status \(statusFile) is not Google's attestation status list: \(reason)")
            }
        }
        var texts: [String] = []
        for file in insecureRootFiles {
            texts.append(String(decoding: try Self.contents(of: file), as: UTF8.self))
        }
        do {
            attestationTrustAnchors = try AttestationTrustAnchors(insecureAdditionalRootsPEM: texts)
        } catch {
            throw ConfigurationError("--insecure-attestation-root: \(error.detail) (files in order: "
                + insecureRootFiles.joined(separator: ", ") + ")")
        }
    }

    private static func contents(of file: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ConfigurationError("cannot read \(file): \(error.localizedDescription)")
        }
    }
}
