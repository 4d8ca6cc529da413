"""``tablewatch serve``: one long-running process that keeps every read model caught up.

Every pass reads the facts stored since the read model furthest behind, parses each
once and feeds every read model (``projections/together.py``); each writes its rows
with its position in one transaction, so the service is exactly once across a kill at
any point, and a restart goes on from the stored positions; a graceful stop (SIGTERM,
Ctrl-C) first stores each read model's state at its position, so a planned restart
replays no fact. A database fault is
retried with a back-off, logged, and makes the service not ready; the read models are
then opened afresh from what is stored, since what they had applied but not written
is gone with the failed transaction.

Beside the loop, a small HTTP server (``consumers/health.py``) answers ``/healthz``,
``/readyz`` (the last pass succeeded) and ``/metrics`` (Prometheus text: each read
model's lag behind the store, rows written, passes, failures, the last good pass).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import ThreadingHTTPServer

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
)

from audit.store.application import FactStore
from consumers.health import serve_health
from projections.equipment_stats import EquipmentStatsProjection
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.together import catch_up_together, rest_together
from projections.win_rates import WinRatesProjection

log = logging.getLogger(__name__)

READ_MODELS: tuple[Callable[[FactStore], FactProjection], ...] = (
    FindingsProjection,
    HandHistoryProjection,
    TableStateProjection,
    WinRatesProjection,
    ReconciliationProjection,
    RoundIndexProjection,
    EquipmentStatsProjection,
)
"""Every read model the service keeps caught up."""

DATABASE_FAULTS = (psycopg.OperationalError, OperationalError, InterfaceError)
"""Errors of a database that went away: retried. Anything else is a defect and stops."""

MAX_BACKOFF_S = 30.0


@dataclass
class Health:
    """What ``/readyz`` reports: whether the last pass succeeded, and if not, why."""

    ready: bool = False
    reason: str = "starting"


class Service:
    """Keeps every read model of one store caught up, pass after pass."""

    def __init__(self, store: FactStore, registry: CollectorRegistry | None = None) -> None:
        self.store = store
        self.health = Health()
        self.registry = registry or CollectorRegistry()
        self.read_models: Sequence[FactProjection] = self._open()
        self._lag = Gauge("tablewatch_read_model_lag", "stored events a read model has yet to "
                          "apply", ["read_model"], registry=self.registry)  # fmt: skip
        self._rows = Counter("tablewatch_read_model_rows_written", "rows the read models wrote",
                             registry=self.registry)  # fmt: skip
        self._passes = Counter("tablewatch_serve_passes", "catch-up passes", ["outcome"],
                               registry=self.registry)  # fmt: skip
        self._last_good = Gauge("tablewatch_serve_last_good_pass_timestamp_seconds",
                                "when the last pass succeeded", registry=self.registry)  # fmt: skip

    def _open(self) -> list[FactProjection]:
        return [kind(self.store) for kind in READ_MODELS]

    def run_pass(self, stopped: Callable[[], bool] = lambda: False) -> int:
        """Bring every read model up to date once (or until ``stopped``, at a batch's end);
        return the rows written."""
        written = catch_up_together(self.read_models, stopped=stopped)
        last = self.store.last_notification_id()
        for model in self.read_models:
            self._lag.labels(model.tracking_name).set(last - model.position)
        self._rows.inc(written)
        self._passes.labels("ok").inc()
        self._last_good.set_to_current_time()
        self.health = Health(ready=True, reason="caught up")
        return written

    def run(self, stopped: Callable[[], bool], poll_s: float = 1.0) -> None:
        """Pass after pass until ``stopped``; a database fault is retried with a back-off."""
        failures = 0
        while not stopped():
            try:
                self.run_pass(stopped)
                failures = 0
                delay = poll_s
            except DATABASE_FAULTS as error:
                failures += 1
                delay = min(poll_s * 2**failures, MAX_BACKOFF_S)
                self._passes.labels("failed").inc()
                self.health = Health(ready=False, reason=f"database: {error}".strip())
                reason = str(error).strip() or type(error).__name__
                log.warning("read models: the database failed (%s); retry %d in %.1fs",
                            reason, failures, delay)  # fmt: skip
                self.read_models = self._reopen()
            _sleep_unless(stopped, delay)
        self.rest()

    def rest(self) -> int:
        """On a graceful stop, store every read model's state at its position, so the next
        start replays nothing; a database that is down leaves the checkpoints as they were
        (a start then replays at most ``checkpoint_every`` facts). Return how many were stored."""
        try:
            stored = rest_together(self.read_models)
        except DATABASE_FAULTS as error:
            log.warning("read models: stopping without storing their state (%s)", error)
            return 0
        log.info("read models: state stored for %d of %d on stopping", stored,
                 len(self.read_models))  # fmt: skip
        return stored

    def _reopen(self) -> Sequence[FactProjection]:
        """Open the read models afresh from what is stored, or keep them while it cannot."""
        try:
            return self._open()
        except DATABASE_FAULTS:
            return self.read_models  # still down: the next pass fails and tries again


def _sleep_unless(stopped: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not stopped() and time.monotonic() < deadline:
        time.sleep(min(0.1, seconds))


def health_server(service: Service, host: str, port: int) -> ThreadingHTTPServer:
    """Return a started HTTP server for the service's /healthz, /readyz and /metrics."""

    def ready() -> tuple[bool, str]:
        return service.health.ready, service.health.reason

    return serve_health(ready, service.registry, host, port)
