"""A bank's back office asking a user to approve a payment by OpenID CIBA, written with requests-oauth2client (from
PyPI), not by us: discovery, the backchannel authentication request with a binding message and RAR
authorization_details, and the library's own polling job (it honours `interval` and `slow_down`) until the tokens come.

Usage: ciba_client.py ISSUER CLIENT_ID CLIENT_SECRET USERNAME

Progress goes to standard error ("waiting for approval" once the request is accepted), the outcome to standard output:
one line per step, non-zero on the first failure.
"""
import base64
import json
import sys

import requests
from requests_oauth2client import BackChannelAuthenticationPollingJob, OAuth2Client

issuer, client_id, client_secret, username = sys.argv[1:5]

PAYMENT = [{
    "type": "payment_initiation",
    "instructedAmount": {"currency": "EUR", "amount": "123.50"},
    "creditorName": "Merchant A",
    "creditorAccount": {"iban": "DE02100100109307118603"},
    "remittanceInformationUnstructured": "Ref Number Merchant",
}]


def step(text):
    print(f"ok: {text}", flush=True)


def claims(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


configuration = requests.get(issuer + "/.well-known/openid-configuration", timeout=30).json()
assert configuration["backchannel_authentication_endpoint"] == issuer + "/oauth2/bc-authorize", configuration
assert "poll" in configuration["backchannel_token_delivery_modes_supported"], configuration
assert "payment_initiation" in configuration["authorization_details_types_supported"], configuration
step("discovery names the backchannel endpoint")

# The library's discovery reads no backchannel endpoint, so the client is made from the document's endpoints.
# testing=True: the test server is http on 127.0.0.1, and the library insists on https otherwise.
client = OAuth2Client(
    token_endpoint=configuration["token_endpoint"],
    backchannel_authentication_endpoint=configuration["backchannel_authentication_endpoint"],
    userinfo_endpoint=configuration["userinfo_endpoint"], issuer=configuration["issuer"],
    client_id=client_id, client_secret=client_secret, testing=True)
answer = client.backchannel_authentication_request(
    scope="openid offline_access", login_hint=username, binding_message="Pay 123.50 EUR to Merchant A",
    requested_expiry=120, authorization_details=json.dumps(PAYMENT, separators=(",", ":")))
assert answer.interval == 5, answer.interval
step("backchannel authentication request accepted")
print("waiting for approval", file=sys.stderr, flush=True)

# Each call of the job waits the interval, then polls once: None while the request is pending. The phone approves
# whenever the test gets to it (a loaded machine may take several intervals); the request lives 120 s.
job = BackChannelAuthenticationPollingJob(client, answer)
token = None
while token is None:
    token = job()
step("tokens after the approval")

id_token = claims(str(token.id_token))
assert id_token["aud"] == client_id and id_token["iss"] == issuer, id_token
assert id_token["acr"] == "aal2" and id_token["amr"] == ["hwk", "fpt", "mfa"], id_token
assert id_token["txn"], id_token
access = claims(token.access_token)
assert access["txn"] == id_token["txn"], access
assert access["authorization_details"][0]["creditorName"] == "Merchant A", access
assert token.refresh_token, token
step(f"txn {id_token['txn']} in both tokens, the payment in the access token")

userinfo = client.userinfo(token)
assert userinfo["sub"] == id_token["sub"], userinfo
step("userinfo")

refreshed = client.refresh_token(token.refresh_token)
assert refreshed.access_token, refreshed
step("refresh")
