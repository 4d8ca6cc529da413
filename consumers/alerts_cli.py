"""``tablewatch alerts``: new findings at warning or above to the alerts topic and a webhook."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from consumers.alert_metrics import DeliveryMetrics
from consumers.alerts import WEBHOOK_ENV, run_alerts
from consumers.health import serve_health
from consumers.readiness import Readiness
from consumers.settings import Settings
from consumers.wiring import open_store


def register(commands: Any) -> None:
    """Add the ``alerts`` command."""
    alerts = commands.add_parser(
        "alerts", help="send new findings at warning or above to Kafka and a webhook"
    )
    alerts.add_argument(
        "--webhook",
        metavar="URL",
        help=f"also POST each alert here as JSON (default: ${WEBHOOK_ENV}, if set)",
    )
    alerts.add_argument(
        "--follow", action="store_true", help="keep watching for new findings until stopped"
    )
    alerts.add_argument(
        "--health-port", type=int, metavar="PORT",
        help="serve /healthz, /readyz and /metrics (deliveries per sink) here",
    )  # fmt: skip
    alerts.add_argument("--health-host", default="127.0.0.1", help="their address (127.0.0.1)")
    alerts.set_defaults(handler=_alerts)


def _alerts(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    webhook_url = args.webhook or os.environ.get(WEBHOOK_ENV, "").strip() or None
    store = open_store(settings)
    print(f"store: {store.config.describe()}", file=sys.stderr)
    metrics, readiness = DeliveryMetrics(), Readiness()
    with contextlib.ExitStack() as stack:
        if args.health_port is not None:

            def ready() -> tuple[bool, str]:
                state = readiness.state
                why = "delivering alerts" if state.ready else (state.last_error or "starting")
                return state.ready, why

            server = serve_health(ready, metrics.registry, args.health_host, args.health_port)
            stack.callback(server.shutdown)
        sent = run_alerts(settings, store, webhook_url=webhook_url, follow=args.follow,
                          metrics=metrics, readiness=readiness)  # fmt: skip
    legs = [settings.alerts_topic] if settings.kafka_bootstrap_servers else []
    legs += ["the webhook"] if webhook_url else []
    print(f"sent {sent:,} alerts to {' and '.join(legs)}")
    return 0
