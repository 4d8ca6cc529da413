"""What the ingest's /metrics reports: its running totals, when it last committed, its lag.

Fed by the same call the terminal's progress line gets after every batch
(:class:`~consumers.ingest.Progress`), so the ingest loop knows nothing of metrics.

The lag of a partition is its end offset minus the next offset the ingest will
store (its last committed position + 1, or where it started). The end offsets are
the ones the validating reader already asks the broker for, after every poll that
found nothing and every two seconds while records flow (``consumers/validation.py``):
no request of their own, none per message. So while a backlog drains, the lag can
read low by up to two seconds of arrivals; once caught up it reads 0 within a poll.
"""

from __future__ import annotations

import time
from typing import TextIO

from prometheus_client import CollectorRegistry, Gauge

from consumers.ingest import IngestSummary, Progress, split_source

_TOTALS = ("messages", "stored", "duplicates", "observations", "rejected", "batches")


class MeteredProgress(Progress):
    """The progress line, plus the ingest's totals and last commit as Prometheus gauges."""

    def __init__(self, out: TextIO | None, registry: CollectorRegistry) -> None:
        super().__init__(out)
        self._totals = Gauge("tablewatch_ingest", "the ingest's running totals since it started",
                             ["total"], registry=registry)  # fmt: skip
        self._committed = Gauge(
            "tablewatch_ingest_last_batch_timestamp_seconds",
            "when the ingest last recorded a batch",
            registry=registry,
        )
        offsets = ("topic", "partition")
        self._lag = Gauge("tablewatch_ingest_lag_messages",
                          "messages in a partition not yet stored: end offset - next offset",
                          offsets, registry=registry)  # fmt: skip
        self._end = Gauge("tablewatch_ingest_end_offset", "a partition's end, as last asked",
                          offsets, registry=registry)  # fmt: skip
        self._next = Gauge("tablewatch_ingest_next_offset",
                           "the next offset of a partition the ingest will store",
                           offsets, registry=registry)  # fmt: skip
        self._seen = 0

    def update(self, summary: IngestSummary, *, final: bool = False) -> None:
        """Publish the totals; note the time when a batch was recorded since the last call."""
        for name in _TOTALS:
            self._totals.labels(name).set(getattr(summary, name))
        if summary.batches != self._seen:
            self._seen = summary.batches
            self._committed.set(time.time())
        for source, offset in summary.next_offsets.items():
            self._next.labels(*split_source(source)).set(offset)
        for source, end in summary.end_offsets.items():
            self._end.labels(*split_source(source)).set(end)
        for source, lag in summary.lag().items():
            self._lag.labels(*split_source(source)).set(lag)
        super().update(summary, final=final)
