"""A relying website that signs its users in with Touchstone, written with Authlib (from PyPI), not by us.

Usage: oidc_relying_party.py ISSUER CLIENT_ID CLIENT_SECRET REDIRECT_URI POST_LOGOUT_URI USERNAME PASSWORD

The browser's part (following the redirect to the sign-in page and signing in there) is played with `requests` over
HTTP, as the web page does it: a password session of the account app, handed to /oauth2/sign-in/{id}/complete.
Everything a site does is Authlib's: the authorization URL with PKCE S256 and a nonce, the token request with
client_secret_basic, the ID token's validation against the JWKS (signature, iss, aud, exp, nonce, at_hash),
userinfo, refresh, and PAR; then every refusal the contract lists, seen from the site. Prints one line per step and
exits non-zero on the first failure.
"""
import sys
from urllib.parse import parse_qs, urlencode, urlparse

import requests
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.common.security import generate_token
from authlib.jose import JsonWebKey, jwt
from authlib.oidc.core import CodeIDToken

issuer, client_id, client_secret, redirect_uri, post_logout_uri, username, password = sys.argv[1:8]


def step(text):
    print(f"ok: {text}", flush=True)


def query(url):
    return {name: values[0] for name, values in parse_qs(urlparse(url).query).items()}


configuration = requests.get(issuer + "/.well-known/openid-configuration", timeout=30).json()
assert configuration["issuer"] == issuer, configuration
assert "S256" in configuration["code_challenge_methods_supported"]
keys = JsonWebKey.import_key_set(requests.get(configuration["jwks_uri"], timeout=30).json())
step("discovery and JWKS")

site = OAuth2Session(
    client_id, client_secret, scope="openid profile offline_access", redirect_uri=redirect_uri,
    code_challenge_method="S256", token_endpoint_auth_method="client_secret_basic")
browser = requests.Session()  # the user's browser: it keeps the provider's cookie


def authorize(extra=None):
    """A new authorization URL (new PKCE verifier, state and nonce) and where the provider sends the browser."""
    verifier, nonce = generate_token(48), generate_token(20)
    url, state = site.create_authorization_url(
        configuration["authorization_endpoint"], code_verifier=verifier, nonce=nonce, **(extra or {}))
    response = browser.get(url, allow_redirects=False, timeout=30)
    assert response.status_code == 303, (response.status_code, response.text)
    return verifier, nonce, state, response.headers["Location"]


def sign_in_on_the_page(location):
    request_id = query(location)["sign-in"]
    page_session = requests.post(
        issuer + "/v1/sessions/password", json={"clientId": "com.example.demo", "username": username, "password": password},
        timeout=30).json()
    done = browser.post(
        f"{issuer}/oauth2/sign-in/{request_id}/complete", headers={"Authorization": "Bearer " + page_session["accessToken"]},
        timeout=30)
    assert done.status_code == 200, (done.status_code, done.text)
    return done.json()["redirectTo"]


def validated_id_token(tokens, nonce):
    claims = jwt.decode(
        tokens["id_token"], keys, claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": issuer}},
        claims_params={"nonce": nonce, "client_id": client_id, "access_token": tokens["access_token"]})
    claims.validate()
    return claims


# 1. Sign in on the page, back to the site with a code; the site's library redeems it and validates the ID token.
verifier, nonce, state, location = authorize()
callback = sign_in_on_the_page(location)
assert callback.startswith(redirect_uri + "?"), callback
assert query(callback)["state"] == state and query(callback)["iss"] == issuer, callback
tokens = site.fetch_token(
    configuration["token_endpoint"], authorization_response=callback, code_verifier=verifier)
claims = validated_id_token(tokens, nonce)
assert claims["acr"] == "aal1" and claims["amr"] == ["pwd"] and claims["preferred_username"] == username, claims
step("sign-in with the password, code with PKCE, ID token validated by Authlib")

info = site.get(configuration["userinfo_endpoint"], timeout=30).json()
assert info == {"sub": claims["sub"], "preferred_username": username}, info
step("userinfo")

# 2. Single sign-on: the browser's provider session signs in again without a page.
verifier, nonce, state, location = authorize()
assert location.startswith(redirect_uri + "?") and "code" in query(location), location
second = site.fetch_token(configuration["token_endpoint"], authorization_response=location, code_verifier=verifier)
assert validated_id_token(second, nonce)["sid"] == claims["sid"]
step("single sign-on from the provider session")

# 3. prompt=login asks for the page again; prompt=none without a cookie is login_required.
_, _, _, location = authorize({"prompt": "login"})
assert "sign-in" in query(location), location
url, state = site.create_authorization_url(
    configuration["authorization_endpoint"], code_verifier=generate_token(48), nonce="n", prompt="none")
quiet = requests.get(url, allow_redirects=False, timeout=30)
assert quiet.status_code == 303 and query(quiet.headers["Location"])["error"] == "login_required", quiet.headers
step("prompt=login and prompt=none")

# 4. Refresh rotates; the old refresh token used again is refused and ends the family.
refreshed = site.refresh_token(configuration["token_endpoint"], refresh_token=tokens["refresh_token"])
assert refreshed["refresh_token"] != tokens["refresh_token"]
reuse = requests.post(
    configuration["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]},
    auth=(client_id, client_secret), timeout=30)
assert reuse.status_code == 400 and reuse.json()["error"] == "invalid_grant", reuse.text
family = requests.post(
    configuration["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": refreshed["refresh_token"]},
    auth=(client_id, client_secret), timeout=30)
assert family.status_code == 400 and family.json()["error"] == "invalid_grant", family.text
step("refresh with rotation and reuse detection")

# 5. PAR: the site pushes its request and sends the browser with the request_uri only.
verifier, nonce = generate_token(48), generate_token(20)
pushed_url, state = site.create_authorization_url(
    configuration["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
parameters = query(pushed_url)
pushed = requests.post(
    configuration["pushed_authorization_request_endpoint"], data=parameters, auth=(client_id, client_secret), timeout=30)
assert pushed.status_code == 201, pushed.text
request_uri = pushed.json()["request_uri"]
response = browser.get(
    configuration["authorization_endpoint"] + "?" + urlencode({"client_id": client_id, "request_uri": request_uri}),
    allow_redirects=False, timeout=30)
assert response.status_code == 303 and "code" in query(response.headers["Location"]), response.headers
par_tokens = site.fetch_token(
    configuration["token_endpoint"], authorization_response=response.headers["Location"], code_verifier=verifier)
validated_id_token(par_tokens, nonce)
step("pushed authorization request")

# 6. Logout. Without an ID token hint nothing ends (any page can send the browser there): the page asks, and a
# confirmation without the page's token is refused.
def alive():
    return requests.get(
        configuration["userinfo_endpoint"], headers={"Authorization": "Bearer " + par_tokens["access_token"]},
        timeout=30).status_code == 200


asked = browser.get(configuration["end_session_endpoint"], allow_redirects=False, timeout=30)
assert asked.status_code == 200 and "Sign out of Touchstone?" in asked.text, (asked.status_code, asked.text)
forged = browser.post(issuer + "/oauth2/logout/confirm", data={"token": "forged"}, allow_redirects=False, timeout=30)
assert forged.status_code == 403, forged.status_code
assert alive()
# A hint without the browser's cookie ends nothing either.
cookieless = requests.get(
    configuration["end_session_endpoint"] + "?" + urlencode({"id_token_hint": par_tokens["id_token"]}),
    allow_redirects=False, timeout=30)
assert cookieless.status_code == 200 and alive(), cookieless.status_code
# The hint of the browser's session: back to the registered URI with the state; the tokens issued through the
# session are dead.
logout = browser.get(
    configuration["end_session_endpoint"] + "?" + urlencode(
        {"id_token_hint": par_tokens["id_token"], "post_logout_redirect_uri": post_logout_uri, "state": "bye"}),
    allow_redirects=False, timeout=30)
assert logout.status_code == 303 and logout.headers["Location"] == post_logout_uri + "?state=bye", logout.headers
assert not alive()
_, _, _, location = authorize()
assert "sign-in" in query(location), location
step("logout")

# 7. max_age: a sign-in older than max_age asks for the page again.
verifier, nonce, state, location = authorize()
callback = sign_in_on_the_page(location)
site.fetch_token(configuration["token_endpoint"], authorization_response=callback, code_verifier=verifier)
_, _, _, location = authorize({"max_age": "0"})
assert "sign-in" in query(location), location
step("max_age")

# 8. Refusals, as a site sees them.
def raw_authorize(parameters):
    return requests.get(
        configuration["authorization_endpoint"] + "?" + urlencode(parameters), allow_redirects=False, timeout=30)

def redirect_error(response):
    assert response.status_code == 303, (response.status_code, response.text)
    parameters = query(response.headers["Location"])
    assert response.headers["Location"].startswith(redirect_uri + "?"), response.headers
    assert parameters.get("iss") == issuer, parameters
    return parameters["error"]

complete = {
    "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": "openid", "state": "s",
    "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256",
}
unknown_client = raw_authorize({**complete, "client_id": "nobody"})
assert unknown_client.status_code == 400 and "Location" not in unknown_client.headers, unknown_client.status_code
unregistered = raw_authorize({**complete, "redirect_uri": "http://127.0.0.1:9/elsewhere"})
assert unregistered.status_code == 400 and "Location" not in unregistered.headers, unregistered.status_code
without_pkce = {name: value for name, value in complete.items() if not name.startswith("code_challenge")}
assert redirect_error(raw_authorize(without_pkce)) == "invalid_request"
assert redirect_error(raw_authorize({**complete, "code_challenge_method": "plain"})) == "invalid_request"
step("refusals before and after the redirect URI is known (unknown client, unregistered URI, no or plain PKCE)")

verifier, nonce, state, location = authorize()
callback = sign_in_on_the_page(location) if "sign-in" in query(location) else location
try:
    site.fetch_token(configuration["token_endpoint"], authorization_response=callback, code_verifier=generate_token(48))
    raise AssertionError("a wrong code_verifier was accepted")
except OAuthError as error:
    assert error.error == "invalid_grant", error
tokens = site.fetch_token(configuration["token_endpoint"], authorization_response=callback, code_verifier=verifier)
try:
    site.fetch_token(configuration["token_endpoint"], authorization_response=callback, code_verifier=verifier)
    raise AssertionError("a code was accepted twice")
except OAuthError as error:
    assert error.error == "invalid_grant", error
dead = requests.get(
    configuration["userinfo_endpoint"], headers={"Authorization": "Bearer " + tokens["access_token"]}, timeout=30)
assert dead.status_code == 401, "a reused code ends what its first use issued"
step("wrong verifier and reused code")

wrong_secret = OAuth2Session(client_id, "not-the-secret", redirect_uri=redirect_uri, code_challenge_method="S256")
verifier, nonce, state, location = authorize()
callback = sign_in_on_the_page(location) if "sign-in" in query(location) else location
try:
    wrong_secret.fetch_token(configuration["token_endpoint"], authorization_response=callback, code_verifier=verifier)
    raise AssertionError("a wrong client secret was accepted")
except OAuthError as error:
    assert error.error == "invalid_client", error
step("wrong client secret")

pushed = requests.post(
    configuration["pushed_authorization_request_endpoint"], data=complete, auth=(client_id, client_secret), timeout=30)
request_uri = pushed.json()["request_uri"]
first = raw_authorize({"client_id": client_id, "request_uri": request_uri})
again = raw_authorize({"client_id": client_id, "request_uri": request_uri})
assert first.status_code == 303 and again.status_code == 400 and "Location" not in again.headers, again.status_code
step("used request_uri")
