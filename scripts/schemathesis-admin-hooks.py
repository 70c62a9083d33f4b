"""Schemathesis hooks for the admin API's run of scripts/schemathesis (admin-openapi.yaml).

Loaded by `st run` (SCHEMATHESIS_HOOKS). The credential is a write admin token made by `touchstone admin token create`
and sent as `Authorization: Bearer` (`-H`), so Schemathesis knows it as the operations' own and also checks that they
refuse requests without it.

A webhook's URL is any https URL for the document, but the server resolves a new webhook's host (a link-local address
is refused) and then delivers to it: a generated host would send the run's traffic off this machine. Every URL a case
sends to `POST /admin/v1/webhooks` is therefore replaced by one on the loopback address where nothing listens (port
9, discard): the server's URL rules are tested by the Swift tests, the answers' shapes and codes here.
"""
import schemathesis

LOOPBACK_WEBHOOK = "http://127.0.0.1:9/schemathesis"


@schemathesis.hook
def before_call(context, case, **kwargs):
    operation = case.operation
    if operation.method.upper() == "POST" and operation.path == "/admin/v1/webhooks" and isinstance(case.body, dict) \
            and isinstance(case.body.get("url"), str):
        case.body["url"] = LOOPBACK_WEBHOOK
