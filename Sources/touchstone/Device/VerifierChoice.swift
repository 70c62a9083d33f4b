import ArgumentParser
import TouchstoneClient

/// `--verifier`: how the user is verified.
enum VerifierChoice: String, ExpressibleByArgument, CaseIterable {
    case match, nomatch, cancel, fallback, lockout, fprintd

    func verifier() -> any UserVerifier {
        switch self {
        case .fprintd: FprintdVerifier() ?? NoBiometrics()
        default: ScriptedVerifier(ScriptedVerifier.Outcome(rawValue: rawValue) ?? .match)
        }
    }
}
