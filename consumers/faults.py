"""Which errors are a lost broker or database, and how long to keep trying after one.

A connectivity fault is retried: the ingest discards what it read ahead and
prepared, waits (1, 2, 4 ... seconds, capped), and starts again from the stored
positions, as a restart would. Anything else (a programming error, a refused
message, a bad setting) is not a fault here and ends the ingest at once.
After ``deadline_s`` of failing without a working moment in between, the ingest
gives up with one :class:`BrokerUnavailableError` or :class:`StoreUnavailableError`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import psycopg
from eventsourcing import persistence
from kafka import errors as kafka_errors

from audit.store.urls import StoreUnavailableError
from consumers.errors import BrokerUnavailableError, PublishError
from consumers.readiness import Readiness

log = logging.getLogger(__name__)

BROKER_FAULTS: tuple[type[BaseException], ...] = (
    BrokerUnavailableError,
    kafka_errors.KafkaConnectionError,
    kafka_errors.KafkaTimeoutError,
)
STORE_FAULTS: tuple[type[BaseException], ...] = (
    StoreUnavailableError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
    persistence.OperationalError,
    persistence.InterfaceError,
)

BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 30.0
STALL_WARNING_S = 5.0
"""How long a commit may take before the ingest says the database is not answering."""


def is_broker_fault(error: BaseException) -> bool:
    """Return True for a broker that cannot be reached (or did not acknowledge in time)."""
    if isinstance(error, PublishError):
        # Refused is the message's fault; not acknowledged in time is the connection's.
        return isinstance(error.__cause__, BROKER_FAULTS)
    return isinstance(error, BROKER_FAULTS)


def is_store_fault(error: BaseException) -> bool:
    """Return True for a database that cannot be reached or dropped the connection."""
    return isinstance(error, STORE_FAULTS)


def describe(error: BaseException) -> str:
    """Return a one-line account of ``error`` for a log line or the last word."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"


class Recovery:
    """Track a run of faults: log each, pace the retries, give up after the deadline.

    ``healthy()`` after each piece of work that succeeded ends the run; ``failed()``
    after a fault returns how long to wait before the next attempt, or raises the
    error that ends the ingest once the run has lasted ``deadline_s``.
    """

    def __init__(
        self,
        deadline_s: float,
        readiness: Readiness,
        *,
        backoff_first_s: float = BACKOFF_FIRST_S,
        backoff_max_s: float = BACKOFF_MAX_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.deadline_s = deadline_s
        self.readiness = readiness
        self._first = backoff_first_s
        self._max = backoff_max_s
        self._clock = clock
        self._failing_since: float | None = None
        self._attempts = 0
        self._next_stall_report = STALL_WARNING_S
        self.gave_up: BaseException | None = None
        """The error that ended the ingest at the deadline: not a fault to retry."""

    @property
    def failing(self) -> bool:
        """Return True while a run of faults has not ended."""
        return self._failing_since is not None

    def retries(self, error: BaseException) -> bool:
        """Return whether ``error`` is a fault to retry (the deadline's own error is not)."""
        return error is not self.gave_up and (is_broker_fault(error) or is_store_fault(error))

    def healthy(self) -> None:
        """Note that the broker and the database answered: any run of faults is over."""
        self._next_stall_report = STALL_WARNING_S
        if self._failing_since is not None:
            log.warning(
                "recovered after %.1fs and %d retries",
                self._clock() - self._failing_since,
                self._attempts,
            )
            self._failing_since = None
            self._attempts = 0
        self.readiness.up()

    def failed(self, error: BaseException) -> float:
        """Note a fault; return the seconds to wait before retrying, or raise past the deadline."""
        now = self._clock()
        if self._failing_since is None:
            self._failing_since = now
        what = describe(error)
        self.readiness.down(what)
        self._check_deadline(error, now)
        delay = min(self._first * 2**self._attempts, self._max)
        delay = min(delay, max(self._failing_since + self.deadline_s - now, 0.0))
        self._attempts += 1
        log.warning("%s: %s; retry %d in %.1fs", _kind(error), what, self._attempts, delay)
        return delay

    def stalled(self, waited_s: float) -> None:
        """Note a commit that has not finished after ``waited_s``; raise past the deadline."""
        now = self._clock()
        if self._failing_since is None:
            self._failing_since = now - waited_s
        what = f"the database has not finished a commit in {waited_s:.0f}s"
        self.readiness.down(what)
        if waited_s >= self._next_stall_report:
            # At 5, 10, 20, 40 ... seconds: the store retries inside the commit, unseen.
            while self._next_stall_report <= waited_s:
                self._next_stall_report *= 2
            log.warning("%s; still waiting", what)
        self._check_deadline(StoreUnavailableError(what), now)

    def _check_deadline(self, error: BaseException, now: float) -> None:
        assert self._failing_since is not None
        failing_for = now - self._failing_since
        if failing_for < self.deadline_s:
            return
        reason = f"{describe(error)} (failing for {failing_for:.0f}s, {self._attempts} retries)"
        if is_store_fault(error):
            self.gave_up = StoreUnavailableError(f"gave up on the database: {reason}")
        else:
            self.gave_up = BrokerUnavailableError(f"gave up on the broker: {reason}")
        raise self.gave_up from error


def _kind(error: BaseException) -> str:
    return "database unavailable" if is_store_fault(error) else "broker unavailable"
