import Hummingbird
import TouchstoneDomain
import TouchstoneProtocol

/// Enrolment of a device: started with the password, completed with the device's proofs, approved by another
/// device when the account has one.
struct EnrollmentController {
    let enrollments: EnrollmentService

    var routes: RouteCollection<TouchstoneRequestContext> {
        let routes = RouteCollection(context: TouchstoneRequestContext.self)
        routes.on(.startEnrollment, use: start)
        routes.on(.completeEnrollment, use: complete)
        routes.on(.pollEnrollment, use: poll)
        routes.on(.decideEnrollment, use: decide)
        return routes
    }

    @Sendable func start(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(EnrollmentStartRequest.self, context: context)
        let started = try await enrollments.start(body, ip: context.clientAddress)
        return try Response.json(started, status: .created, noStore: true)
    }

    @Sendable func complete(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(EnrollmentCompletion.self, context: context)
        let outcome = try await enrollments.complete(
            id: try context.parameters.require("enrollmentId"), body, ip: context.clientAddress)
        switch outcome {
        case .completed(let completed): return try Response.json(completed, status: .created, noStore: true)
        case .pending(let pending): return try Response.json(pending, status: .accepted, noStore: true)
        }
    }

    @Sendable func poll(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let poll = try await enrollments.poll(
            id: try context.parameters.require("enrollmentId"), pollSecret: request.headers[.pollSecret],
            ip: context.clientAddress)
        return try Response.json(poll, noStore: true)
    }

    @Sendable func decide(_ request: Request, context: TouchstoneRequestContext) async throws -> Response {
        let body = try await request.decodeBody(DecisionRequest.self, context: context)
        return try Response.json(
            try await enrollments.decide(
                try context.parameters.require("enrollmentId"), assertion: body.assertion, ip: context.clientAddress))
    }
}
