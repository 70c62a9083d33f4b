import Foundation
import TouchstoneCrypto
import TouchstoneProtocol
import TouchstoneStorage

extension TokenEndpointService {
    /// The CIBA grant (`urn:openid:params:grant-type:ciba`, CIBA Core §10-11): the tokens once the user's device
    /// approved, for the client that asked, once.
    /// - Throws: `invalid_grant` for an unknown `auth_req_id`, another client's, or one already exchanged (whatever the
    ///   timing); `access_denied` after a denial; `expired_token` after expiry; while undecided `slow_down` for a poll
    ///   sooner than the request's interval after the previous one (the interval then grows by 5 s for good), else
    ///   `authorization_pending`; `unauthorized_client` for a client without a CIBA mode.
    /// - Parameter jkt: the thumbprint of the request's DPoP key, which the access token is then bound to.
    func exchangeBackchannel(_ parameters: OAuthParameters, client: OIDCClientRecord, jkt: String?, ip: String?)
        async throws -> OAuthTokenResponse
    {
        guard try await store.cibaClient(clientId: client.clientId) != nil else {
            throw OAuthError(.unauthorizedClient, "the client is not registered for CIBA")
        }
        let authRequestId = try parameters.required("auth_req_id")
        guard let request = try await store.cibaRequest(authRequestHash: SecretDigest.sha256(authRequestId)),
            request.clientId == client.clientId, !request.exchanged
        else { throw OAuthError.invalidGrant("auth_req_id is unknown, another client's, or was already exchanged") }
        let now = clock.now()
        switch request.status {
        case .approved:
            return try await exchangeApproved(request, client: client, jkt: jkt, ip: ip)
        case .denied:
            throw OAuthError(.accessDenied, "the user denied the request")
        case .pending, .suppressed:
            guard request.expiresAt > now else { throw OAuthError(.expiredToken, "the request has expired") }
            if try await store.pollCIBARequest(id: request.id, at: now) {
                throw OAuthError(.slowDown, "poll less often: the interval grew by 5 seconds")
            }
            throw OAuthError(.authorizationPending, "the user has not decided yet")
        }
    }

    /// The session an approval opened (`acr` aal2, `amr` of the device's decision as for phone approval, `auth_time`
    /// the decision's), stored while the approving device is active, and its tokens with the `txn` it signed.
    private func exchangeApproved(
        _ request: CIBARequestRecord, client: OIDCClientRecord, jkt: String?, ip: String?
    ) async throws -> OAuthTokenResponse {
        guard let userId = request.userId, let approver = request.deviceId, let decidedAt = request.decidedAt else {
            throw OAuthError.invalidGrant("auth_req_id is unknown, another client's, or was already exchanged")
        }
        let now = clock.now()
        var session = SessionRecord(
            id: random.timeOrderedID(at: now), userId: userId, clientId: client.clientId, amr: request.amr ?? [],
            acr: .aal2, authTime: decidedAt, lastActivityAt: now, createdAt: now, approvedBy: approver,
            scope: request.scope, ip: ip, dpopJKT: client.bindsRefreshTokens ? jkt : nil)
        session.amr = ProviderService.providerAMR(of: session)
        let refreshToken = random.token()
        switch try await store.exchangeCIBARequest(
            id: request.id, session: session, refreshTokenHash: SecretDigest.sha256(refreshToken))
        {
        case .exchanged:
            await auditor.record(.oidcToken, outcome: .ok, userId: userId, clientId: client.clientId)
            let details = try request.authorizationDetails.map { try StrictJSONParser.parse($0.utf8) }
            return try await tokens(
                for: session, client: client, nonce: nil, refreshToken: refreshToken,
                grant: AuthorizationGrant(txn: request.txn, authorizationDetails: details), jkt: jkt)
        case .alreadyExchanged:
            throw OAuthError.invalidGrant("auth_req_id is unknown, another client's, or was already exchanged")
        case .approverInactive:
            throw OAuthError(.accessDenied, "the approving device is no longer active")
        }
    }
}
