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
        router.get("healthz") { _, _ in try Response.json(["status": "ok"]) }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(string: openAPI)))
        }
        router.get(".well-known/jwks.json") { _, _ in
            var response = try Response.json(try await environment.signer.jwks())
            response.headers[.cacheControl] = "max-age=300"
            return response
        }

        let v1 = router.group("v1")
        v1.get("apps/:clientId/policy") { _, context in
            try Response.json(try await environment.app(try context.parameters.require("clientId")).policy)
        }
        v1.post("accounts") { request, context in
            var request = request
            let body = try await request.decodeBody(CreateAccountRequest.self, context: context)
            let created = try await AccountService(environment: environment).create(
                body, ip: address.of(request, context: context))
            return try Response.json(created, status: .created)
        }
        v1.post("enrollments") { request, context in
            var request = request
            let body = try await request.decodeBody(PasswordLoginRequest.self, context: context)
            let started = try await EnrollmentService(environment: environment).start(
                body, ip: address.of(request, context: context))
            return try Response.json(started, status: .created, noStore: true)
        }
        v1.post("enrollments/:id/complete") { request, context in
            var request = request
            let body = try await request.decodeBody(EnrollmentCompletion.self, context: context)
            let outcome = try await EnrollmentService(environment: environment).complete(
                id: try context.parameters.require("id"), body, ip: address.of(request, context: context))
            switch outcome {
            case .completed(let completed): return try Response.json(completed, status: .created, noStore: true)
            case .pending(let pending): return try Response.json(pending, status: .accepted, noStore: true)
            }
        }
        v1.get("enrollments/:id") { request, context in
            let poll = try await EnrollmentService(environment: environment).poll(
                id: try context.parameters.require("id"), pollSecret: request.headers[.pollSecret])
            return try Response.json(poll, noStore: true)
        }
        v1.post("sessions/password") { request, context in
            var request = request
            let body = try await request.decodeBody(PasswordLoginRequest.self, context: context)
            let session = try await AccountService(environment: environment).passwordSession(
                body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        v1.post("challenges") { request, context in
            var request = request
            let body = try await request.decodeBody(ChallengeRequest.self, context: context)
            let challenge = try await LoginService(environment: environment).challenge(
                body, ip: address.of(request, context: context))
            return try Response.json(challenge, status: .created, noStore: true)
        }
        v1.post("sessions") { request, context in
            var request = request
            let body = try await request.decodeBody(AssertionLoginRequest.self, context: context)
            let session = try await LoginService(environment: environment).login(
                body, ip: address.of(request, context: context))
            return try Response.json(session, status: .created, noStore: true)
        }
        v1.post("sessions/refresh") { request, context in
            var request = request
            let body = try await request.decodeBody(RefreshRequest.self, context: context)
            let session = try await sessions.refresh(
                refreshToken: body.refreshToken, deviceProof: request.authorization(scheme: "TouchstoneDevice"),
                ip: address.of(request, context: context))
            return try Response.json(session, noStore: true)
        }
        v1.delete("sessions/current") { request, _ in
            try await sessions.end(try await identity(of: request))
            return Response(status: .noContent)
        }
        v1.get("devices") { request, _ in
            let list = try await DeviceService(environment: environment).list(try await identity(of: request))
            return try Response.json(list, noStore: true)
        }
        v1.delete("devices/:id") { request, context in
            try await DeviceService(environment: environment).delete(
                try context.parameters.require("id"), by: try await identity(of: request),
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        v1.delete("devices/:id/biometric-key") { request, context in
            try await DeviceService(environment: environment).optOut(
                try context.parameters.require("id"), by: try await identity(of: request),
                ip: address.of(request, context: context))
            return Response(status: .noContent)
        }
        v1.post("introspect") { request, context in
            let introspection = IntrospectionService(environment: environment)
            guard let key = request.authorization(scheme: "ApiKey") else {
                throw ProblemError(401, .unauthorized, "A valid API key is required.")
            }
            let caller = try await introspection.app(forAPIKey: key)
            var request = request
            let body = try await request.decodeBody(IntrospectionRequest.self, context: context)
            return try Response.json(try await introspection.introspect(body.token, for: caller), noStore: true)
        }
    }

    private func identity(of request: Request) async throws -> AccessIdentity {
        guard let token = request.authorization(scheme: "Bearer") else { throw ProblemError.unauthorized }
        return try await sessions.authenticate(bearer: token)
    }
}
