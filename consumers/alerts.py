"""Alerts: each new finding at warning or above goes to Kafka and, when one is set, a webhook.

An :class:`Alerter` reads the findings view and delivers each finding, in row
order, on two legs, each with its own position in the view's tracking table:

- the topic leg (``alerts<-findings``): publish to the alerts topic, flush,
  record the finding's row number;
- the webhook leg (``webhook<-findings``): POST, then record the row number.

A pass runs the topic leg over every new finding first, then the webhook leg.
So a webhook that refuses an alert holds back only later webhook deliveries,
never the topic, and a restart does not publish the refused one to Kafka again.
A crash re-sends at most the one alert in flight on one leg, and it carries the
same finding id: the Kafka header ``x-finding-id`` and the webhook's
``Idempotency-Key`` are how a receiver drops the repeat.

Delivery is at least once, never "probably": a position is recorded only after
the broker acknowledged the alert, or the webhook answered 2xx. A webhook that
refuses an alert (4xx other than 429) stops the alerter with
:class:`AlertDeliveryError` and the webhook's position stays where it was.

Before the webhook leg had a position of its own it shared the topic leg's; a
webhook leg without one starts where the topic leg stands, recorded before the
topic leg moves on, so adding a webhook does not replay old alerts to it.

Without ``KAFKA_BOOTSTRAP_SERVERS`` there is no topic leg: a dev broker forgets its
topics on exit, so a recorded position would claim deliveries nobody can read. The
webhook leg then runs alone (from the first finding, if it never ran).

After the views are rebuilt from zero (``tablewatch serve --rebuild-views``), every finding is
written again, with new row numbers after the legs' positions. Each leg then passes over, without
sending, a finding about a stored fact at or before its *horizon* (recorded by the rebuild: the
last fact whose findings it had all delivered), so the past is not alerted twice, nor a
re-judgement of it alerted as if the table were in play; a finding after its horizon goes out as
it would have (``consumers/rebuild_views.py``).

One process delivers a store's alerts: whichever holds the store's alerts lease
(``consumers/store_lease.py``: a ``serve`` with a destination, or ``tablewatch alerts``). Each leg
reads its position before a delivery and records it after, so a second deliverer would send
every alert again; a follower that cannot take the lease stands by, not ready, and a one-off run
says who holds it and exits.

Following (``--follow``), a webhook outage never stops the alerter: the webhook leg
holds its position, waits (doubling up to :data:`OUTAGE_MAX_BACKOFF_S`) and tries
again, logging each failure, while the topic leg goes on. Nor does the database failing: the
follower logs it, is not ready, and tries again with the same back-off, its findings opened
afresh from what is stored. A one-off run reports the failure and exits non-zero.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from email.message import Message
from http.client import HTTPException
from typing import Any, Protocol
from urllib.parse import urlsplit

from eventsourcing.persistence import Tracking
from prometheus_client import CollectorRegistry

from audit.findings.finding import Severity
from audit.store.application import FactStore
from consumers.alert_metrics import KAFKA, WEBHOOK, DeliveryMetrics
from consumers.errors import ConfigError, PublishError, TablewatchError
from consumers.kafka_io import Producer, StopFlag, ensure_topics, flush, make_producer, publish
from consumers.readiness import Readiness
from consumers.settings import Settings, kafka_connection
from consumers.store_lease import ALERTS, StoreLease
from consumers.view_reads import Following
from projections.findings import FindingsProjection
from projections.split import DATABASE_FAULTS

log = logging.getLogger(__name__)

WEBHOOK_ENV = "TABLEWATCH_WEBHOOK_URL"
"""The webhook ``serve`` and ``alerts`` POST to when no ``--webhook`` is given."""
TRACKING_NAME = "alerts<-findings"
"""The topic leg's name in the findings view's tracking table; its position is a row number."""

WEBHOOK_TRACKING_NAME = "webhook<-findings"
"""The webhook leg's name in the same table."""


def horizon_name(leg: str) -> str:
    """Return the name a leg's horizon is kept under in the tracking table: the last stored
    fact whose findings the leg had all delivered when the views were last rebuilt."""
    return f"{leg}:horizon"


HORIZON_NAMES = (horizon_name(TRACKING_NAME), horizon_name(WEBHOOK_TRACKING_NAME))

MIN_SEVERITY = Severity.WARNING
"""The least severe finding that becomes an alert."""
BATCH = 500
"""Findings read at a time by a leg: its pass goes on batch by batch to the end."""

ALERT_FIELDS = (
    "finding_id", "code", "severity", "rule", "title", "table_id", "round_id", "position",
    "dealer_id", "recorded", "expected", "at_stake", "exposure", "gaming_day", "player_id",
    "event_ids", "occurred_at",
)  # fmt: skip
"""The fields an alert carries: those of ``Finding.as_dict``, in its order.

Money at stake and exposure travel as two fields, never one sum (issue #22.2): a
receiver routing on money reads ``at_stake``; a procedure breach carries it as 0.00.

The view's ``row_number`` and ``notification_id`` stay out: they are positions in
our databases, and a rebuilt view numbers its rows anew.
"""

FINDING_ID_HEADER = "x-finding-id"

OUTAGE_MAX_BACKOFF_S = 60.0
"""The longest a following alerter waits before trying a failing webhook again."""


class AlertDeliveryError(TablewatchError):
    """Raised when the webhook refuses an alert, or still fails after every retry."""


class FindingsSource(Protocol):
    """What an alerter needs of the findings view (both views provide it)."""

    def found_after(
        self, after_row: int, min_severity: Severity, limit: int
    ) -> list[dict[str, Any]]: ...

    def max_tracking_id(self, application_name: str) -> int | None: ...

    def insert_tracking(self, tracking: Tracking) -> None: ...


def alert_body(row: Mapping[str, Any]) -> dict[str, Any]:
    """Return the finding a view row holds, as an alert carries it."""
    return {name: row[name] for name in ALERT_FIELDS}


class Webhook:
    """POST alerts as JSON to one URL, retrying what may pass on a later try.

    Connection errors, timeouts, 5xx and 429 are retried ``retries`` times after
    the first attempt, waiting ``backoff_s`` doubled on each retry, at most
    ``max_backoff_s`` (or what a ``Retry-After`` in seconds asks, within that
    cap). Any other answer outside 2xx raises :class:`AlertDeliveryError` at
    once, redirects included: a POST that follows one loses its body.
    """

    def __init__(
        self,
        url: str,
        timeout_s: float = 5,
        retries: int = 5,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30,
        *,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        parts = urlsplit(url)
        try:
            port = f":{parts.port}" if parts.port else ""
        except ValueError:  # a port that is not a number from 0 to 65535
            port = None
        if parts.scheme not in ("http", "https") or not parts.hostname or port is None:
            raise ConfigError(f"the webhook must be an http:// or https:// URL, not {url!r}")
        if timeout_s <= 0 or retries < 0 or backoff_s < 0 or max_backoff_s < 0:
            raise ConfigError(
                "the webhook needs a positive timeout and no negative retries or backoff: "
                f"timeout_s={timeout_s!r}, retries={retries!r}, backoff_s={backoff_s!r}, "
                f"max_backoff_s={max_backoff_s!r}"
            )
        self.url = url
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self._sleep = sleep
        self._opener = urllib.request.build_opener(_RefuseRedirects())
        # Webhook URLs often carry a token in the path or query; messages name the host only.
        self.name = f"{parts.scheme}://{parts.hostname}{port}"

    def __repr__(self) -> str:
        return f"Webhook({self.name!r})"

    def post(
        self,
        alert: Mapping[str, Any],
        idempotency_key: str,
        on_retry: Callable[[float], None] | None = None,
    ) -> int:
        """Deliver ``alert`` with ``"alert_type": "finding"``; return the answer's status.

        ``on_retry`` is told the wait before each retry.
        """
        body = json.dumps({**alert, "alert_type": "finding"}).encode()
        attempt = 0
        while True:
            attempt += 1
            status, reason, retry_after = self._attempt(body, idempotency_key)
            if 200 <= status < 300:
                return status
            if status and not _retryable(status):
                raise AlertDeliveryError(
                    f"webhook {self.name} refused finding {idempotency_key!r}: {reason}"
                )
            if attempt > self.retries:
                raise AlertDeliveryError(
                    f"webhook {self.name} failed finding {idempotency_key!r} "
                    f"after {attempt} attempts: {reason}"
                )
            delay = self._delay(attempt, retry_after)
            log.warning(
                "webhook %s: %s; retry %d of %d in %.1fs",
                self.name,
                reason,
                attempt,
                self.retries,
                delay,
            )
            if on_retry is not None:
                on_retry(delay)
            self._sleep(delay)

    def _attempt(self, body: bytes, idempotency_key: str) -> tuple[int, str, float | None]:
        """POST once; return (status or 0 when there was none, a reason, any Retry-After)."""
        request = urllib.request.Request(
            self.url,
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Idempotency-Key": idempotency_key},
        )
        try:
            with self._opener.open(request, timeout=self.timeout_s) as response:
                response.read()
                return response.status, f"answered {response.status}", None
        except urllib.error.HTTPError as error:
            error.close()
            reason = f"answered {error.code} {error.reason}"
            return error.code, reason, _retry_after(error.headers)
        except (HTTPException, OSError) as error:
            # URLError (an OSError) wraps refused connections and connect timeouts; a
            # timeout or a reset while the answer is read comes as another OSError, and a
            # garbled or missing status line as an HTTPException.
            detail = error.reason if isinstance(error, urllib.error.URLError) else error
            return 0, f"no answer ({detail or type(error).__name__})", None

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        """Return how long to wait before retry number ``attempt``."""
        if retry_after is not None:
            return min(retry_after, self.max_backoff_s)
        return float(min(self.backoff_s * 2 ** (attempt - 1), self.max_backoff_s))


def _retryable(status: int) -> bool:
    return status >= 500 or status == 429


def _retry_after(headers: Message | None) -> float | None:
    """Return a ``Retry-After`` given in seconds; None for a date or nothing."""
    value = headers.get("Retry-After") if headers is not None else None
    if value is None or not value.strip().isdigit():
        return None
    return float(value.strip())


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """Leave a 3xx as the error it is for a POST, rather than re-sending it as a bodiless GET."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Alerter:
    """Send each new finding at warning or above to Kafka and the webhook, once per position.

    ``producer`` None: no topic leg (no real Kafka). ``hold_webhook_failures``: a webhook
    that fails leaves its leg where it is, to be tried again after a back-off, instead of
    raising (:data:`OUTAGE_MAX_BACKOFF_S`). ``hold_topic_failures``: a broker that refuses an
    alert leaves the topic leg where it is, to be tried at the next pass, and the webhook leg
    still runs (``serve``, which must not stop for it), instead of raising. ``metrics``
    counts each leg's deliveries (``consumers/alert_metrics.py``).
    """

    def __init__(
        self,
        view: FindingsSource,
        producer: Producer | None,
        topic: str,
        webhook: Webhook | None = None,
        *,
        hold_webhook_failures: bool = False,
        clock: Callable[[], float] = time.monotonic,
        metrics: DeliveryMetrics | None = None,
        hold_topic_failures: bool = False,
    ) -> None:
        self.view = view
        self.producer = producer
        self.topic = topic
        self.webhook = webhook
        self.hold_webhook_failures = hold_webhook_failures
        self.hold_topic_failures = hold_topic_failures
        self.topic_error: str | None = None
        """Why the topic leg last failed, while it is held (None while it delivers)."""
        self._clock = clock
        self.webhook_failures = 0
        """Failed passes of the webhook leg in a row (0 while it delivers)."""
        self._webhook_retry_at = 0.0
        self.webhook_error: str | None = None
        """Why the webhook leg last failed, while it is held (None while it delivers)."""
        self.metrics = metrics if metrics is not None else DeliveryMetrics()
        if producer is not None:
            self.metrics.leg(KAFKA, topic)
        if webhook is not None:
            self.metrics.leg(WEBHOOK, webhook.name)

    @property
    def position(self) -> int:
        """Return the row number of the last finding published to the topic, 0 before the first."""
        return self.view.max_tracking_id(TRACKING_NAME) or 0

    def publish_new(self) -> int:
        """Deliver every finding after each leg's position, in row order; return how many
        were published to the topic (to the webhook, without a topic).

        Each leg reads from its own position, a batch of :data:`BATCH` at a time, to the end
        or until it is held (#16: a leg far behind, after an outage or starting from the
        first finding, never reads its whole backlog at once, and a held webhook never holds
        the topic back)."""
        sent = 0
        self._webhook_position(self.position)  # a new webhook leg starts where the topic stands
        if self.producer is not None:
            sent = self._topic_leg(self.producer)
        if self.webhook is not None:
            sent_to_hook = self._webhook_pass(self.webhook)
            sent = sent if self.producer is not None else sent_to_hook
        return sent

    def _topic_leg(self, producer: Producer) -> int:
        sent = 0
        while True:
            topic_at = self.position
            rows = self.view.found_after(topic_at, MIN_SEVERITY, BATCH)
            horizon = self._horizon(TRACKING_NAME)
            moved = 0
            try:
                with self._passing_over(TRACKING_NAME) as pass_over:
                    for row in rows:
                        if row["notification_id"] > horizon:
                            pass_over(None)  # the leg's position first, then this alert's
                            self._publish(producer, row)
                            sent += 1
                        else:
                            pass_over(row["row_number"])
                        moved += 1
            except PublishError as error:
                if not self.hold_topic_failures:
                    raise
                self.topic_error = str(error)  # held where it stood; the webhook leg goes on
                log.error("%s; the topic leg holds its position until the next pass", error)
            else:
                self.topic_error = None
            self._stand(KAFKA, self.topic, rows, topic_at, moved)
            if len(rows) < BATCH or moved < len(rows):
                return sent

    def _horizon(self, leg: str) -> int:
        """Return ``leg``'s horizon (0 if the views were never rebuilt). Read after the batch it
        judges: a rebuilt finding in the batch means the rebuild, which wrote the horizon in
        the transaction that emptied the views, had committed before it."""
        return self.view.max_tracking_id(horizon_name(leg)) or 0

    @contextlib.contextmanager
    def _passing_over(self, leg: str) -> Iterator[Callable[[int | None], None]]:
        """Yield a function that moves ``leg`` past a finding a rebuild wrote again about a
        fact at or before the leg's horizon (it was delivered, or it re-judges the past, which
        the queue has), nothing sent. A run of them is recorded once, when an alert is next
        sent (the function called with None) or the batch ends, however it ends: a rebuilt
        year is thousands of writes, not one a finding."""
        passed: list[int] = []

        def pass_over(row_number: int | None) -> None:
            if row_number is not None:
                passed.append(row_number)
            elif passed:
                self.view.insert_tracking(Tracking(leg, passed[-1]))
                passed.clear()

        try:
            yield pass_over
        finally:
            pass_over(None)

    def _webhook_pass(self, webhook: Webhook) -> int:
        sent = 0
        while True:
            hook_at = self._webhook_position(self.position)
            assert hook_at is not None  # a webhook is set
            rows = self.view.found_after(hook_at, MIN_SEVERITY, BATCH)
            moved, posted = self._webhook_leg(webhook, rows, hook_at)
            self._stand(WEBHOOK, webhook.name, rows, hook_at, moved)
            sent += posted
            if len(rows) < BATCH or moved < len(rows):
                return sent

    def _stand(
        self, sink: str, target: str, rows: list[dict[str, Any]], at: int, delivered: int
    ) -> None:
        """Note where a leg stands after its pass: ``delivered`` of the rows beyond ``at``."""
        beyond = [row["row_number"] for row in rows if row["row_number"] > at]
        position = beyond[delivered - 1] if delivered else at
        self.metrics.standing(sink, target, position, len(beyond) - delivered)

    def _webhook_leg(
        self, webhook: Webhook, rows: list[dict[str, Any]], hook_at: int
    ) -> tuple[int, int]:
        """POST each row after ``hook_at`` (passing over what a rebuild re-judged); return how
        many rows the leg moved past and how many it posted. A failure holds the leg."""
        if self._clock() < self._webhook_retry_at:
            return 0, 0  # backing off after a failure
        moved = posted = 0
        horizon = self._horizon(WEBHOOK_TRACKING_NAME)
        try:
            with self._passing_over(WEBHOOK_TRACKING_NAME) as pass_over:
                for row in rows:
                    if row["row_number"] <= hook_at:
                        continue
                    if row["notification_id"] > horizon:
                        pass_over(None)
                        self._post(webhook, row)
                        posted += 1
                    else:
                        pass_over(row["row_number"])
                    moved += 1
        except AlertDeliveryError as error:
            self.metrics.failed(WEBHOOK, webhook.name)
            if not self.hold_webhook_failures:
                raise
            self.webhook_failures += 1
            self.webhook_error = str(error)
            delay = min(webhook.backoff_s * 2**self.webhook_failures, OUTAGE_MAX_BACKOFF_S)
            self._webhook_retry_at = self._clock() + delay
            self.metrics.retrying(WEBHOOK, webhook.name, delay)
            log.error("%s; the webhook leg holds its position and tries again in %.1fs",
                      error, delay)  # fmt: skip
        else:
            self.webhook_failures = 0
            self.webhook_error = None
        return moved, posted

    def _webhook_position(self, topic_at: int) -> int | None:
        """Return the webhook leg's position (None without a webhook), recording its start."""
        if self.webhook is None:
            return None
        recorded = self.view.max_tracking_id(WEBHOOK_TRACKING_NAME)
        if recorded is None:
            self.view.insert_tracking(Tracking(WEBHOOK_TRACKING_NAME, topic_at))
            return topic_at
        return recorded

    def _publish(self, producer: Producer, row: Mapping[str, Any]) -> None:
        """Publish, flush, then record the row: a crash repeats only this alert."""
        finding_id: str = row["finding_id"]
        try:
            publish(
                producer,
                self.topic,
                str(row["table_id"]).encode(),
                json.dumps(alert_body(row)).encode(),
                [(FINDING_ID_HEADER, finding_id.encode())],
            )
            flush(producer)
        except Exception:  # counted, and raised: the alerter stops, its position unmoved
            self.metrics.failed(KAFKA, self.topic)
            raise
        self.view.insert_tracking(Tracking(TRACKING_NAME, row["row_number"]))
        self.metrics.delivered(KAFKA, self.topic, row["row_number"])
        log.info("alert %s (%s %s) published", finding_id, row["severity"], row["code"])

    def _post(self, webhook: Webhook, row: Mapping[str, Any]) -> None:
        """POST, then record the row: a crash repeats only this alert."""
        finding_id: str = row["finding_id"]
        retrying = functools.partial(self.metrics.retrying, WEBHOOK, webhook.name)
        webhook.post(alert_body(row), finding_id, on_retry=retrying)
        self.view.insert_tracking(Tracking(WEBHOOK_TRACKING_NAME, row["row_number"]))
        self.metrics.delivered(WEBHOOK, webhook.name, row["row_number"])
        log.info("alert %s posted to %s", finding_id, webhook.name)


def open_alerter(
    settings: Settings,
    view: FindingsSource,
    stack: contextlib.ExitStack,
    *,
    webhook_url: str | None,
    follow: bool,
    metrics: DeliveryMetrics | None = None,
    hold_topic: bool = False,
) -> Alerter:
    """Return an alerter of the findings ``view`` to the configured legs; its producer, if
    any, is closed with ``stack``. ``follow``: a failing webhook holds its leg and backs off
    (a long-running alerter: ``alerts --follow``, ``serve``) instead of raising; ``hold_topic``:
    so does a refusing broker (``serve``)."""
    bootstrap = kafka_connection(settings)
    if bootstrap is None and webhook_url is None:
        raise ConfigError(
            "alerts need somewhere to go: KAFKA_BOOTSTRAP_SERVERS (the dev broker keeps "
            "nothing) or a webhook (--webhook, or $TABLEWATCH_WEBHOOK_URL)"
        )
    # Following, the alerter's own back-off retries an outage without blocking the topic leg.
    webhook = None if webhook_url is None else Webhook(webhook_url, retries=0 if follow else 5)
    producer = None
    if bootstrap is not None:
        ensure_topics(
            bootstrap,
            {settings.alerts_topic: settings.partitions},
            replication_factor=settings.replication_factor,
        )
        producer = stack.enter_context(make_producer(bootstrap, client_id="tablewatch-alerts"))
    else:
        log.warning("no KAFKA_BOOTSTRAP_SERVERS: alerts go to the webhook only")
    return Alerter(view, producer, settings.alerts_topic, webhook, hold_webhook_failures=follow,
                   metrics=metrics, hold_topic_failures=hold_topic)  # fmt: skip


def serve_alerter(
    settings: Settings,
    store: FactStore,
    stack: contextlib.ExitStack,
    registry: CollectorRegistry,
    *,
    unset_level: int = logging.WARNING,
) -> Alerter | None:
    """Return the alerter ``serve`` ends each pass with: to the configured destinations, its
    metrics in the service's ``registry``; or None, logged once at ``unset_level``, without
    any (a warning for ``serve``; ``make run``'s demonstration expects none)."""
    webhook_url = os.environ.get(WEBHOOK_ENV, "").strip() or None
    if settings.kafka_bootstrap_servers is None and webhook_url is None:
        log.log(unset_level, "alerts: no destination (KAFKA_BOOTSTRAP_SERVERS or $%s), none sent; "
                    "findings are judged and kept all the same", WEBHOOK_ENV)  # fmt: skip
        return None
    view = FindingsProjection(store).view
    return open_alerter(settings, view, stack, webhook_url=webhook_url, follow=True,
                        metrics=DeliveryMetrics(registry), hold_topic=True)  # fmt: skip


class AlertsHeldError(TablewatchError):
    """Another process delivers this store's alerts: sending them here too would send each twice."""


def _standing_by(lease: StoreLease) -> str | None:
    """Return why this alerter must not deliver (another process holds the store's alerts
    lease), or None once it holds the lease, taking it if it is free."""
    if lease.held() or lease.try_acquire():
        return None
    return f"{ALERTS.holder} holds this store's alerts ({lease.describe()})"


def run_alerts(
    settings: Settings,
    store: FactStore,
    *,
    webhook_url: str | None = None,
    follow: bool = False,
    poll_s: float = 1.0,
    metrics: DeliveryMetrics | None = None,
    readiness: Readiness | None = None,
) -> int:
    """Bring the findings up to date (unless a running ``serve`` keeps them:
    ``consumers/view_reads.py``) and send the new alerts; with ``follow``, until SIGTERM.

    Return how many alerts were sent (published to the topic, or posted to the webhook
    when there is no topic leg). The topic leg needs ``KAFKA_BOOTSTRAP_SERVERS``; without
    it the webhook leg runs alone, and with neither there is nowhere to send alerts.
    ``readiness`` is up once a pass has gone through, and down while the webhook leg is
    held by a failing webhook (the topic leg goes on meanwhile).
    """
    findings = Following(store, FindingsProjection)
    lease = StoreLease(store, ALERTS)
    with contextlib.ExitStack() as stack:
        alerter = open_alerter(settings, findings.projection.view, stack,
                               webhook_url=webhook_url, follow=follow, metrics=metrics)  # fmt: skip
        stack.callback(lease.release)
        if not follow:
            why = _standing_by(lease)
            if why is not None:
                raise AlertsHeldError(f"{why}: it sends them; stop it (or run serve with "
                                      "--no-alerts) to send them from here")  # fmt: skip
            findings.catch_up()
            return alerter.publish_new()
        stop = stack.enter_context(StopFlag())
        return _follow(alerter, findings, lease, stop, poll_s, readiness)


def _follow(
    alerter: Alerter,
    findings: Following[FindingsProjection],
    lease: StoreLease,
    stop: StopFlag,
    poll_s: float,
    readiness: Readiness | None,
) -> int:
    """Deliver each poll's new alerts until ``stop``; return how many were sent. A database
    fault holds the alerter, not ready, and is retried with a back-off (doubling up to
    :data:`OUTAGE_MAX_BACKOFF_S`), never ending it."""
    sent, standing, failures = 0, None, 0
    while not stop.is_set():
        delay = poll_s
        try:
            why = _standing_by(lease)
            if why != standing:  # said as it begins or ends, not at every poll
                if why is not None:
                    log.warning("alerts: standing by: %s", why)
                else:
                    log.info("alerts: this process now delivers the store's alerts")
                standing = why
            if why is not None:  # a follower stands by, not ready, until the other one stops
                if readiness is not None:
                    readiness.down(why)
            else:
                findings.catch_up()
                sent += alerter.publish_new()
                if readiness is not None:
                    if alerter.webhook_error is None:
                        readiness.up()
                    else:
                        readiness.down(alerter.webhook_error)
            failures = 0
        except DATABASE_FAULTS as error:
            failures += 1
            findings.forget()
            delay = min(poll_s * 2**failures, OUTAGE_MAX_BACKOFF_S)
            reason = str(error).strip() or type(error).__name__
            log.warning("alerts: the database failed (%s); retry %d in %.1fs", reason,
                        failures, delay)  # fmt: skip
            if readiness is not None:
                readiness.down(f"database: {reason}")
        if not stop.is_set():
            time.sleep(delay)
    return sent
