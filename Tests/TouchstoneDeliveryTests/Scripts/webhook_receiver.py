#!/usr/bin/env python3
"""A webhook receiver for tests: HTTP/1.1 (over TLS with --tls), verifying every delivery with the Standard Webhooks
package from PyPI (standardwebhooks, installed by scripts/test), a library nobody here wrote.

Usage: webhook_receiver.py DIR [--tls]

Listens on a free port of 127.0.0.1, prints `webhook-receiver listening http[s]://127.0.0.1:PORT` and serves until its
standard input closes or it is stopped. With --tls it makes a test CA and a certificate for 127.0.0.1 and localhost as
push_server.py does (DIR/ca.pem is the one to trust).

Every request is appended to DIR/requests.jsonl, before it is answered, as one JSON line
{"method", "path", "headers": {lower-case name: value}, "body": text, "sni", "verified", "answered", "at"}: `sni` is the
server name the client sent in TLS (null without one, or without TLS); `verified` is
true when standardwebhooks.Webhook(secret).verify(body, headers) accepted it with the secret DIR/secrets.json names
for the path ({"/path": "whsec_…"}, read at each request), the verifier's error text when it refused it, and null when
no secret is named; `answered` is what the receiver answered; `at` its Unix time.

Answers come from DIR/answers.json ({"/path": [ANSWER, …]}, read at each request): a path's Nth request gets its Nth
answer, the last one again after them; a path not named is answered 200. ANSWER is a status ("200", "503", "410"),
optionally with " retry-after=SECONDS"; "302" answers a redirect to /elsewhere; "slow" answers nothing for 60 s.
"""
import argparse, http.server, json, os, ssl, sys, threading, time

from standardwebhooks import Webhook

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from push_server import make_certificates  # noqa: E402


class Receiver:
    def __init__(self, directory):
        self.directory = directory
        self.lock = threading.Lock()
        self.counts = {}

    def read(self, name):
        try:
            with open(os.path.join(self.directory, name)) as f:
                return json.load(f)
        except FileNotFoundError:
            return {}

    def answer_for(self, path):
        with self.lock:
            index = self.counts.get(path, 0)
            self.counts[path] = index + 1
        answers = self.read("answers.json").get(path) or ["200"]
        return answers[min(index, len(answers) - 1)]

    def verify(self, path, headers, body):
        secret = self.read("secrets.json").get(path)
        if secret is None:
            return None
        try:
            Webhook(secret).verify(body, headers)
            return True
        except Exception as error:  # the verifier's refusal, recorded for the test to read
            return f"{type(error).__name__}: {error}"

    def record(self, request):
        with self.lock:
            with open(os.path.join(self.directory, "requests.jsonl"), "a") as f:
                f.write(json.dumps(request) + "\n")


def handler(receiver):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            self.handle_request()

        def do_GET(self):
            self.handle_request()

        def handle_request(self):
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace")
            headers = {name.lower(): value for name, value in self.headers.items()}
            answer = receiver.answer_for(self.path)
            receiver.record({
                "method": self.command, "path": self.path, "headers": headers, "body": body,
                "sni": getattr(self.connection, "server_name_sent", None),
                "verified": receiver.verify(self.path, headers, body), "answered": answer, "at": time.time(),
            })
            if answer == "slow":
                time.sleep(60)
                return
            status, _, retry_after = answer.partition(" retry-after=")
            self.send_response(int(status))
            if retry_after:
                self.send_header("retry-after", retry_after)
            if status.startswith("3"):
                self.send_header("location", "/elsewhere")
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *arguments):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--tls", action="store_true")
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(Receiver(arguments.directory)))
    server.daemon_threads = True
    scheme = "http"
    if arguments.tls:
        make_certificates(arguments.directory)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(
            os.path.join(arguments.directory, "server.pem"), os.path.join(arguments.directory, "server.key"))
        context.sni_callback = lambda connection, name, _: setattr(connection, "server_name_sent", name)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    print(f"webhook-receiver listening {scheme}://127.0.0.1:{server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    while os.read(sys.stdin.fileno(), 4096):
        pass
    server.shutdown()


if __name__ == "__main__":
    main()
