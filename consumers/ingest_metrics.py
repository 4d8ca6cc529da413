"""What the ingest's /metrics reports: its running totals and when it last committed.

Fed by the same call the terminal's progress line gets after every batch
(:class:`~consumers.ingest.Progress`), so the ingest loop knows nothing of metrics.
"""

from __future__ import annotations

import time
from typing import TextIO

from prometheus_client import CollectorRegistry, Gauge

from consumers.ingest import IngestSummary, Progress

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
        self._seen = 0

    def update(self, summary: IngestSummary, *, final: bool = False) -> None:
        """Publish the totals; note the time when a batch was recorded since the last call."""
        for name in _TOTALS:
            self._totals.labels(name).set(getattr(summary, name))
        if summary.batches != self._seen:
            self._seen = summary.batches
            self._committed.set(time.time())
        super().update(summary, final=final)
