/// The domain's services over one environment, built once at start-up and shared by every request.
package struct Services: Sendable {
    package let environment: ServiceEnvironment
    package let accounts: AccountService
    package let enrollments: EnrollmentService
    package let logins: LoginService
    package let sessions: SessionService
    package let devices: DeviceService
    package let stepUp: StepUpService
    package let inbox: InboxService
    package let confirmations: ConfirmationService
    package let webLogins: WebLoginService
    package let introspection: IntrospectionService
    package let passkeys: PasskeyService
    package let legacy: LegacyService
    package let provider: ProviderService
    package let tokenEndpoint: TokenEndpointService
    package let recovery: RecoveryService

    package init(environment: ServiceEnvironment) {
        self.environment = environment
        accounts = AccountService(environment: environment)
        enrollments = EnrollmentService(environment: environment)
        logins = LoginService(environment: environment)
        sessions = SessionService(environment: environment)
        devices = DeviceService(environment: environment)
        stepUp = StepUpService(environment: environment)
        inbox = InboxService(environment: environment)
        confirmations = ConfirmationService(environment: environment)
        webLogins = WebLoginService(environment: environment)
        introspection = IntrospectionService(environment: environment)
        passkeys = PasskeyService(environment: environment)
        legacy = LegacyService(environment: environment)
        provider = ProviderService(environment: environment)
        tokenEndpoint = TokenEndpointService(environment: environment)
        recovery = RecoveryService(environment: environment)
    }
}
