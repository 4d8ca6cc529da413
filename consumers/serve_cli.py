"""``tablewatch serve``: the API, the console and every read model, in one process."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from prometheus_client import CollectorRegistry

from consumers.alerts import WEBHOOK_ENV, serve_alerter
from consumers.serve import Service
from consumers.settings import Settings
from consumers.store_lease import SERVE, StoreLease
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``serve`` command."""
    serve = commands.add_parser(
        "serve",
        help="serve the API and the console, and keep every read model caught up, until stopped",
        description="Serve the JSON API (/api/, /openapi.json) and the console over HTTP, and "
        "keep every read model (findings, hand history, table state, win rates, reconciliation, "
        "the round index, the equipment view) caught up from the store, each fact read once, "
        "exactly once across restarts, and deliver the new alerts, beside the passes, to "
        f"KAFKA_BOOTSTRAP_SERVERS' alerts topic and ${WEBHOOK_ENV}, when set. /healthz, /readyz "
        "and /metrics are served beside them.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8090, help="HTTP port (default 8090)")
    serve.add_argument("--poll", type=float, default=1.0, help="seconds between passes (1)")
    serve.add_argument(
        "--no-alerts", action="store_true",
        help="deliver no alerts (when `tablewatch alerts --follow` runs beside it instead)",
    )  # fmt: skip
    serve.add_argument(
        "--rebuild-views", action="store_true",
        help="first empty every read model's view, to be judged again from the stored facts "
        "(after a rules engine changed); done once this serve holds the store, after any "
        "serve already running stops",
    )  # fmt: skip
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from consumers.web.app import create_app  # the web's imports, only for this command
    from consumers.web.server import Served, mount_health

    settings = Settings.from_env()
    store = open_store(settings)
    print(f"store: {store.config.describe()}", file=sys.stderr)
    lease = StoreLease(store)
    if not lease.try_acquire():  # a standby: it serves the console on the other's views
        print(f"waiting: {SERVE.holder} holds this store ({lease.describe()}); "
              "this one serves the console and the API on its views, and judges when it "
              "stops", file=sys.stderr)  # fmt: skip
    with contextlib.ExitStack() as stack:
        registry = CollectorRegistry()
        alerter = None if args.no_alerts else serve_alerter(settings, store, stack, registry)
        service = Service(
            store,
            registry=registry,
            processes=settings.serve_processes,
            split_backlog=settings.split_backlog,
            batch=settings.pass_batch,
            alerter=alerter,
            lease=lease,
            rebuild_views=args.rebuild_views,
        )
        app = create_app(settings, store=store)
        mount_health(app, service)
        served = Served(app, service, args.host, args.port, args.poll)
        print(f"console and API on http://{args.host}:{args.port}/ (health: /readyz)",
              file=sys.stderr)  # fmt: skip
        served.run()
    return 0
