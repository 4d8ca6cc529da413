"""``tablewatch serve``: one long-running process that keeps every read model caught up.

Every pass reads the facts stored since the read model furthest behind, parses each
once and feeds every read model (``projections/together.py``); each writes its rows
with its position in one transaction, so the service is exactly once across a kill at
any point, and a restart goes on from the stored positions; a graceful stop (SIGTERM,
Ctrl-C) first stores each read model's state at its position, so a planned restart
replays no fact. A database fault is
retried with a back-off, logged, and makes the service not ready; the read models are
then opened afresh from what is stored, since what they had applied but not written
is gone with the failed transaction. A read model that raises on a fact (a defect) stops
alone, with the one it shares state with, if any (``projections/together.py``): the others,
the findings and their alerts among them, go on, and it is opened afresh and tried again after
a back-off of its own, logged with its traceback and named on ``/readyz`` until a pass takes
it through. Any other defect (a stored fact the catalogue can no longer read) holds every
pass the same way. The service stays up either way, serving the console on the views as they
stand, never a loop that ended behind a ``/readyz`` still reading "caught up".

With a destination for alerts (``KAFKA_BOOTSTRAP_SERVERS``, a webhook), a thread beside the
passes delivers the new findings at warning or above every poll (``consumers/alerts.py``'s
legs, with their own positions): an alert goes out within a poll of the pass that judged it.
A failing webhook holds its leg and backs off; a broker that refuses an alert leaves the
topic leg where it stood until the next try. Neither stops nor slows the read models or the
console: ``/readyz`` stays up and names the held leg, and the alerts' own metrics say how far
each leg stands behind.

One service judges a store at a time: it holds the store's lease (``consumers/store_lease.py``)
before it writes anything, and a second stands by, serving the console on the first one's views,
not ready, until it can take the lease. ``serve --rebuild-views`` empties every view once the
lease is held, to judge history again (``consumers/rebuild_views.py``). A command that reads the
views (``findings``, ``report``...) catches them up itself only when it can take that lease
(``consumers/view_reads.py``); should a view be written all the same by a process that took
none, the pass that finds its position taken opens the read models afresh from what is stored
and goes on, rather than ending the service.

Beside the loop, a small HTTP server (``consumers/health.py``) answers ``/healthz``,
``/readyz`` (the last pass succeeded) and ``/metrics`` (Prometheus text: each read
model's lag behind the store, rows written, passes, failures, the last good pass). The lag
is read from the store at each scrape (:class:`StoredLag`), so a long pass shows its
progress batch by batch, in either process of a split.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from http.server import ThreadingHTTPServer

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from audit.store.application import FactStore
from consumers.alerts import Alerter
from consumers.health import serve_health
from consumers.rebuild_views import rebuild_views
from consumers.store_lease import ALERTS, SERVE, StoreLease
from projections.fact_projection import FactProjection
from projections.read_models import KEPT_HERE, READ_MODELS, stored_lags
from projections.split import DATABASE_FAULTS, SPLIT_BACKLOG, VIEW_CONFLICTS, catch_up_split
from projections.together import (
    PASS_BATCH,
    ReadModelDefect,
    catch_up_together,
    rest_together,
)

log = logging.getLogger(__name__)

MAX_BACKOFF_S = 30.0
DELIVERY_WAIT_S = 1.0
"""How long a rebuild waits at a time for this service's alert delivery in flight."""


@dataclass
class Health:
    """What ``/readyz`` reports: whether the last pass succeeded, and if not, why."""

    ready: bool = False
    reason: str = "starting"


class Service:
    """Keeps every read model of one store caught up, pass after pass."""

    def __init__(
        self,
        store: FactStore,
        registry: CollectorRegistry | None = None,
        processes: int = 1,
        split_backlog: int = SPLIT_BACKLOG,
        batch: int = PASS_BATCH,
        alerter: Alerter | None = None,
        lease: StoreLease | None = None,
        rebuild_views: bool = False,
    ) -> None:
        """``processes``: 2 lets a pass with a backlog of ``split_backlog`` stored events or
        more run in two processes (projections/split.py); 1 keeps every pass in this one.
        ``batch``: stored events a pass applies between two writes. ``alerter``: delivers
        the new alerts at each pass's end (None: no destination, or ``serve --no-alerts``).
        ``lease``: the store's one-service lease, taken already (``consumers/store_lease.py``):
        no pass, delivery or stored state while another service holds it (this one then serves
        as a standby, taking the lease when it is free). ``rebuild_views``: empty every view
        first, once the lease is held (``consumers/rebuild_views.py``)."""
        self.store = store
        self.lease = lease
        self.leased = lease is None or lease.held()
        """Whether the lease was held at the passes' last look: the alerts' thread delivers only
        then (written by the passes' thread only)."""
        self.rebuild_pending = rebuild_views
        """Whether the views are still to be emptied (``serve --rebuild-views``)."""
        self.alerter = alerter
        self.alerts_lease = None if alerter is None or lease is None else StoreLease(store, ALERTS)
        """Held by the alerts' thread while it delivers: one deliverer of a store's alerts."""
        self.alerts_held: str | None = None
        """Why an alert leg is held (None while every leg delivers)."""
        self._delivering = threading.RLock()
        """Held by a delivery from start to its positions written, and by a rebuild of the
        views: a rebuild's horizons must see every alert already sent (``_rebuild``)."""
        self.benched: dict[str, tuple[float, int, str]] = {}
        """Read models a defect stopped, by tracking name: when each is tried again (monotonic
        seconds), how many times it failed running, and what it raised."""
        self.processes = processes
        self.split_backlog = split_backlog
        self.batch = batch
        self.passes = Health()
        """How the last pass ended: written by the passes' thread only."""
        self.registry = registry or CollectorRegistry()
        self.read_models: Sequence[FactProjection] = self._open()
        self.registry.register(StoredLag(self))
        self._rows = Counter("tablewatch_read_model_rows_written", "rows the read models wrote",
                             registry=self.registry)  # fmt: skip
        self._passes = Counter("tablewatch_serve_passes", "catch-up passes", ["outcome"],
                               registry=self.registry)  # fmt: skip
        self._split = Counter("tablewatch_serve_split_passes", "catch-up passes split across "
                              "two processes", registry=self.registry)  # fmt: skip
        self._split_seconds = Gauge("tablewatch_serve_split_seconds", "wall seconds of the last "
                                    "split pass, by process: the longer bounds a rebuild",
                                    ["process"], registry=self.registry)  # fmt: skip
        self._last_good = Gauge("tablewatch_serve_last_good_pass_timestamp_seconds",
                                "when the last pass succeeded", registry=self.registry)  # fmt: skip
        Gauge("tablewatch_serve_lease_held", "1 while this service holds the store's lease and "
              "judges; 0 while it stands by for another", registry=self.registry,
              ).set_function(lambda: 1.0 if self.leased else 0.0)  # fmt: skip

    def _open(self) -> list[FactProjection]:
        return [kind(self.store) for kind in READ_MODELS]

    def run_pass(self, stopped: Callable[[], bool] = lambda: False) -> int:
        """Bring every read model up to date once (or until ``stopped``, at a batch's end);
        return the rows written."""
        due = self._due()
        if self._split_due():
            self._split.inc()
            written = self._split_pass(stopped)
        else:
            written = catch_up_together(due, self.batch, stopped=stopped)
        for model in due:  # through a pass: a read model stopped by a defect is back
            self.benched.pop(model.tracking_name, None)
        self._rows.inc(written)
        self._passes.labels("ok").inc()
        self._last_good.set_to_current_time()
        self.passes = self._benched_health() or Health(ready=True, reason="caught up")
        return written

    def _due(self) -> list[FactProjection]:
        """Return the read models a pass takes: all but those stopped by a defect whose next
        try is not due yet."""
        now = time.monotonic()
        return [m for m in self.read_models
                if self.benched.get(m.tracking_name, (0.0, 0, ""))[0] <= now]  # fmt: skip

    def _bench(self, defect: ReadModelDefect, poll_s: float) -> None:
        """Set the read models a defect stopped aside, each tried again after its own back-off
        (doubling up to :data:`MAX_BACKOFF_S`), and open them afresh from what is stored."""
        now = time.monotonic()
        for name, error in defect.errors.items():
            failures = self.benched.get(name, (0.0, 0, ""))[1] + 1
            wait = min(poll_s * 2**failures, MAX_BACKOFF_S)
            self.benched[name] = (now + wait, failures, _one_line(error))
        self.read_models = [
            kind(self.store) if model.tracking_name in defect.errors else model
            for kind, model in zip(READ_MODELS, self.read_models, strict=True)
        ]

    def _benched_health(self) -> Health | None:
        """Say which read models a defect stopped, while any is stopped."""
        if not self.benched:
            return None
        said = "; ".join(f"{name}: {why}" for name, (_, _, why) in sorted(self.benched.items()))
        return Health(ready=False, reason=f"read models stopped on a defect ({said}); tried "
                      "again, the others go on")  # fmt: skip

    @property
    def health(self) -> Health:
        """What ``/readyz`` reports: the last pass, and any alert leg held. Derived on each read
        from what each thread writes alone (the passes, the alerts' delivery), so the delivery
        thread can never report ready over a pass that failed."""
        passes, held = self.passes, self.alerts_held
        if not passes.ready or not held:
            return passes
        return Health(ready=True, reason=f"{passes.reason}; alerts held: {held}")

    def deliver_alerts(self) -> None:
        """Send the new alerts once. A leg that cannot deliver (a webhook down, a broker that
        refuses, its database gone) is held for the next delivery, logged and named on
        ``/readyz``, never raised: the read models, the console and the other leg go on."""
        alerter = self.alerter
        if alerter is None:
            return
        try:
            with self._delivering:
                alerter.publish_new()
        except Exception as error:  # held and said, on a thread of its own that must not end
            log.exception("alerts: delivery failed; tried again in a moment")
            self.alerts_held = f"{type(error).__name__}: {error}"
        else:
            held = [f"the alerts topic: {alerter.topic_error}"] if alerter.topic_error else []
            held += [f"the webhook: {alerter.webhook_error}"] if alerter.webhook_error else []
            self.alerts_held = "; ".join(held) or None

    def _deliver_until(self, stopped: Callable[[], bool], poll_s: float) -> None:
        # Its own thread: a slow webhook or a broker waiting out its timeout delays alerts,
        # never the read models' passes.
        try:
            while not stopped():
                with self._delivering:
                    if self.leased and self._may_deliver():
                        self.deliver_alerts()
                    elif not self.leased and self.alerts_lease is not None:
                        self.alerts_lease.release()  # a standby's: the judging service delivers
                _sleep_unless(stopped, poll_s)
        finally:
            if self.alerts_lease is not None:
                self.alerts_lease.release()

    def _may_deliver(self) -> bool:
        """Return whether this service holds the store's alerts lease, taking it if it is free;
        while another process (``tablewatch alerts --follow``) holds it, say so on ``/readyz``."""
        lease = self.alerts_lease
        if lease is None or lease.held():
            return True
        try:
            taken = lease.try_acquire()
        except DATABASE_FAULTS as error:  # tried again at the next poll
            self.alerts_held = f"database: {error}".strip()
            return False
        if taken:
            log.info("alerts: this service delivers the store's alerts (%s)", lease.describe())
            return True
        held = f"{ALERTS.holder} holds this store's alerts ({lease.describe()})"
        if self.alerts_held != held:  # said once, not at every poll
            log.warning("alerts: none sent from here: %s", held)
        self.alerts_held = held
        return False

    def _split_due(self) -> bool:
        if self.processes < 2 or self.benched:  # a read model stopped: passes stay here
            return False
        last = self.store.last_notification_id()
        there = [m for m in self.read_models if not isinstance(m, KEPT_HERE)]
        return any(last - model.position >= self.split_backlog for model in there)

    def _split_pass(self, stopped: Callable[[], bool]) -> int:
        """Catch ``KEPT_HERE`` (the judge's read models, the round index) up here and the rest
        in a second process; then open the rest afresh, from the state the second process
        stored at its end."""
        kept = {type(m): m for m in self.read_models if isinstance(m, KEPT_HERE)}
        there = [kind for kind in READ_MODELS if kind not in KEPT_HERE]
        seconds: dict[str, float] = {}
        try:
            written = catch_up_split(
                list(kept.values()), there, self.store, self.batch, stopped=stopped,
                seconds=seconds,
            )  # fmt: skip
            for process, taken in seconds.items():
                self._split_seconds.labels(process).set(taken)
            return written
        finally:
            self.read_models = [kept[k] if k in kept else k(self.store) for k in READ_MODELS]

    def run(self, stopped: Callable[[], bool], poll_s: float = 1.0) -> None:
        """Pass after pass until ``stopped``; a database fault is retried with a back-off. The
        alerts, if any, are delivered beside the passes on a thread of their own."""
        delivery = None
        if self.alerter is not None:
            delivery = threading.Thread(target=self._deliver_until, args=(stopped, poll_s),
                                        name="tablewatch-alerts", daemon=True)  # fmt: skip
            delivery.start()
        failures = 0
        while not stopped():
            if not self._leased():
                _sleep_unless(stopped, poll_s)
                continue
            try:
                if self.rebuild_pending and not self._rebuild():
                    _sleep_unless(stopped, poll_s)  # another process delivers: no pass yet
                    continue
                self.run_pass(stopped)
                failures = 0
                delay = poll_s
            except DATABASE_FAULTS as error:
                failures += 1
                delay = min(poll_s * 2**failures, MAX_BACKOFF_S)
                self._passes.labels("failed").inc()
                self.passes = Health(ready=False, reason=f"database: {error}".strip())
                reason = str(error).strip() or type(error).__name__
                log.warning("read models: the database failed (%s); retry %d in %.1fs",
                            reason, failures, delay)  # fmt: skip
                self.read_models = self._reopen()
            except VIEW_CONFLICTS as error:
                # Another process wrote a view past the position this one holds in memory (one
                # that took no lease): what it wrote stands, and this one goes on from there.
                self._passes.labels("moved").inc()
                self.passes = Health(ready=False, reason="a view was written by another process")
                log.warning("read models: a view was written by another process (%s); opened "
                            "afresh from what is stored", str(error).strip())  # fmt: skip
                self.read_models = self._reopen()
                delay = poll_s
            except ReadModelDefect as defect:  # the others' rows are written: they go on
                self._passes.labels("defect").inc()
                self._bench(defect, poll_s)
                self.passes = self._benched_health() or self.passes
                log.error("read models stopped on a defect, the others go on: %s", defect,
                          exc_info=defect.__cause__)  # fmt: skip
                delay = poll_s
            except Exception as error:  # a defect: never a dead loop behind a ready probe
                failures += 1
                delay = min(poll_s * 2**failures, MAX_BACKOFF_S)
                self._passes.labels("defect").inc()
                self.passes = Health(ready=False, reason=f"read models stopped on a defect "
                                     f"({_one_line(error)}); tried again")  # fmt: skip
                log.exception("read models: a pass failed on a defect; retry %d in %.1fs",
                              failures, delay)  # fmt: skip
                self.read_models = self._reopen()
            _sleep_unless(stopped, delay)
        if self._leased():
            self.rest()
        if delivery is not None:
            delivery.join(timeout=60)  # the alert in flight, if any, is sent or held

    def _rebuild(self) -> bool:
        """Empty every view, under the lease, and open the read models afresh from zero; return
        whether it was done.

        Only while no alert is being delivered: a delivery sends its alerts, then writes its
        leg's position, and a horizon read between the two would not count them, so each would
        go out again once rebuilt. This service's own delivery is waited for; while another
        process holds the store's alerts lease (``tablewatch alerts --follow``), the views are
        not emptied and nothing is judged, and ``/readyz`` says why, until it stops."""
        # Waited for a second at a time, so that a stop is heard while a webhook is slow.
        if not self._delivering.acquire(timeout=DELIVERY_WAIT_S):
            self._waiting("this service is delivering alerts; the rebuild begins once it is done")
            return False
        lease = self.alerts_lease
        try:
            if lease is None and self.lease is not None:  # no delivery here: kept for a moment
                lease = StoreLease(self.store, ALERTS)
            if lease is not None and not lease.try_acquire():
                self._waiting(f"{ALERTS.holder} holds this store's alerts ({lease.describe()}); "
                              "stop it, and the rebuild begins")  # fmt: skip
                return False
            emptied = rebuild_views(self.store)
        finally:
            if lease is not None and lease is not self.alerts_lease:
                lease.release()
            self._delivering.release()
        legs = ", ".join(f"{leg} to fact {at:,}" for leg, at in emptied.horizons.items())
        alerts = f"; alerts pass over what they had delivered ({legs})" if legs else ""
        log.warning("views emptied (%d read models, tables %s): judging %s stored events "
                    "again%s", len(emptied.read_models), ", ".join(emptied.tables),
                    f"{emptied.stored:,}", alerts)  # fmt: skip
        self.read_models = self._open()
        self.rebuild_pending = False
        return True

    def _waiting(self, why: str) -> None:
        """Say, once and on ``/readyz``, why the views are not emptied yet."""
        reason = f"the views wait to be rebuilt: {why}"
        if self.passes.reason != reason:  # said once, not at every poll
            log.warning("serve: %s", reason)
        self.passes = Health(ready=False, reason=reason)

    def _leased(self) -> bool:
        """Return whether this service may write: it holds the store's lease (or runs without
        one). A lease lost (PostgreSQL's lock went with its connection) is taken again if no
        other service took it; the read models are then opened afresh from what is stored."""
        if self.lease is None or self.lease.held():
            return True
        try:
            acquired = self.lease.try_acquire()
        except DATABASE_FAULTS as error:  # the database is away: no pass, tried again next poll
            self.passes = Health(ready=False, reason=f"database: {error}".strip())
            return False
        if acquired:
            log.warning("serve: the store's lease (%s) is held: passes begin",
                        self.lease.describe())  # fmt: skip
            self.read_models = self._reopen()
            self.leased = True
            return True
        if self.leased:  # said once, not at every poll
            log.error("serve: the store's lease (%s) was lost to %s; no pass until it is free",
                      self.lease.describe(), SERVE.holder)  # fmt: skip
        self.leased = False
        self.passes = Health(ready=False, reason=f"{SERVE.holder} holds this store")
        return False

    def rest(self) -> int:
        """On a graceful stop, store every read model's state at its position, so the next
        start replays nothing; a database that is down leaves the checkpoints as they were
        (a start then replays at most ``checkpoint_every`` facts), as does a defect. Return how
        many were stored."""
        try:
            stored = rest_together(self.read_models)
        except DATABASE_FAULTS as error:
            log.warning("read models: stopping without storing their state (%s)", error)
            return 0
        except Exception:  # a defect warming a read model up: the stop goes on all the same
            log.exception("read models: stopping without storing their state")
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


class StoredLag(Collector):
    """``tablewatch_read_model_lag``, read from the store at each scrape: the stored events after
    each read model's stored position; and ``tablewatch_read_model_stopped``, 1 for a read model
    a defect keeps stopped (``Service.benched``: the others go on), what an alert on a broken
    view reads.

    A read model writes its position with every batch, in this process or in a split pass's
    second one, so during a long pass (a rebuild, a backlog after an outage: hours on a large
    store) the lag falls batch by batch. A gauge set at each pass's end stood still for all
    of it, and before the first pass ended there was none. A scrape costs a query a read
    model and one for the last stored event; with the database away it gives no figure, not
    a stale one (the passes' failures and ``/readyz`` say why)."""

    NAME = "tablewatch_read_model_lag"
    HELP = "stored events a read model has yet to apply (its stored position, at the scrape)"
    STOPPED = "tablewatch_read_model_stopped"
    STOPPED_HELP = "1 while a defect keeps this read model stopped (tried again with a back-off)"

    def __init__(self, service: Service) -> None:
        self.service = service

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """Name the metrics without reading the store (the registry asks at registration)."""
        yield GaugeMetricFamily(self.NAME, self.HELP, labels=["read_model"])
        yield GaugeMetricFamily(self.STOPPED, self.STOPPED_HELP, labels=["read_model"])

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """Say which read models are stopped; read each one's stored position and the last
        stored event."""
        models = self.service.read_models
        stopped = GaugeMetricFamily(self.STOPPED, self.STOPPED_HELP, labels=["read_model"])
        benched = dict(self.service.benched)  # a copy: the passes' thread writes it
        for model in models:
            stopped.add_metric([model.tracking_name], float(model.tracking_name in benched))
        yield stopped
        family = GaugeMetricFamily(self.NAME, self.HELP, labels=["read_model"])
        try:
            lags = stored_lags(
                self.service.store, models[0].view, [m.tracking_name for m in models]
            )
        except DATABASE_FAULTS:
            return
        for name, lag in lags.items():
            family.add_metric([name], lag)
        yield family


def _one_line(error: BaseException) -> str:
    """Name an error in one line: its type and its message's last line (a second process's
    defect carries its traceback, whose last line is the error)."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[-1]}" if lines else type(error).__name__


def _sleep_unless(stopped: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not stopped() and time.monotonic() < deadline:
        time.sleep(min(0.1, seconds))


def health_server(service: Service, host: str, port: int) -> ThreadingHTTPServer:
    """Return a started HTTP server for the service's /healthz, /readyz and /metrics."""

    def ready() -> tuple[bool, str]:
        return service.health.ready, service.health.reason

    return serve_health(ready, service.registry, host, port)
