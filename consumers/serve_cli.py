"""``tablewatch serve``: the API, the console and every read model, in one process."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from consumers.serve import Service
from consumers.settings import Settings
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``serve`` command."""
    serve = commands.add_parser(
        "serve",
        help="serve the API and the console, and keep every read model caught up, until stopped",
        description="Serve the JSON API (/api/, /openapi.json) and the console over HTTP, and "
        "keep every read model (findings, hand history, table state, win rates, reconciliation, "
        "the round index) caught up from the store, each fact read once, exactly once across "
        "restarts. /healthz, /readyz and /metrics are served beside them.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8090, help="HTTP port (default 8090)")
    serve.add_argument("--poll", type=float, default=1.0, help="seconds between passes (1)")
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from consumers.web.app import create_app  # the web's imports, only for this command
    from consumers.web.server import Served, mount_health

    settings = Settings.from_env()
    store = open_store(settings)
    print(f"store: {store.config.describe()}", file=sys.stderr)
    service = Service(
        store,
        processes=settings.serve_processes,
        split_backlog=settings.split_backlog,
        batch=settings.pass_batch,
    )
    app = create_app(settings, store=store)
    mount_health(app, service)
    served = Served(app, service, args.host, args.port, args.poll)
    print(f"console and API on http://{args.host}:{args.port}/ (health: /readyz)", file=sys.stderr)
    served.run()
    return 0
