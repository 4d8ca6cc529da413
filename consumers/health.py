"""The HTTP face of a long-running process: ``/healthz``, ``/readyz`` and ``/metrics``.

``/healthz`` answers while the process lives; ``/readyz`` says whether it is doing its
work (503 with the reason when not); ``/metrics`` is Prometheus's exposition of the
process's registry. Served on a daemon thread beside the process's own loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

Ready = Callable[[], tuple[bool, str]]
"""Whether the process is doing its work, and why (not)."""


def serve_health(
    ready: Ready, registry: CollectorRegistry, host: str, port: int
) -> ThreadingHTTPServer:
    """Return a started HTTP server for /healthz, /readyz and /metrics (serving on a thread)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/healthz":
                self._answer(200, b"ok\n", "text/plain")
            elif self.path == "/readyz":
                working, reason = ready()
                self._answer(200 if working else 503, f"{reason}\n".encode(), "text/plain")
            elif self.path == "/metrics":
                self._answer(200, generate_latest(registry), CONTENT_TYPE_LATEST)
            else:
                self._answer(404, b"not found\n", "text/plain")

        def _answer(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass  # a probe every few seconds is not news

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, name="tablewatch-health", daemon=True).start()
    return server
