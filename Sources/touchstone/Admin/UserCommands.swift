import ArgumentParser
import Foundation
import TouchstoneDomain
import TouchstoneProtocol
import TouchstoneStorage

struct Users: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List users.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let users = try await withAdmin(database) { try await $0.users.allUsers() }
        if output.json {
            try printJSON(["users": users])
            return
        }
        for user in users {
            print("\(user.userId)  \(user.username)  created \(user.createdAt.rfc3339)")
        }
    }
}

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List devices, of one user or of all.")
    @Option(help: "Only this user's devices.") var user: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let devices = try await withAdmin(database) { try await $0.users.devices(username: user) }
        if output.json {
            try printJSON(["devices": devices])
            return
        }
        for device in devices {
            let state = device.revokedAt.map { "revoked \($0.rfc3339)" } ?? (device.pinLocked ? "PIN locked" : "active")
            print(
                "\(device.deviceId)  \(device.username)  \(device.name) (\(device.model))  \(device.clientId)  biometric=\(device.biometric)  attestation=\(device.attestation?.rawValue ?? "none")  \(state)"
            )
        }
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Act on one user.", subcommands: [Reset.self])

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: """
                Reset a user after checking their identity out of band: revoke every device and passkey, end every \
                session and unfinished enrolment, spend every recovery code. The password then enrols a new device.
                """)
        @Argument(help: "The user's username.") var username: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await withAdmin(database) { try await $0.users.reset(username: username, by: .commandLine) }
            print("user \(username) reset: every device, passkey, session and recovery code is gone; the password enrols a new device")
        }
    }
}

struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Revoke a device and end its sessions.")
    @Argument(help: "The device id.") var deviceId: String
    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        try await withAdmin(database) { try await $0.users.revokeDevice(deviceId, by: .commandLine) }
        print("device \(deviceId) revoked")
    }
}
