import ArgumentParser

/// Options of subcommands that verify the user.
struct VerifierOptions: ParsableArguments {
    @Option(
        help: """
            match, nomatch, cancel, fallback or lockout (scripted, for tests and demos), or fprintd. \
            Default: fprintd where installed; otherwise biometrics are unavailable and the PIN is used.
            """)
    var verifier: VerifierChoice?
}
