"""What the alerter's /metrics reports: its deliveries per sink, and how far behind it is.

Every series is labelled with its ``sink`` (``kafka`` or ``webhook``) and ``target``
(the alerts topic, or the webhook's scheme, host and port: never its path or query,
which often carry a token). A failure counts a delivery that did not go through, once
its retries (if any) were spent; a retry counts each further attempt scheduled, by the
webhook client within one delivery or by a following alerter after a failed one, and
``backoff_seconds`` is the wait before it (0 again once an alert goes through).
``waiting`` is, at the end of the last pass, how many findings at warning or above
the findings view holds beyond the leg's position: what a restart would send.
"""

from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Gauge

KAFKA = "kafka"
WEBHOOK = "webhook"

_LABELS = ("sink", "target")


class DeliveryMetrics:
    """The alerter's delivery counters and gauges, in one registry."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        registry = registry if registry is not None else CollectorRegistry()
        self.registry = registry
        self._sent = Counter("tablewatch_alerts_sent", "alerts delivered (acknowledged or 2xx)",
                             _LABELS, registry=registry)  # fmt: skip
        self._failures = Counter("tablewatch_alerts_failures",
                                 "deliveries that failed, after any retries",
                                 _LABELS, registry=registry)  # fmt: skip
        self._retries = Counter("tablewatch_alerts_retries", "further attempts at an alert",
                                _LABELS, registry=registry)  # fmt: skip
        self._backoff = Gauge("tablewatch_alerts_backoff_seconds",
                              "the wait before the next attempt (0 while delivering)",
                              _LABELS, registry=registry)  # fmt: skip
        self._last = Gauge("tablewatch_alerts_last_delivery_timestamp_seconds",
                           "when an alert was last delivered",
                           _LABELS, registry=registry)  # fmt: skip
        self._waiting = Gauge("tablewatch_alerts_waiting",
                              "findings at warning or above beyond the leg's position "
                              "(counted to a batch: 500 is 500 or more)",
                              _LABELS, registry=registry)  # fmt: skip
        self._position = Gauge("tablewatch_alerts_position",
                               "the findings view's row number the leg has delivered to",
                               _LABELS, registry=registry)  # fmt: skip

    def leg(self, sink: str, target: str) -> None:
        """Show a leg's series from the start, at zero, before anything happens on it."""
        for metric in (self._sent, self._failures, self._retries, self._backoff, self._waiting):
            metric.labels(sink, target)

    def delivered(self, sink: str, target: str, position: int) -> None:
        """Count one alert delivered, now, up to ``position``; any back-off is over."""
        self._sent.labels(sink, target).inc()
        self._last.labels(sink, target).set(time.time())
        self._position.labels(sink, target).set(position)
        self._backoff.labels(sink, target).set(0)

    def failed(self, sink: str, target: str) -> None:
        """Count one delivery that did not go through."""
        self._failures.labels(sink, target).inc()

    def retrying(self, sink: str, target: str, delay_s: float) -> None:
        """Count one retry, to be made after ``delay_s``."""
        self._retries.labels(sink, target).inc()
        self._backoff.labels(sink, target).set(delay_s)

    def standing(self, sink: str, target: str, position: int, waiting: int) -> None:
        """Note where the leg stands after a pass, and how many alerts wait beyond it."""
        self._position.labels(sink, target).set(position)
        self._waiting.labels(sink, target).set(waiting)
