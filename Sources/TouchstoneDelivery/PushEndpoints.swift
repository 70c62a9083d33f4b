import Foundation
import NIOSSL

/// Where pushes go: Apple's and Google's hosts, or, for tests only, a stand-in and the certificate authority it is
/// signed by.
package struct PushEndpoints: Sendable {
    /// APNs for `production` registrations, as an origin (`https://host[:port]`).
    package let apnsProduction: String
    /// APNs for `development` registrations.
    package let apnsDevelopment: String
    /// FCM HTTP v1.
    package let fcm: String
    /// Certificates trusted beside the system's roots, for the push hosts and every service account's `token_uri`.
    package let additionalTrustRoots: [NIOSSLCertificate]

    /// Apple's and Google's hosts, trusted through the system's roots only.
    package static let live = PushEndpoints(
        apnsProduction: "https://api.push.apple.com", apnsDevelopment: "https://api.sandbox.push.apple.com",
        fcm: "https://fcm.googleapis.com", additionalTrustRoots: [])

    init(apnsProduction: String, apnsDevelopment: String, fcm: String, additionalTrustRoots: [NIOSSLCertificate]) {
        self.apnsProduction = apnsProduction
        self.apnsDevelopment = apnsDevelopment
        self.fcm = fcm
        self.additionalTrustRoots = additionalTrustRoots
    }

    /// The live endpoints with the test overrides of `serve` (`nil`: that part stays live).
    /// - Parameters:
    ///   - insecureAPNsURL: `--insecure-apns-url`: an `https` origin used in place of both APNs hosts.
    ///   - insecureFCMURL: `--insecure-fcm-url`: an `https` origin used in place of `https://fcm.googleapis.com`.
    ///   - insecureTrustRootsPEM: `--insecure-push-ca`'s PEM text: its certificates are trusted beside the system's
    ///     roots, for the push hosts and the service accounts' `token_uri`.
    /// - Throws: ``PushConfigurationError`` for a URL that is not an `https` origin, or PEM text without a certificate.
    /// - ⚠️ For tests only: a trusted root of one's own lets its holder read every push and OAuth assertion.
    package init(insecureAPNsURL: String? = nil, insecureFCMURL: String? = nil, insecureTrustRootsPEM: String? = nil) throws {
        let live = Self.live
        let apns = try insecureAPNsURL.map { try Self.origin($0, option: "--insecure-apns-url") }
        self.init(
            apnsProduction: apns ?? live.apnsProduction, apnsDevelopment: apns ?? live.apnsDevelopment,
            fcm: try insecureFCMURL.map { try Self.origin($0, option: "--insecure-fcm-url") } ?? live.fcm,
            additionalTrustRoots: try insecureTrustRootsPEM.map(Self.certificates) ?? [])
    }

    /// `https://host[:port]` from a URL with no path (or `/`), query, fragment or user.
    private static func origin(_ text: String, option: String) throws -> String {
        guard let url = URLComponents(string: text), url.scheme?.lowercased() == "https", let host = url.host,
            !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw PushConfigurationError(description: "\(option) must be an https URL without a path, such as https://127.0.0.1:8443")
        }
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "https://\(name)" + (url.port.map { ":\($0)" } ?? "")
    }

    private static func certificates(_ pem: String) throws -> [NIOSSLCertificate] {
        let certificates = (try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))) ?? []
        guard !certificates.isEmpty else {
            throw PushConfigurationError(description: "--insecure-push-ca must hold PEM certificates")
        }
        return certificates
    }
}

/// A push setting that cannot be used; says which and what to change.
package struct PushConfigurationError: Error, CustomStringConvertible {
    package let description: String
}
