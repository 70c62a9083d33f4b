"""Schemathesis hooks for scripts/schemathesis: valid credentials for every security scheme of openapi.yaml.

Loaded by `st run` (SCHEMATHESIS_HOOKS). scripts/schemathesis starts the server and creates, with the admin CLI, what
only an administrator can create (an API key, a confidential OpenID Connect client); it passes them in TOUCHSTONE_ST_*
variables. Everything else is made here over HTTP, as a client would: accounts, enrolled devices (keys made here with
`cryptography`, proofs signed here), device logins, step-ups, recovery codes, and the OpenID Connect code flow.

Which credential an operation gets is the table OPERATIONS below (by operationId); an operation that the spec secures
and the table does not name stops the run, so that a new operation cannot go untested with no credentials.

- `bearer` (v1): a device session's access token of the account app, with a fresh `Touchstone-Device-Proof` signed by
  the device key for each request (its jti is single-use, so it is signed when the request is sent, also when
  Schemathesis sends the same case again). Operations that document 403 `step_up_required` get the session's
  privileged token (from `POST /v1/step-up`). A case that tests a Touchstone-Device-Proof breaking its schema (a
  negative case) sends that one.
- `bearer` (OpenID Connect userinfo): an access token from `/oauth2/token` after the authorization code flow.
- `ApiKey`: `Authorization: ApiKey <key>` of the demo app.
- `TouchstoneDevice`: a `touchstone-request+jwt` of the request, signed by the device key; the route's `{deviceId}` is
  that device's (the credential is the device's own, for its own inbox).
- `clientSecretBasic`: the confidential client's id and secret.

Three users keep the fuzzed requests from spoiling the credentials the others need: `st-stepup` is the target of
`POST /v1/step-up` (whose fuzzed wrong passwords throttle its account), `st-password` the target of
`PUT /v1/account/password` (which changes its password: the new one is recorded from each 204), and `st-main` that of
every other operation. Schemathesis reuses identifiers it saw in answers, so it revokes `st-main`'s device now and
then (`DELETE /v1/devices/{deviceId}` with the id from `GET /v1/devices`): a user whose device is gone is replaced by
a new one. `st-main`'s device has items in its inbox (notices of a second device enrolled with a recovery code, a
confirmation, a web login), so that the inbox's long polls answer at once and every kind of item is checked against
the schema.

The hooks' own requests leave from 127.0.0.2, a loopback address of their own, so that the per-address password
throttle that fuzzed wrong passwords from 127.0.0.1 trip does not refuse them: another client, as far as the server
can tell.

Two attributes of Schemathesis's `Case` are used that its documentation does not name (the version is pinned in
scripts/schemathesis): `_auth`, a `requests` auth object applied as the request is sent (Schemathesis's own
`set_from_requests` providers set it the same way), and `_meta`, which tells a negative case.
"""
import base64
import hashlib
import json
import os
import threading
import time
import uuid
from urllib.parse import parse_qs, urlsplit

import requests
import requests.adapters
import schemathesis
from schemathesis.core.parameters import ParameterLocation
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

ISSUER = os.environ["TOUCHSTONE_ST_ISSUER"]  # http://localhost:PORT: the aud and htu of device-signed tokens
URL = os.environ["TOUCHSTONE_ST_URL"]  # http://127.0.0.1:PORT: where requests go
API_KEY = os.environ["TOUCHSTONE_ST_API_KEY"]
CLIENT_ID = os.environ["TOUCHSTONE_ST_CLIENT_ID"]
CLIENT_SECRET = os.environ["TOUCHSTONE_ST_CLIENT_SECRET"]
REDIRECT_URI = os.environ["TOUCHSTONE_ST_REDIRECT_URI"]
SOURCE_ADDRESS = os.environ.get("TOUCHSTONE_ST_SOURCE_ADDRESS", "127.0.0.2")
ACCOUNT_APP = "com.example.demo"
PIN = "482916"


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def now():
    return int(time.time())


class SourceAddressAdapter(requests.adapters.HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (SOURCE_ADDRESS, 0)
        super().init_poolmanager(*args, **kwargs)


class HookError(Exception):
    pass


http = requests.Session()
http.mount("http://", SourceAddressAdapter())


def call(method, path, expect, **kwargs):
    """One request of the hooks' own; a status other than `expect` is an error (with the answer)."""
    response = http.request(method, URL + path, timeout=60, allow_redirects=False, **kwargs)
    if response.status_code != expect:
        raise HookError(f"{method} {path}: {response.status_code} {response.text[:300]}")
    return response


class Key:
    """A P-256 key signing ES256 compact JWS, named by its RFC 7638 thumbprint."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        numbers = self.private.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64u(numbers.x.to_bytes(32, "big")),
                    "y": b64u(numbers.y.to_bytes(32, "big"))}
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        self.kid = b64u(hashlib.sha256(canonical.encode()).digest())

    def sign(self, typ, claims):
        header = {"alg": "ES256", "kid": self.kid, "typ": typ}
        signing_input = b64u(json.dumps(header).encode()) + "." + b64u(json.dumps(claims).encode())
        r, s = decode_dss_signature(self.private.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        return signing_input + "." + b64u(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class Device:
    """A device enrolled over HTTP as the SDK does it: a device key, a biometric key, a PIN."""

    def __init__(self, username, password, recovery_code=None):
        self.description = {"name": f"Schemathesis phone of {username}", "model": "Pixel 9",
                            "vendorId": str(uuid.uuid4()), "os": "Android 16", "compromised": False}
        self.device_key, self.biometric_key = Key(), Key()
        d = self.description
        self.dfp = b64u(hashlib.sha256(
            f"touchstone-device-v1\n{d['vendorId']}\n{d['model']}\n{d['name']}".encode()).digest())
        start = {"clientId": ACCOUNT_APP, "username": username, "password": password}
        if recovery_code is not None:
            start["recoveryCode"] = recovery_code
        started = call("POST", "/v1/enrollments", 201, json=start).json()
        proof = {"iss": started["enrollmentId"], "aud": ISSUER, "iat": now(), "exp": now() + 60,
                 "nonce": started["challenge"]}
        completed = call("POST", f"/v1/enrollments/{started['enrollmentId']}/complete", 201, json={
            "device": self.description, "deviceKey": self.device_key.jwk, "biometricKey": self.biometric_key.jwk,
            "pin": PIN, "deviceProof": self.device_key.sign("touchstone-proof+jwt", proof),
            "biometricProof": self.biometric_key.sign("touchstone-proof+jwt", proof)}).json()
        self.device_id = completed["deviceId"]

    def request_token(self, method, path):
        """A `touchstone-request+jwt` of this request (fresh jti)."""
        return self.device_key.sign("touchstone-request+jwt", {
            "iss": self.device_id, "aud": ISSUER, "iat": now(), "exp": now() + 60, "jti": str(uuid.uuid4()),
            "htm": method, "htu": ISSUER + path})

    def login(self):
        """A new biometric session of the account app."""
        challenge = call("POST", "/v1/challenges", 201, json={"deviceId": self.device_id, "purpose": "login"}).json()
        assertion = self.biometric_key.sign("touchstone-assertion+jwt", {
            "iss": self.device_id, "aud": ISSUER, "iat": now(), "exp": now() + 60, "nonce": challenge["challenge"],
            "dfp": self.dfp})
        return call("POST", "/v1/sessions", 201, json={"clientId": ACCOUNT_APP, "assertion": assertion}).json()

    def signed(self, method, path, token, **kwargs):
        headers = {"Authorization": "Bearer " + token, "Touchstone-Device-Proof": self.request_token(method, path)}
        return http.request(method, URL + path, headers=headers, timeout=60, allow_redirects=False, **kwargs)


class User:
    """An account with one enrolled device; its session and privileged token, renewed before they expire."""

    def __init__(self, role):
        self.username = f"st-{role}-{uuid.uuid4().hex[:8]}"
        self.password = "schemathesis " + uuid.uuid4().hex
        call("POST", "/v1/accounts", 201, json={"username": self.username, "password": self.password})
        self.device = Device(self.username, self.password)
        self._session = None
        self._privileged = None
        self.confirmation_until = 0

    def session_token(self):
        if self._session is None or self._session[1] < time.monotonic():
            session = self.device.login()
            self._session = (session["accessToken"], time.monotonic() + session["expiresIn"] - 60)
            self._privileged = None
        return self._session[0]

    def privileged_token(self):
        token = self.session_token()
        if self._privileged is None or self._privileged[1] < time.monotonic():
            response = self.device.signed("POST", "/v1/step-up", token, json={"password": self.password})
            if response.status_code != 200:
                raise HookError(f"step-up of {self.username}: {response.status_code} {response.text[:300]}")
            stepped = response.json()
            self._privileged = (stepped["accessToken"], time.monotonic() + stepped["expiresIn"] - 30)
        return self._privileged[0]

    def token(self, privileged):
        return self.privileged_token() if privileged else self.session_token()

    def forget_sessions(self):
        self._session = self._privileged = None

    def fill_inbox(self):
        """Items in the device's inbox, so that its long polls answer at once and every kind of item is seen: the
        notices of a second device enrolled with a recovery code, a confirmation and a web login."""
        response = self.device.signed("POST", "/v1/account/recovery-codes", self.privileged_token())
        if response.status_code != 201:
            raise HookError(f"recovery codes of {self.username}: {response.status_code} {response.text[:300]}")
        Device(self.username, self.password, recovery_code=response.json()["codes"][0])
        call("POST", "/v1/web-logins", 201, json={"username": self.username})
        self.confirm()

    def confirm(self):
        """A pending confirmation in the inbox (for 600 s)."""
        call("POST", "/v1/confirmations", 201, headers={"Authorization": "ApiKey " + API_KEY}, json={
            "username": self.username, "text": "Pay the Schemathesis test", "amount": "1.50", "currency": "EUR",
            "payee": "Schemathesis", "expiresInSeconds": 600})
        self.confirmation_until = time.monotonic() + 540


class OIDCToken:
    """An access token of the confidential client, from the authorization code flow with PKCE, as a site gets it."""

    def __init__(self):
        self._token = None

    def get(self, user):
        if self._token is None or self._token[1] < time.monotonic():
            verifier = b64u(os.urandom(32))
            challenge = b64u(hashlib.sha256(verifier.encode()).digest())
            browser = requests.Session()
            browser.mount("http://", SourceAddressAdapter())
            started = browser.get(URL + "/oauth2/authorize", params={
                "response_type": "code", "client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI,
                "scope": "openid profile", "code_challenge": challenge, "code_challenge_method": "S256",
                "state": "st"}, allow_redirects=False, timeout=60)
            if started.status_code != 303:
                raise HookError(f"authorize: {started.status_code} {started.text[:300]}")
            request_id = parse_qs(urlsplit(started.headers["Location"]).query)["sign-in"][0]
            page = call("POST", "/v1/sessions/password", 201,
                        json={"clientId": ACCOUNT_APP, "username": user.username, "password": user.password}).json()
            done = browser.post(f"{URL}/oauth2/sign-in/{request_id}/complete",
                                headers={"Authorization": "Bearer " + page["accessToken"]}, timeout=60)
            if done.status_code != 200:
                raise HookError(f"sign-in complete: {done.status_code} {done.text[:300]}")
            code = parse_qs(urlsplit(done.json()["redirectTo"]).query)["code"][0]
            tokens = call("POST", "/oauth2/token", 200, auth=(CLIENT_ID, CLIENT_SECRET), data={
                "grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                "code_verifier": verifier}).json()
            self._token = (tokens["access_token"], time.monotonic() + tokens["expires_in"] - 60)
        return self._token[0]


class Accounts:
    """The users, made on first use and replaced when their credentials stop working."""

    def __init__(self):
        self.lock = threading.RLock()
        self.users = {}
        self.oidc = OIDCToken()

    def user(self, role):
        with self.lock:
            if role not in self.users:
                user = User(role)
                if role == "main":
                    user.fill_inbox()
                self.users[role] = user
            return self.users[role]

    def replace(self, role):
        with self.lock:
            self.users.pop(role, None)
            if role == "main":
                self.oidc = OIDCToken()


ACCOUNTS = Accounts()


# --- What a request carries: requests auth objects, applied when the request is sent ----------------------------

class DeviceBearer(requests.auth.AuthBase):
    """`Authorization: Bearer` of a device session, and `Touchstone-Device-Proof` of this very request."""

    def __init__(self, role, privileged=False, fresh_session=False):
        self.role, self.privileged, self.fresh_session = role, privileged, fresh_session
        self.keep_proof = False  # a negative test of the header: the generated value is sent

    def __call__(self, request):
        with ACCOUNTS.lock:
            user = ACCOUNTS.user(self.role)
            try:
                token = user.device.login()["accessToken"] if self.fresh_session else user.token(self.privileged)
            except HookError:
                # Its credentials no longer work (e.g. a password the fuzzing set that this side cannot know): a new user.
                ACCOUNTS.replace(self.role)
                user = ACCOUNTS.user(self.role)
                token = user.device.login()["accessToken"] if self.fresh_session else user.token(self.privileged)
            request.headers["Authorization"] = "Bearer " + token
            if not self.keep_proof:
                request.headers["Touchstone-Device-Proof"] = user.device.request_token(
                    request.method, urlsplit(request.url).path)
        return request


class DeviceRequest(requests.auth.AuthBase):
    """`Authorization: TouchstoneDevice` of this very request, signed by the main user's device key."""

    def __call__(self, request):
        with ACCOUNTS.lock:
            user = ACCOUNTS.user("main")
            if request.method == "GET" and user.confirmation_until < time.monotonic():
                user.confirm()  # the inbox never empties, or each long poll would wait its waitSeconds out
            device = user.device
            request.headers["Authorization"] = "TouchstoneDevice " + device.request_token(
                request.method, urlsplit(request.url).path)
        return request


class ProviderBearer(requests.auth.AuthBase):
    """`Authorization: Bearer` of an access token from the OpenID Connect token endpoint."""

    def __call__(self, request):
        with ACCOUNTS.lock:
            request.headers["Authorization"] = "Bearer " + ACCOUNTS.oidc.get(ACCOUNTS.user("main"))
        return request


class Header(requests.auth.AuthBase):
    def __init__(self, value):
        self.value = value

    def __call__(self, request):
        request.headers["Authorization"] = self.value
        return request


BASIC = requests.auth.HTTPBasicAuth(CLIENT_ID, CLIENT_SECRET)

# operationId -> the credential it gets (see the module's docstring). Operations the spec does not secure are absent.
OPERATIONS = {
    # bearer, any session of the account app
    "listSessions": lambda: DeviceBearer("main"),
    "getAccountNotices": lambda: DeviceBearer("main"),
    "getAccount": lambda: DeviceBearer("main"),
    "listDevices": lambda: DeviceBearer("main"),
    "listPasskeys": lambda: DeviceBearer("main"),
    "finishPasskeyRegistration": lambda: DeviceBearer("main"),
    "completeSignIn": lambda: DeviceBearer("main"),
    # bearer: ends the session it is sent with, so a session of its own each time
    "deleteCurrentSession": lambda: DeviceBearer("main", fresh_session=True),
    # bearer: its fuzzed wrong passwords throttle the account, so not the main user's
    "stepUp": lambda: DeviceBearer("stepup"),
    # bearer, privileged (403 step_up_required otherwise)
    "endSession": lambda: DeviceBearer("main", privileged=True),
    "createRecoveryCodes": lambda: DeviceBearer("main", privileged=True),
    "deleteDevice": lambda: DeviceBearer("main", privileged=True),
    "deleteBiometricKey": lambda: DeviceBearer("main", privileged=True),
    "setDevicePIN": lambda: DeviceBearer("main", privileged=True),
    "startPasskeyRegistration": lambda: DeviceBearer("main", privileged=True),
    "deletePasskey": lambda: DeviceBearer("main", privileged=True),
    # bearer, privileged: changes the password, so not the main user's (the new one is recorded in after_call)
    "setPassword": lambda: DeviceBearer("password", privileged=True),
    # bearer: OpenID Connect userinfo takes the provider's access tokens only
    "getUserInfo": ProviderBearer,
    "postUserInfo": ProviderBearer,
    # ApiKey
    "createConfirmation": lambda: Header("ApiKey " + API_KEY),
    "getConfirmation": lambda: Header("ApiKey " + API_KEY),
    "introspect": lambda: Header("ApiKey " + API_KEY),
    # TouchstoneDevice
    "getInbox": DeviceRequest,
    "getInboxItem": DeviceRequest,
    "dismissNotice": DeviceRequest,
    "registerPush": DeviceRequest,
    "getPushRegistration": DeviceRequest,
    "removePushRegistration": DeviceRequest,
    "refreshSession": DeviceRequest,
    # clientSecretBasic
    "pushAuthorizationRequest": lambda: BASIC,
    "token": lambda: BASIC,
    "revoke": lambda: BASIC,
    "backchannelAuthorize": lambda: BASIC,
}


def operation_id(operation):
    return operation.definition.raw.get("operationId")


@schemathesis.auth(refresh_interval=None, retry_on=[])
class TouchstoneAuth:
    def get(self, case, context):
        raw = context.operation.definition.raw
        secured = [requirement for requirement in raw.get("security", []) if requirement]
        name = operation_id(context.operation)
        if not secured:
            return None
        if name not in OPERATIONS:
            raise HookError(f"{name} is secured by {secured} but scripts/schemathesis-hooks.py gives it no credential")
        return OPERATIONS[name]()

    def set(self, case, data, context):
        # A requests auth object: it signs each request when it is sent (device-signed tokens are single-use).
        case._auth = data
        meta = case._meta
        if isinstance(data, DeviceBearer) and meta is not None and meta.is_negative_at(ParameterLocation.HEADER):
            # The case tests a Touchstone-Device-Proof that breaks its schema: that one is sent, with the valid token.
            data.keep_proof = True
        if isinstance(data, DeviceRequest) and "deviceId" in (case.path_parameters or {}) \
                and not (meta is not None and meta.is_negative_at(ParameterLocation.PATH)):
            # The TouchstoneDevice credential is the device's own, for its own routes.
            with ACCOUNTS.lock:
                case.path_parameters["deviceId"] = ACCOUNTS.user("main").device.device_id


@schemathesis.hook
def after_call(context, case, response):
    """Keeps the credentials working after what a request did to them (Schemathesis reuses the identifiers it saw in
    answers, e.g. the main device's id from `GET /v1/devices`, so it may revoke the very device it is signed by)."""
    auth = case._auth
    if not isinstance(auth, DeviceBearer):
        return
    name = operation_id(case.operation)
    with ACCOUNTS.lock:
        user = ACCOUNTS.users.get(auth.role)
        if user is None:
            return
        if name == "setPassword" and response.status_code == 204:
            user.password = case.body["password"]  # the new password of the user whose privileged token it carried
        elif name in ("deleteDevice", "deleteBiometricKey") and 200 <= response.status_code < 300 \
                and (case.path_parameters or {}).get("deviceId") == user.device.device_id:
            ACCOUNTS.replace(auth.role)  # its device is gone, or no longer logs in with a biometric
        elif name == "endSession" and 200 <= response.status_code < 300:
            user.forget_sessions()  # perhaps the session it was signed in with
        elif response.status_code == 401 and response.headers.get("content-type") == ["application/problem+json"] \
                and response.json().get("code") in ("unauthorized", "device_proof_required", "invalid_device_proof"):
            user.forget_sessions()  # the credentials stopped working for a reason not foreseen here: log in again


AUTH_REFUSALS = {"unauthorized", "device_proof_required", "invalid_device_proof", "invalid_token", "invalid_client"}


def refuses_credentials(response):
    """A 401 that refuses the request's credentials (not, say, a wrong password in the body of a step-up)."""
    if response.status_code != 401:
        return False
    try:
        body = response.json()
    except Exception:
        return True  # userinfo's 401 without a body: no token it could use
    return not isinstance(body, dict) or body.get("code", body.get("error")) in AUTH_REFUSALS


@schemathesis.check
class credentials_accepted:
    """The hooks' credentials are valid: no answer refuses them, and every secured operation was answered past its
    authentication at least once (so none was tested with credentials that never worked)."""

    def __init__(self):
        self.secured, self.tested, self.reached = set(), set(), set()

    def after_response(self, ctx, response, case):
        if not self.secured:
            self.secured = {f"{method.upper()} {path}" for path, methods in case.operation.schema.raw_schema["paths"].items()
                            for method, operation in methods.items()
                            if isinstance(operation, dict) and any(operation.get("security", []))}
        if case.method.upper() != case.operation.method.upper():
            return  # a probe of a method the document does not list, on this operation's path
        label = case.operation.label
        self.tested.add(label)
        auth = case._auth
        if not isinstance(auth, (DeviceBearer, DeviceRequest, ProviderBearer, Header, requests.auth.HTTPBasicAuth)):
            return  # no credentials of ours: Schemathesis tests the operation without them, or with its own
        meta = case._meta
        if isinstance(auth, DeviceBearer) and auth.keep_proof:
            return  # a negative test of Touchstone-Device-Proof
        if isinstance(auth, DeviceRequest) and meta is not None and meta.is_negative_at(ParameterLocation.PATH):
            return  # the route names another device than the one that signed
        if refuses_credentials(response):
            raise AssertionError(f"{label} refused the hooks' credentials: {response.status_code} {response.text[:200]}")
        self.reached.add(label)

    def after_run(self, ctx):
        missing = (self.secured & self.tested) - self.reached
        if missing:
            raise AssertionError("never answered past authentication with valid credentials: " + ", ".join(sorted(missing)))
