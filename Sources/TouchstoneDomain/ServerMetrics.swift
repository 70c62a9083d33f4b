import Metrics

/// What the services count for the operator (PROTOCOL "Operations"): logins and enrolments by outcome, PIN lockouts,
/// requests refused for want of a hashing slot, and the devices waiting in a long poll. The HTTP layer counts requests;
/// the store times its transactions.
package struct ServerMetrics: Sendable {
    /// How a user signed in, the `method` of `touchstone_logins_total`.
    package enum LoginMethod: String, Sendable {
        case bio, pin, passkey, password, web, oidc
    }

    /// Where every metric of the server goes; the HTTP layer and the store make theirs here too.
    package let factory: any MetricsFactory
    /// `touchstone_inbox_waiters`: long polls of device inboxes waiting now.
    let inboxWaiters: Meter
    private let pinLockouts: Counter
    private let hashingRefusals: Counter

    package init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        self.factory = factory
        inboxWaiters = Meter(label: "touchstone_inbox_waiters", factory: factory)
        pinLockouts = Counter(label: "touchstone_pin_lockouts_total", factory: factory)
        hashingRefusals = Counter(label: "touchstone_hashing_refusals_total", factory: factory)
    }

    /// Counts one login: `success`, `denied` (the user said no on their device), or the problem code that refused it.
    func login(_ method: LoginMethod, outcome: String) {
        Counter(label: "touchstone_logins_total", dimensions: [("method", method.rawValue), ("outcome", outcome)], factory: factory)
            .increment()
    }

    /// Runs `attempt` and counts it as a login by `method`: a success when it returns, the refusal's code when it throws.
    func countingLogin<T>(_ method: LoginMethod, _ attempt: () async throws -> T) async throws -> T {
        do {
            let result = try await attempt()
            login(method, outcome: "success")
            return result
        } catch {
            login(method, outcome: Self.outcome(of: error))
            throw error
        }
    }

    /// Runs `step` of a login that is counted elsewhere when it succeeds: counts only its refusal.
    func countingRefusal<T>(_ method: LoginMethod, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch {
            login(method, outcome: Self.outcome(of: error))
            throw error
        }
    }

    /// Runs an enrolment's completion and counts it: `success`, `approval_pending`, or the problem code that refused it.
    func countingEnrollment(_ completion: () async throws -> EnrollmentService.Outcome) async throws
        -> EnrollmentService.Outcome
    {
        do {
            let outcome = try await completion()
            switch outcome {
            case .completed: enrollment(outcome: "success")
            case .pending: enrollment(outcome: "approval_pending")
            }
            return outcome
        } catch {
            enrollment(outcome: Self.outcome(of: error))
            throw error
        }
    }

    /// Counts one enrolment: `success` (also when another device approves a pending one), `approval_pending`,
    /// `denied` (another device said no), or the problem code that refused it.
    func enrollment(outcome: String) {
        Counter(label: "touchstone_enrollments_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// Counts a PIN that a wrong attempt has just locked.
    func pinLockout() {
        pinLockouts.increment()
    }

    /// Counts a request refused because every hashing slot was taken (``HashingGate``).
    func hashingRefusal() {
        hashingRefusals.increment()
    }

    /// The label of a refusal: its problem code, or its OAuth error code; `error` for anything else.
    static func outcome(of error: any Error) -> String {
        switch error {
        case let problem as ProblemError: problem.code.rawValue
        case let oauth as OAuthError: oauth.code.rawValue
        default: "error"
        }
    }
}
