"""Build the alerts tests' parts: a tampered shift (a fixture), a store with its findings, and
a local webhook receiver (a fixture)."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from eventsourcing.persistence import Tracking

from audit.findings.finding import Finding, Severity
from audit.store.application import FactStore
from audit.store.ingest import Accepted, Ingestor
from consumers.alerts import FINDING_ID_HEADER
from consumers.kafka_io import PartitionReader
from projections.findings import FindingsProjection, open_findings_view
from projections.findings_view import FindingFilter

AN_INFO_FINDING = Finding(
    code="TEST-INFO",
    severity=Severity.INFO,
    rule="-",
    title="a note for the record only",
    table_id="PG-00",
    round_id=None,
    position=None,
    dealer_id=None,
    recorded="noted",
    expected="noted",
)


def ingest(store, events, start=0):
    Ingestor(store).record_batch(
        [Accepted(e, f"t@{start + i}") for i, e in enumerate(events)],
        "test",
        start + len(events) - 1,
    )


def store_with_findings(config, events):
    """Return a store holding ``events``, its findings judged, an info finding written first."""
    store = FactStore(config)
    view = open_findings_view(store)
    # The catalogue has no info kind yet, so one is written through the view itself.
    view.record([(AN_INFO_FINDING, 0)], Tracking("test-info", 1))
    ingest(store, events)
    FindingsProjection(store, view).catch_up()
    return store, view


def reopen(config):
    """Return a store and its findings view, as a restarted process opens them.

    The view borrows the store's connection pool: keep the store referenced.
    """
    store = FactStore(config)
    return store, open_findings_view(store)


def warnings(view):
    return view.select(FindingFilter(min_severity=Severity.WARNING))


class Hook:
    """A local webhook receiver: records every request, answers from a script, then 200."""

    def __init__(self):
        self.requests = []
        self.script = []  # (status, headers, delay_s) answers, given in order before 200s
        self.lock = threading.Lock()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with hook.lock:
                    status, headers, delay = hook.script.pop(0) if hook.script else (200, {}, 0)
                    hook.requests.append((dict(self.headers), body, status))
                time.sleep(delay)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/alerts?token=s3cret"

    def answer(self, status, headers=None, delay_s=0.0):
        self.script.append((status, headers or {}, delay_s))

    def accepted(self):
        """Return the finding ids of the requests answered 2xx, in order."""
        return [body["finding_id"] for _, body, status in self.requests if status < 300]

    def keys(self):
        return [headers["Idempotency-Key"] for headers, _, _ in self.requests]


def read_topic(bootstrap, topic, deadline_s=10.0):
    """Return every record on the topic, reading until the end offsets are reached."""
    records = []
    deadline = time.monotonic() + deadline_s
    with PartitionReader(bootstrap, topic) as reader:
        while time.monotonic() < deadline:
            batch = reader.poll_batch(timeout_ms=300)
            records += batch
            if not batch and all(
                reader.positions()[p] >= end for p, end in reader.end_offsets().items()
            ):
                break
    return records


def finding_ids(records):
    """Return the finding ids of alert records, in order."""
    return [r.header(FINDING_ID_HEADER).decode() for r in records]
