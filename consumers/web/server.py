"""One process for ``tablewatch serve``: the web app on uvicorn beside the projection loop.

The read models' loop (``consumers/serve.py``) runs on a thread of its own, pass after
pass; uvicorn serves the API and the console on the main thread and handles SIGTERM
and SIGINT, after which the loop is asked to stop and finishes its pass. The app also
answers the probes the service always had: ``/healthz``, ``/readyz`` (the last pass
succeeded, else 503 with the reason) and ``/metrics`` (Prometheus), without a session.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from consumers.serve import Service

log = logging.getLogger(__name__)


def mount_health(app: FastAPI, service: Service) -> None:
    """Answer /healthz, /readyz and /metrics from the service, as consumers/health.py does."""

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> Response:
        return PlainTextResponse("ok\n")

    @app.get("/readyz", include_in_schema=False)
    def readyz() -> Response:
        health = service.health
        return PlainTextResponse(f"{health.reason}\n", status_code=200 if health.ready else 503)

    @app.get("/metrics", include_in_schema=False)
    def metrics() -> Response:
        return Response(generate_latest(service.registry), media_type=CONTENT_TYPE_LATEST)


class _Server(uvicorn.Server):
    """uvicorn, stopping on SIGTERM or SIGINT without raising the signal again afterwards.

    uvicorn re-raises a captured signal once it has shut down, which would kill the
    process before the read models' loop finishes its pass: here the signal only asks
    the server to stop (a second one forces it), and the command then exits 0.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in _SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Served:
    """The projection loop on a thread and the web app on uvicorn, started and stopped together."""

    def __init__(self, app: FastAPI, service: Service, host: str, port: int, poll_s: float) -> None:
        self.service = service
        self._stop = threading.Event()
        self._loop = threading.Thread(
            target=service.run,
            args=(self._stop.is_set, poll_s),
            name="tablewatch-read-models",
            daemon=True,
        )
        config = uvicorn.Config(
            app, host=host, port=port, log_level="warning", access_log=False, server_header=False
        )
        self.server = _Server(config)

    def run(self) -> None:
        """Serve until SIGTERM or SIGINT, then stop the loop after its pass.

        Pai Gow's house-way tables are not built first: each works out a deal on its first
        lookup (audit/games/paigow/deals.py), so a first replay waits microseconds for them.
        """
        self._loop.start()
        try:
            self.server.run()
        finally:
            self._stop.set()
            self._loop.join(timeout=60)
