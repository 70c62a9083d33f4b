import TouchstoneCrypto
import TouchstoneProtocol

/// The domain's services, each built once at start-up from one environment and shared by every request. This is where
/// they are wired: every service is given the store protocols and the collaborators it uses, and none builds another.
package struct Services: Sendable {
    package let environment: ServiceEnvironment
    package let accounts: AccountService
    package let enrollments: EnrollmentService
    package let logins: LoginService
    package let sessions: SessionService
    package let devices: DeviceService
    package let stepUp: StepUpService
    package let inbox: InboxService
    package let push: PushService
    package let confirmations: ConfirmationService
    package let webLogins: WebLoginService
    package let ciba: CIBAService
    package let introspection: IntrospectionService
    package let passkeys: PasskeyService
    package let legacy: LegacyService
    package let provider: ProviderService
    package let tokenEndpoint: TokenEndpointService
    package let recovery: RecoveryService
    /// Where security events are delivered (the admin API's webhooks).
    package let webhooks: WebhookService
    /// The administrators' operations (the admin API's and `touchstone admin`'s).
    package let admin: AdminServices
    /// Makes sessions and signs their access tokens, for every service that opens one.
    package let sessionIssuer: SessionIssuer

    package init(environment: ServiceEnvironment) {
        self.environment = environment
        let (store, clock, random, settings) = (environment.store, environment.clock, environment.random, environment.settings)
        let (hasher, signer, logger, metrics) = (environment.hasher, environment.signer, environment.logger, environment.metrics)

        // The collaborators the services share.
        let auditor = Auditor(store: store, clock: clock, logger: logger)
        let sessionIssuer = SessionIssuer(clock: clock, random: random, signer: signer, settings: settings)
        let accessTokens = AccessTokenCheck(signer: signer, sessions: store)
        let gate = DeviceTokenGate(
            store: store, clock: clock, rules: DeviceTokenRules(audience: settings.issuer), logger: logger)
        let pipeline = DeviceAssertionPipeline(
            gate: gate, pins: PINCheck(apps: store, hasher: hasher, metrics: metrics))
        let throttle = PasswordThrottle(store: store, clock: clock)
        let passwords = PasswordCheck(users: store, hasher: hasher, throttle: throttle, auditor: auditor)
        let decisions = DecisionService(store: store, clock: clock, hasher: hasher, pipeline: pipeline, gate: gate)
        let clients = ProviderClients(store: store, clock: clock, issuer: settings.issuer)
        self.sessionIssuer = sessionIssuer

        accounts = AccountService(
            store: store, clock: clock, random: random, selfSignup: settings.selfSignup, hasher: hasher,
            metrics: metrics, auditor: auditor, passwords: passwords, sessionIssuer: sessionIssuer)
        enrollments = EnrollmentService(
            store: store, clock: clock, random: random, challengeLifetime: settings.challengeLifetime,
            pendingEnrollmentLifetime: settings.pendingEnrollmentLifetime, hasher: hasher, metrics: metrics,
            auditor: auditor, throttle: throttle, passwords: passwords, gate: gate,
            attestations: KeyAttestationCheck(settings: settings, clock: clock, logger: logger), decisions: decisions,
            sessionIssuer: sessionIssuer)
        logins = LoginService(
            store: store, clock: clock, random: random, challengeLifetime: settings.challengeLifetime, hasher: hasher,
            metrics: metrics, auditor: auditor, pipeline: pipeline, sessionIssuer: sessionIssuer)
        sessions = SessionService(
            store: store, clock: clock, accountClientId: settings.accountClientId, auditor: auditor,
            proofs: DeviceProofCheck(devices: store, gate: gate, issuer: settings.issuer),
            accessTokens: accessTokens, sessionIssuer: sessionIssuer)
        let revocation = DeviceRevocation(store: store, clock: clock)
        devices = DeviceService(store: store, auditor: auditor, revocation: revocation)
        stepUp = StepUpService(
            store: store, clock: clock, hasher: hasher, auditor: auditor, passwords: passwords,
            sessionIssuer: sessionIssuer)
        inbox = InboxService(store: store, clock: clock, metrics: metrics, shutdown: environment.shutdown)
        push = PushService(store: store, clock: clock)
        confirmations = ConfirmationService(
            store: store, clock: clock, random: random, signer: signer, issuer: settings.issuer, auditor: auditor,
            decisions: decisions)
        webLogins = WebLoginService(
            store: store, clock: clock, random: random, metrics: metrics, auditor: auditor, decisions: decisions,
            sessionIssuer: sessionIssuer)
        ciba = CIBAService(
            store: store, clock: clock, random: random, signer: signer, auditor: auditor, clients: clients,
            decisions: decisions)
        introspection = IntrospectionService(store: store, accessTokens: accessTokens)
        passkeys = PasskeyService(
            store: store, clock: clock, random: random, relyingParty: settings.relyingParty, metrics: metrics,
            auditor: auditor, logger: logger, sessionIssuer: sessionIssuer)
        legacy = LegacyService(
            store: store, clock: clock, allowsRSA1024: settings.insecureAllowRSA1024, auditor: auditor,
            passwords: passwords, gate: gate, sessionIssuer: sessionIssuer)
        provider = ProviderService(
            store: store, clock: clock, random: random, issuer: settings.issuer,
            accountClientId: settings.accountClientId, signer: signer, auditor: auditor, clients: clients)
        tokenEndpoint = TokenEndpointService(
            store: store, clock: clock, random: random, issuer: settings.issuer,
            accessTokenLifetime: settings.accessTokenLifetime, signer: signer, metrics: metrics, auditor: auditor,
            clients: clients, accessTokens: accessTokens, sessionIssuer: sessionIssuer)
        recovery = RecoveryService(store: store, clock: clock, random: random, auditor: auditor)
        webhooks = WebhookService(
            store: store, clock: clock, random: random, resolver: SystemHostResolver(),
            audit: AdminAudit(store: store, clock: clock))
        admin = AdminServices(store: store, clock: clock, random: random)
    }
}
