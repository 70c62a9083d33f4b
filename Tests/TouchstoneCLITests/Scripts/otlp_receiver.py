#!/usr/bin/env python3
"""An OpenTelemetry collector's stand-in for tests: OTLP/HTTP with protobuf bodies, decoded with the
opentelemetry-proto package from PyPI (installed by scripts/test), code nobody here wrote.

Usage: otlp_receiver.py DIR

Listens on a free port of 127.0.0.1, prints `otlp-receiver listening http://127.0.0.1:PORT` and serves until its
standard input closes or it is stopped.

Every request is appended to DIR/requests.jsonl as {"method", "path", "contentType", "at"} before it is answered. A
`POST /v1/traces` whose body is an ExportTraceServiceRequest is answered 200 with an empty ExportTraceServiceResponse
(application/x-protobuf), and each of its spans appended to DIR/spans.jsonl as one JSON line:
{"traceId", "spanId", "parentSpanId" (lower-case hex, "" for none), "name", "kind" (SERVER, CLIENT, INTERNAL, …),
"attributes": {key: value}, "events": [{"name", "attributes"}], "status" (UNSET, OK, ERROR), "statusMessage",
"resource": {key: value}, "scope"}. Anything else is answered 400 (a body that does not decode) or 404.
"""
import http.server, json, os, sys, threading, time

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest, ExportTraceServiceResponse)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status


def value(any_value):
    """An AnyValue as JSON."""
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(item) for item in any_value.array_value.values]
    if kind == "kvlist_value":
        return attributes(any_value.kvlist_value.values)
    if kind == "bytes_value":
        return any_value.bytes_value.hex()
    return getattr(any_value, kind) if kind else None


def attributes(key_values):
    return {kv.key: value(kv.value) for kv in key_values}


def spans(request):
    for resource_spans in request.resource_spans:
        resource = attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield {
                    "traceId": span.trace_id.hex(),
                    "spanId": span.span_id.hex(),
                    "parentSpanId": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": Span.SpanKind.Name(span.kind).removeprefix("SPAN_KIND_"),
                    "attributes": attributes(span.attributes),
                    "events": [{"name": event.name, "attributes": attributes(event.attributes)} for event in span.events],
                    "status": Status.StatusCode.Name(span.status.code).removeprefix("STATUS_CODE_"),
                    "statusMessage": span.status.message,
                    "resource": resource,
                    "scope": scope_spans.scope.name,
                }


def handler(directory, lock):
    def append(name, lines):
        with lock:
            with open(os.path.join(directory, name), "a") as f:
                for line in lines:
                    f.write(json.dumps(line) + "\n")

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            append("requests.jsonl", [{"method": "POST", "path": self.path,
                                       "contentType": self.headers.get("content-type"), "at": time.time()}])
            if self.path != "/v1/traces":
                return self.answer(404, "text/plain", b"not found")
            try:
                request = ExportTraceServiceRequest.FromString(body)
            except Exception as error:  # a body that is not the message: the test reads the 400
                return self.answer(400, "text/plain", str(error).encode())
            append("spans.jsonl", list(spans(request)))
            self.answer(200, "application/x-protobuf", ExportTraceServiceResponse().SerializeToString())

        def do_GET(self):
            append("requests.jsonl", [{"method": "GET", "path": self.path, "contentType": None, "at": time.time()}])
            self.answer(404, "text/plain", b"not found")

        def answer(self, status, content_type, body):
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def main():
    directory = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler(directory, threading.Lock()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"otlp-receiver listening http://127.0.0.1:{server.server_address[1]}", flush=True)
    # Ends with the test process: its standard input closes.
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
