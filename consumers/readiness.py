"""Whether the ingest is working: the state a readiness probe reports.

The ingest marks itself not ready while the broker or the database is failing,
with the last error and the moment the state changed; an HTTP ``/readyz`` can
read it from another thread.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class ReadinessState:
    """One consistent reading of :class:`Readiness`."""

    ready: bool
    last_error: str | None
    since: float
    """When ``ready`` took its value, in seconds since the epoch."""


class Readiness:
    """Thread-safe readiness: false until the ingest first works, and while it is failing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state = ReadinessState(ready=False, last_error=None, since=time.time())

    @property
    def state(self) -> ReadinessState:
        """Return the current state (ready, the last error, since when)."""
        with self._lock:
            return self._state

    @property
    def ready(self) -> bool:
        """Return True while the ingest is reading and storing."""
        return self.state.ready

    def up(self) -> None:
        """Mark the ingest working; the last error is kept, for whoever asks what happened."""
        with self._lock:
            if not self._state.ready:
                self._state = ReadinessState(True, self._state.last_error, time.time())

    def down(self, error: str) -> None:
        """Mark the ingest failing with ``error``; ``since`` stays at the first failure."""
        with self._lock:
            since = time.time() if self._state.ready else self._state.since
            self._state = ReadinessState(False, error, since)
