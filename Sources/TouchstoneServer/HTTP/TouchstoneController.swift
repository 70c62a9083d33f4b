import Foundation
import HTTPTypes
import Hummingbird
import TouchstoneProtocol

/// The v1 protocol's routes: each one decodes, calls a domain service, and encodes.
struct TouchstoneController: Sendable {
    let environment: ServiceEnvironment
    let openAPI: String

    private var address: ClientAddress { ClientAddress(trustedProxies: environment.settings.trustedProxies) }
    private var sessions: SessionService { SessionService(environment: environment) }

    func addRoutes(to router: Router<TouchstoneRequestContext>) {
        router.on(.health) { _, _ in try Response.json(["status": "ok"]) }
        router.on(.openAPI) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(string: openAPI)))
        }
        router.on(.jwks) { _, _ in
            var response = try Response.json(try await environment.signer.jwks())
            response.headers[.cacheControl] = "max-age=300"
            return response
        }

        router.on(.policy) { _, context in
            try Response.json(try await environment.app(try context.parameters.require("clientId")).policy)
        }
        router.on(.createAccount) { request, context in
            var request = request
            let body = try await request.decodeBody(CreateAccountRequest.self, context: context)
            let created = try await AccountService(environment: environment).create(
                body, ip: address.of(request, context: context))
            return try Response.json(created, status: .created)
        }
        router.on(.startEnrollment) { request, context in
            var request = request
            let body = try await request.decodeBody(PasswordLoginRequest.self, context: context)
            let started = try await EnrollmentService(environment: environment).start(
                body, ip: address.of(request, context: context))
            return try Response.json(started, status: .created, noStore: true)
        }
        router.on(.completeEnrollment) { request, context in
            var request = request
            let body = try await request.decodeBody(EnrollmentCompletion.self, context: context)
            let outcome = try await EnrollmentService(environment: environment).complete(
                id: try context.parameters.require("enrollmentId"), body, ip: address.of(request, context: context))
            switch outcome {
            case .completed(let completed): return try Response.json(completed, status: .created, noStore: true)
            case .pending(let pending): return try Response.json(pending, status: .accepted, noStore: true)
            }
        }
        router.on(.pollEnrollment) { request, context in
            let poll = try await EnrollmentService(environment: environment).poll(
                id: try context.parameters.require("enrollmentId"), pollSecret: request.headers[.pollSecret])
            return try Response.json(poll, noStore: true)
        }
        router.on(.passwordSession) { request, context in
            var request = request
            let body = try await request.decodeBody(PasswordLoginRequest.self, context: context)
            let session = try await AccountService(environment: environment).passwordSession(
                body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        router.on(.challenge) { request, context in
            var request = request
            let body = try await request.decodeBody(ChallengeRequest.self, context: context)
            let challenge = try await LoginService(environment: environment).challenge(
                body, ip: address.of(request, context: context))
            return try Response.json(challenge, status: .created, noStore: true)
        }
        router.on(.login) { request, context in
            var request = request
            let body = try await request.decodeBody(AssertionLoginRequest.self, context: context)
            let session = try await LoginService(environment: environment).login(
                body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        router.on(.refresh) { request, context in
            var request = request
            let body = try await request.decodeBody(RefreshRequest.self, context: context)
            let session = try await sessions.refresh(
                refreshToken: body.refreshToken, deviceProof: request.authorization(scheme: "TouchstoneDevice"),
                ip: address.of(request, context: context))
            return try Response.json(session, noStore: true)
        }
        router.on(.logout) { request, _ in
            try await sessions.end(try await identity(of: request))
            return Response(status: .noContent)
        }
        router.on(.account) { request, _ in
            try Response.json(
                try await AccountService(environment: environment).profile(try await identity(of: request)), noStore: true)
        }
        router.on(.devices) { request, _ in
            let list = try await DeviceService(environment: environment).list(try await identity(of: request))
            return try Response.json(list, noStore: true)
        }
        router.on(.removeDevice) { request, context in
            try await DeviceService(environment: environment).delete(
                try context.parameters.require("deviceId"), by: try await identity(of: request),
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        router.on(.optOut) { request, context in
            try await DeviceService(environment: environment).optOut(
                try context.parameters.require("deviceId"), by: try await identity(of: request),
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        router.on(.stepUp) { request, context in
            let identity = try await identity(of: request)
            var request = request
            let body = try await request.decodeBody(PasswordRequest.self, context: context)
            let token = try await StepUpService(environment: environment).stepUp(
                identity, password: body.password, ip: address.of(request, context: context))
            return try Response.json(token, noStore: true)
        }
        router.on(.setPIN) { request, context in
            let identity = try await identity(of: request)
            var request = request
            let body = try await request.decodeBody(PINRequest.self, context: context)
            try await StepUpService(environment: environment).setPIN(
                body.pin, deviceId: try context.parameters.require("deviceId"), by: identity,
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        router.on(.setPassword) { request, context in
            let identity = try await identity(of: request)
            var request = request
            let body = try await request.decodeBody(PasswordRequest.self, context: context)
            try await StepUpService(environment: environment).setPassword(
                body.password, by: identity, ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        router.on(.inbox) { request, context in
            let wait = try request.uri.queryParameters.get("waitSeconds").map { text in
                guard let seconds = Int(text), (0...InboxService.longestWait).contains(seconds) else {
                    throw ProblemError.invalidRequest("waitSeconds must be 0 to \(InboxService.longestWait)")
                }
                return seconds
            }
            let inbox = try await InboxService(environment: environment).inbox(
                deviceId: try context.parameters.require("deviceId"),
                authorization: request.authorization(scheme: "TouchstoneDevice"), waitSeconds: wait ?? 0)
            return try Response.json(inbox, noStore: true)
        }
        router.on(.decideEnrollment) { request, context in
            var request = request
            let body = try await request.decodeBody(DecisionRequest.self, context: context)
            return try Response.json(
                try await EnrollmentService(environment: environment).decide(
                    try context.parameters.require("enrollmentId"), assertion: body.assertion,
                    ip: address.of(request, context: context)))
        }
        router.on(.createConfirmation) { request, context in
            let app = try await apiKeyApp(of: request)
            var request = request
            let body = try await request.decodeBody(ConfirmationRequest.self, context: context)
            let created = try await ConfirmationService(environment: environment).create(
                body, by: app, ip: address.of(request, context: context))
            return try Response.json(created, status: .created, noStore: true)
        }
        router.on(.confirmation) { request, context in
            let app = try await apiKeyApp(of: request)
            let state = try await ConfirmationService(environment: environment).state(
                try context.parameters.require("confirmationId"), for: app)
            return try Response.json(state, noStore: true)
        }
        router.on(.decideConfirmation) { request, context in
            var request = request
            let body = try await request.decodeBody(DecisionRequest.self, context: context)
            return try Response.json(
                try await ConfirmationService(environment: environment).decide(
                    try context.parameters.require("confirmationId"), assertion: body.assertion,
                    ip: address.of(request, context: context)))
        }
        router.on(.startWebLogin) { request, context in
            var request = request
            let body = try await request.decodeBody(WebLoginRequest.self, context: context)
            let started = try await WebLoginService(environment: environment).start(
                body, browser: request.headers[.userAgent] ?? "unknown browser",
                ip: address.of(request, context: context))
            return try Response.json(started, status: .created, noStore: true)
        }
        router.on(.pollWebLogin) { request, context in
            let poll = try await WebLoginService(environment: environment).poll(
                try context.parameters.require("webLoginId"), pollSecret: request.headers[.pollSecret])
            return try Response.json(poll, noStore: true)
        }
        router.on(.decideWebLogin) { request, context in
            var request = request
            let body = try await request.decodeBody(DecisionRequest.self, context: context)
            return try Response.json(
                try await WebLoginService(environment: environment).decide(
                    try context.parameters.require("webLoginId"), assertion: body.assertion,
                    ip: address.of(request, context: context)))
        }
        router.on(.introspect) { request, context in
            let introspection = IntrospectionService(environment: environment)
            let caller = try await apiKeyApp(of: request)
            var request = request
            let body = try await request.decodeBody(IntrospectionRequest.self, context: context)
            return try Response.json(try await introspection.introspect(body.token, for: caller), noStore: true)
        }
    }

    /// The app of the request's `Authorization: ApiKey`, or 401.
    private func apiKeyApp(of request: Request) async throws -> AppRecord {
        guard let key = request.authorization(scheme: "ApiKey") else {
            throw ProblemError(401, .unauthorized, "A valid API key is required.")
        }
        return try await environment.app(forAPIKey: key)
    }

    private func identity(of request: Request) async throws -> AccessIdentity {
        try await request.accessIdentity(environment)
    }
}
