"""A FAPI 2.0 client of Touchstone written with requests-oauth2client (from PyPI), not by us: PAR, private_key_jwt and
DPoP, for a client registered with `touchstone admin app create --fapi`.

Usage:
  fapi_client.py keys PRIVATE_JWK_FILE JWKS_FILE
      makes a P-256 key with jwskate (its kid the RFC 7638 thumbprint) and writes its private JWK and a JWK Set of
      its public half (for `touchstone admin app create --jwks`).
  fapi_client.py run ISSUER CLIENT_ID PRIVATE_JWK_FILE REDIRECT_URI USERNAME PASSWORD

The browser's part (the sign-in page) is played with `requests`, as the web page does it. Everything a client does is
the library's: discovery, the authorization request with PKCE and `dpop_jkt` pushed to the PAR endpoint (the same
request sent straight to the authorization endpoint is refused), the callback's `state` and `iss`, the token request
authenticated with a client assertion whose `aud` is the issuer and carrying a DPoP proof, the ID token's validation
against the JWKS, userinfo with `Authorization: DPoP` and `ath`, and refreshes that hand back the same refresh token. Prints one line per step and exits non-zero on the first failure.
"""
import json
import sys
from urllib.parse import parse_qs, urlparse

import requests
from jwskate import Jwk, JwkSet, SignedJwt
from requests_oauth2client import DPoPToken, OAuth2Client, PrivateKeyJwt


def step(text):
    print(f"ok: {text}", flush=True)


if sys.argv[1] == "keys":
    key = Jwk.generate(alg="ES256").with_kid_thumbprint()
    with open(sys.argv[2], "w") as private:
        json.dump(dict(key), private)
    with open(sys.argv[3], "w") as public:
        json.dump({"keys": [dict(key.public_jwk())]}, public)
    sys.exit(0)

issuer, client_id, private_jwk_file, redirect_uri, username, password = sys.argv[2:8]
private_jwk = Jwk(json.load(open(private_jwk_file)))

configuration = requests.get(issuer + "/.well-known/openid-configuration", timeout=30).json()
assert "private_key_jwt" in configuration["token_endpoint_auth_methods_supported"], configuration
assert "ES256" in configuration["dpop_signing_alg_values_supported"], configuration
step("discovery names private_key_jwt and DPoP")

jwks = requests.get(configuration["jwks_uri"], timeout=30).json()
client = OAuth2Client(
    token_endpoint=configuration["token_endpoint"],
    auth=PrivateKeyJwt(client_id, private_jwk, alg="ES256", aud=issuer),  # FAPI 2.0: aud is the issuer
    authorization_endpoint=configuration["authorization_endpoint"],
    pushed_authorization_request_endpoint=configuration["pushed_authorization_request_endpoint"],
    userinfo_endpoint=configuration["userinfo_endpoint"],
    redirect_uri=redirect_uri,
    issuer=issuer,
    authorization_response_iss_parameter_supported=True,
    authorization_server_jwks=jwks,
    id_token_signed_response_alg="ES256",
    dpop_bound_access_tokens=True,
    testing=True,  # the test server is http://127.0.0.1
)

# A FAPI client's request sent straight to the authorization endpoint: invalid_request at the redirect URI, with iss.
request = client.authorization_request(scope="openid profile offline_access")
browser = requests.Session()
direct = browser.get(str(request), allow_redirects=False, timeout=30)
refused = parse_qs(urlparse(direct.headers["Location"]).query)
assert direct.status_code == 303 and refused["error"] == ["invalid_request"], (direct.status_code, direct.headers)
assert refused["iss"] == [issuer] and refused["state"] == [request.state], refused
step("the request without PAR is refused at the redirect URI")

# The browser: follow the pushed request to the sign-in page and sign in there with the password.
pushed = client.pushed_authorization_request(request)
step("PAR with private_key_jwt")
answer = browser.get(str(pushed), allow_redirects=False, timeout=30)
assert answer.status_code == 303, (answer.status_code, answer.text)
request_id = parse_qs(urlparse(answer.headers["Location"]).query)["sign-in"][0]
page = requests.post(
    issuer + "/v1/sessions/password", json={"clientId": "com.example.demo", "username": username, "password": password},
    timeout=30).json()
done = browser.post(
    f"{issuer}/oauth2/sign-in/{request_id}/complete", headers={"Authorization": "Bearer " + page["accessToken"]},
    timeout=30)
assert done.status_code == 200, (done.status_code, done.text)
callback = done.json()["redirectTo"]
response = request.validate_callback(callback)
step("callback with state and iss validated by requests-oauth2client")

# requests-oauth2client 1.8.0's DPoPToken.validate_id_token validates, then fails to copy the token (its _dpop_key is
# not passed on): the ID token is validated here with jwskate, the library's own JOSE package.
token = client.authorization_code(response, validate=False)
assert isinstance(token, DPoPToken) and token.token_type == "DPoP", token
id_token = SignedJwt(str(token.id_token))
assert id_token.verify_signature(JwkSet(jwks).get_jwk_by_kid(id_token.kid), alg="ES256"), id_token
assert id_token.issuer == issuer and id_token.audiences == [client_id], id_token.claims
assert id_token.claims["nonce"] == response.nonce and not id_token.is_expired(), id_token.claims
step("token endpoint: private_key_jwt and a DPoP proof, DPoP-bound token, ID token validated")

claims = client.userinfo(token)
assert claims["sub"] == id_token.subject and claims["preferred_username"] == username, claims
step("userinfo with Authorization: DPoP and ath")

bearer = requests.get(configuration["userinfo_endpoint"], headers={"Authorization": "Bearer " + token.access_token},
                      timeout=30)
assert bearer.status_code == 401 and bearer.headers["WWW-Authenticate"].startswith("DPoP "), bearer.headers
step("the bound token as Bearer is refused with a DPoP challenge")

refreshed = client.refresh_token(token)
assert isinstance(refreshed, DPoPToken) and refreshed.access_token != token.access_token, refreshed
assert refreshed.refresh_token == token.refresh_token, (refreshed.refresh_token, token.refresh_token)
assert client.userinfo(refreshed)["sub"] == claims["sub"]
again = client.refresh_token(token)
assert isinstance(again, DPoPToken) and again.refresh_token == token.refresh_token, again
step("refresh with a new assertion and proof, twice: the refresh token is not rotated")
