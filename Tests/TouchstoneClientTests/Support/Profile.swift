import Foundation
import Testing
import TouchstoneClient

/// A device profile: the directory `Platform.software(directory:)` keeps keys, registration and sessions in.
struct Profile: Sendable {
    let directory: URL

    /// The profile's key store, read directly (as a second app sharing it would).
    var keyStore: SoftwareKeyStore { SoftwareKeyStore(directory: directory) }

    /// The names of the files in the profile; empty when it does not exist yet.
    var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The files of the profile that hold a registration or a session (the vendor id is kept across
    /// registrations, so that the device's fingerprint stays the same).
    var credentialFiles: [String] {
        files.filter { $0 != "vendor-id" }
    }

    /// The bytes of a file of the profile.
    func contents(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appending(path: name))
    }

    /// The permission bits of the profile's directory, or of one of its files.
    func mode(_ name: String? = nil) throws -> Int {
        let path = name.map { directory.appending(path: $0).path } ?? directory.path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    /// Every file of the profile with its bytes: to show that a refused flow changed nothing.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in self.files {
            files[name] = try contents(name)
        }
        return files
    }
}
