import ArgumentParser

/// `touchstone device`: this machine acting as a user's device, one subcommand per action (a file each).
struct Device: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Act as a device on this machine: register, log in, opt out, deregister.",
        subcommands: [
            Register.self, Login.self, Unlock.self, StepUp.self, SetPIN.self, Inbox.self, Approve.self, Deny.self,
            Dismiss.self, Push.self, RecoveryCodes.self, Sessions.self, EndSession.self, OptOut.self, Deregister.self,
            Reset.self, Status.self,
        ])

    @OptionGroup var options: DeviceOptionValues
}
