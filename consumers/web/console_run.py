"""The end of ``make run``: the run's store served, with a first analyst and auditor.

The console's address and the two users' credentials are the last lines printed; the
passwords are generated for this run's store and shown once. The process then serves
until Ctrl-C, keeping the read models caught up as ``tablewatch serve`` does.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import TextIO

from prometheus_client import CollectorRegistry

from audit.store.application import FactStore
from consumers.alerts import serve_alerter
from consumers.serve import Service
from consumers.settings import Settings
from consumers.store_lease import SERVE, StoreLease
from consumers.web.api.users import generated_password
from consumers.web.app import create_app
from consumers.web.auth import add_user, list_users
from consumers.web.server import Served, mount_health

FIRST_USERS = (("analyst", "analyst"), ("auditor", "auditor"))
"""Name and role of each first user: the findings, replay and cases; the reports."""
HOST = "127.0.0.1"


def free_port(preferred: int) -> int:
    """Return ``preferred`` if it can be bound on the loopback, else a free port."""
    with socket.socket() as sock:
        try:
            sock.bind((HOST, preferred))
        except OSError:
            sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def serve_run(settings: Settings, store: FactStore, port: int, out: TextIO) -> None:
    """Serve the run's store, printing the console's URL and the first users' credentials.

    Alerts go where ``tablewatch serve`` sends them: with ``TABLEWATCH_WEBHOOK_URL`` set, each
    pass's new ones are POSTed there (the dev broker's topics end with the run, so no topic
    leg)."""
    with contextlib.ExitStack() as stack:
        app = create_app(settings, store=store)
        registry = CollectorRegistry()
        alerter = serve_alerter(settings, store, stack, registry, unset_level=logging.INFO)
        lease = StoreLease(store)
        if not lease.try_acquire():  # a deployed serve keeps this store: the console reads it
            print(f"{SERVE.holder} keeps this store's views ({lease.describe()}): "
                  "the console reads them, and this run judges nothing until it stops",
                  file=out)  # fmt: skip
        service = Service(store, registry=registry, alerter=alerter, lease=lease)
        mount_health(app, service)
        known = {user["name"] for user in list_users(app.state.db)}
        credentials = []
        for name, role in FIRST_USERS:
            if name in known:  # PostgreSQL keeps users across runs: they have their passwords
                continue
            password = generated_password()
            add_user(app.state.db, name, role, password)
            credentials.append((name, role, password))
        chosen = free_port(port)
        served = Served(app, service, HOST, chosen, 1.0)
        print(file=out)
        print(f"console: http://{HOST}:{chosen}/  (Ctrl-C to stop)", file=out)
        for name, role, password in credentials:
            print(f"  {role}: user {name}, password {password}", file=out)
        out.flush()
        served.run()
