#!/usr/bin/env python3
"""A stand-in for APNs, FCM HTTP v1 and Google's OAuth token endpoint, over HTTP/2 and TLS (h2 from PyPI), for tests.

Usage: push_server.py DIR [--behaviours FILE] [--token-expires-in SECONDS]

Makes a test certificate authority and a certificate for 127.0.0.1 and localhost with openssl (DIR/ca.pem, the one to
trust; DIR/server.pem, DIR/server.key), listens on a free port of 127.0.0.1 (ALPN h2 only), prints
`push-server listening https://127.0.0.1:PORT` and serves until its standard input closes or it is stopped. Every
request is appended to DIR/requests.jsonl, before it is answered, as one JSON line
{"method", "path", "authority", "headers": {name: value}, "body": text, "alpn": the protocol TLS agreed on}.

Routes:
  POST /3/device/TOKEN                       APNs
  POST /v1/projects/PROJECT/messages:send    FCM HTTP v1 (the device token is the body's message.token)
  POST /token[/BEHAVIOUR]                    the OAuth token endpoint: access tokens "ya29.test-N" (N counts from 1)
                                             with expires_in SECONDS (default 3600); BEHAVIOUR: refused (400
                                             invalid_grant), down (503), garbage (200, not JSON), slow (no answer)
A device token's behaviour comes from the behaviours file ({"TOKEN": "BEHAVIOUR"}); a token not named there is
accepted (200). Behaviours, as APNs / FCM answer them:
  ok                           200 / 200 {"name": "projects/P/messages/N"}
  bad-device-token             400 BadDeviceToken / 400 INVALID_ARGUMENT
  not-for-topic                400 DeviceTokenNotForTopic / 400 INVALID_ARGUMENT
  bad-topic                    400 BadTopic / 400 INVALID_ARGUMENT
  unregistered                 410 Unregistered / 404 NOT_FOUND with errorCode UNREGISTERED
  sender-id-mismatch           403 InvalidProviderToken / 403 PERMISSION_DENIED with errorCode SENDER_ID_MISMATCH
  permission-denied            403 InvalidProviderToken / 403 PERMISSION_DENIED without details
  expired-provider-token-once  403 ExpiredProviderToken the first time this token is sent to, then 200 (APNs)
  expired-provider-token       403 ExpiredProviderToken every time (APNs)
  unauthenticated-once         401 UNAUTHENTICATED the first time this token is sent to, then 200 (FCM)
  unauthenticated              401 every time (FCM)
  busy                         429 TooManyRequests / RESOURCE_EXHAUSTED, Retry-After: 1
  down                         503 ServiceUnavailable / UNAVAILABLE, no Retry-After
  slow                         no answer (the stream stays open)
  redirect                     302 to /elsewhere
"""
import argparse, asyncio, itertools, json, os, signal, ssl, subprocess, sys, time, urllib.parse

from h2.config import H2Configuration
from h2.connection import H2Connection
from h2.events import ConnectionTerminated, DataReceived, RequestReceived, StreamEnded, StreamReset
from h2.exceptions import ProtocolError

APNS_REASONS = {
    "bad-device-token": (400, "BadDeviceToken"),
    "not-for-topic": (400, "DeviceTokenNotForTopic"),
    "bad-topic": (400, "BadTopic"),
    "unregistered": (410, "Unregistered"),
    "sender-id-mismatch": (403, "InvalidProviderToken"),
    "permission-denied": (403, "InvalidProviderToken"),
    "expired-provider-token": (403, "ExpiredProviderToken"),
    "busy": (429, "TooManyRequests"),
    "down": (503, "ServiceUnavailable"),
}
FCM_ERRORS = {
    "bad-device-token": (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT"),
    "not-for-topic": (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT"),
    "bad-topic": (400, "INVALID_ARGUMENT", "INVALID_ARGUMENT"),
    "unregistered": (404, "NOT_FOUND", "UNREGISTERED"),
    "sender-id-mismatch": (403, "PERMISSION_DENIED", "SENDER_ID_MISMATCH"),
    "permission-denied": (403, "PERMISSION_DENIED", None),
    "unauthenticated": (401, "UNAUTHENTICATED", None),
    "busy": (429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED"),
    "down": (503, "UNAVAILABLE", "UNAVAILABLE"),
}


def make_certificates(directory):
    """A test CA and a server certificate it signs, for 127.0.0.1 and localhost (P-256 keys)."""
    def path(name):
        return os.path.join(directory, name)

    if os.path.exists(path("server.pem")):
        return
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = lambda *args: subprocess.run(["openssl", *args], check=True, capture_output=True)
    run("req", "-x509", *ec, "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2",
        "-subj", "/CN=Touchstone test push CA", "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1")
    with open(path("server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
        "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("server.ext"))


class PushService:
    """What every connection shares: the behaviours, the record file and the counters."""

    def __init__(self, record, behaviours, expires_in):
        self.record = record
        self.behaviours = behaviours
        self.expires_in = expires_in
        self.seen = {}
        self.access_tokens = itertools.count(1)
        self.messages = itertools.count(1)

    def answer(self, request):
        """(status, headers, body) for a request, or None for no answer."""
        with open(self.record, "a") as f:
            f.write(json.dumps(request) + "\n")
        path, method = request["path"], request["method"]
        if method != "POST":
            return 405, [], b""
        if path.startswith("/3/device/"):
            return self.apns(urllib.parse.unquote(path[len("/3/device/"):]))
        if path.startswith("/v1/projects/") and path.endswith("/messages:send"):
            try:
                token = json.loads(request["body"])["message"]["token"]
            except (ValueError, KeyError, TypeError):
                return 400, [], json_bytes({"error": {"code": 400, "status": "INVALID_ARGUMENT"}})
            return self.fcm(token, path)
        if path == "/token" or path.startswith("/token/"):
            return self.token(path[len("/token/"):] if path.startswith("/token/") else "ok", request["body"])
        return 404, [], b""

    def behaviour(self, service, token):
        behaviour = self.behaviours.get(token, "ok")
        if behaviour.endswith("-once"):
            key = (service, token)
            self.seen[key] = self.seen.get(key, 0) + 1
            return behaviour[:-len("-once")] if self.seen[key] == 1 else "ok"
        return behaviour

    def apns(self, token):
        behaviour = self.behaviour("apns", token)
        if behaviour == "slow":
            return None
        if behaviour == "redirect":
            return 302, [("location", "/elsewhere")], b""
        if behaviour in APNS_REASONS:
            status, reason = APNS_REASONS[behaviour]
            body = {"reason": reason}
            if status == 410:
                body["timestamp"] = int(time.time() * 1000)
            headers = [("retry-after", "1")] if behaviour == "busy" else []
            return status, headers, json_bytes(body)
        return 200, [("apns-id", "00000000-0000-4000-8000-000000000001")], b""

    def fcm(self, token, path):
        behaviour = self.behaviour("fcm", token)
        if behaviour == "slow":
            return None
        if behaviour == "redirect":
            return 302, [("location", "/elsewhere")], b""
        if behaviour in FCM_ERRORS:
            status, text, code = FCM_ERRORS[behaviour]
            error = {"code": status, "message": "Requested entity was not found.", "status": text}
            if code:
                error["details"] = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code}]
            headers = [("retry-after", "1")] if behaviour == "busy" else []
            return status, headers, json_bytes({"error": error})
        project = path[len("/v1/projects/"):-len("/messages:send")]
        return 200, [], json_bytes({"name": f"projects/{project}/messages/{next(self.messages)}"})

    def token(self, behaviour, body):
        form = urllib.parse.parse_qs(body)
        if behaviour == "slow":
            return None
        if behaviour == "down":
            return 503, [], b""
        if behaviour == "garbage":
            return 200, [], b"<html>not json</html>"
        if behaviour == "refused" or form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            return 400, [], json_bytes({"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
        token = f"ya29.test-{next(self.access_tokens)}"
        return 200, [], json_bytes({"access_token": token, "expires_in": self.expires_in, "token_type": "Bearer"})


def json_bytes(value):
    return json.dumps(value).encode()


class H2Server(asyncio.Protocol):
    def __init__(self, service):
        self.service = service
        self.connection = H2Connection(H2Configuration(client_side=False, header_encoding="utf-8"))
        self.requests = {}

    def connection_made(self, transport):
        self.transport = transport
        self.connection.initiate_connection()
        self.transport.write(self.connection.data_to_send())

    def data_received(self, data):
        try:
            events = self.connection.receive_data(data)
        except ProtocolError:
            self.transport.write(self.connection.data_to_send())
            self.transport.close()
            return
        for event in events:
            if isinstance(event, RequestReceived):
                self.requests[event.stream_id] = (event.headers, bytearray())
            elif isinstance(event, DataReceived):
                if event.stream_id in self.requests:
                    self.requests[event.stream_id][1].extend(event.data)
                self.connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, StreamEnded):
                self.respond(event.stream_id)
            elif isinstance(event, StreamReset):
                self.requests.pop(event.stream_id, None)
            elif isinstance(event, ConnectionTerminated):
                self.transport.close()
        self.transport.write(self.connection.data_to_send())

    def respond(self, stream_id):
        headers, body = self.requests.pop(stream_id)
        fields = dict(headers)
        request = {
            "method": fields.get(":method"), "path": fields.get(":path"), "authority": fields.get(":authority"),
            "headers": {name: value for name, value in headers if not name.startswith(":")},
            "body": body.decode("utf-8", "replace"),
            "alpn": self.transport.get_extra_info("ssl_object").selected_alpn_protocol(),
        }
        answer = self.service.answer(request)
        if answer is None:
            return
        status, extra, content = answer
        self.connection.send_headers(
            stream_id, [(":status", str(status)), ("content-length", str(len(content)))] + extra,
            end_stream=not content)
        if content:
            self.connection.send_data(stream_id, content, end_stream=True)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--behaviours")
    parser.add_argument("--token-expires-in", type=int, default=3600)
    arguments = parser.parse_args()
    make_certificates(arguments.directory)
    behaviours = json.load(open(arguments.behaviours)) if arguments.behaviours else {}
    service = PushService(os.path.join(arguments.directory, "requests.jsonl"), behaviours, arguments.token_expires_in)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(arguments.directory, "server.pem"), os.path.join(arguments.directory, "server.key"))
    context.set_alpn_protocols(["h2"])
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: H2Server(service), "127.0.0.1", 0, ssl=context)
    port = server.sockets[0].getsockname()[1]
    print(f"push-server listening https://127.0.0.1:{port}", flush=True)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    def stdin_readable():
        if not os.read(sys.stdin.fileno(), 4096):
            stop.set()

    loop.add_reader(sys.stdin.fileno(), stdin_readable)
    await stop.wait()
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
