"""``tablewatch serve``: keep every read model caught up, with health and metrics over HTTP."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from consumers.kafka_io import StopFlag
from consumers.serve import Service, health_server
from consumers.settings import Settings
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``serve`` command."""
    serve = commands.add_parser(
        "serve",
        help="keep every read model caught up from the store, until stopped",
        description="Keep every read model (findings, hand history, table state, win rates, "
        "reconciliation, the round index) caught up from the store, each fact read once, "
        "exactly once across restarts. /healthz, /readyz and /metrics are served over HTTP.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8090, help="HTTP port (default 8090)")
    serve.add_argument("--poll", type=float, default=1.0, help="seconds between passes (1)")
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    store = open_store(Settings.from_env())
    print(f"store: {store.config.describe()}", file=sys.stderr)
    service = Service(store)
    server = health_server(service, args.host, args.port)
    print(f"health on http://{args.host}:{server.server_port}/readyz", file=sys.stderr)
    try:
        with StopFlag() as stop:
            service.run(stop.is_set, poll_s=args.poll)
    finally:
        server.shutdown()
    return 0
