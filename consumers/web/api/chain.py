"""``/api/chain``: the hash chains' current heads, and the last verification.

The heads are the ingest's own record of each table's chain head, written in each
batch's transaction: one row per table, cheap to read. A verification recomputes every
link (``audit/store/verify.py``) on a thread of its own: ``/api/chain/status`` answers at
once with the last result and when it was taken, and starts a new run when there is none
or it is older than :data:`STALE_AFTER_S`.

A run goes on with the walk the last one left (:class:`~audit.store.verify.ChainWalk`),
proving the events stored since, so a run every few minutes costs what was stored in
between, not the store (#16). Once the walk is :data:`FULL_AFTER_S` old, the next run
starts a new one from the first event, which proves again what was proved before (an
owner's edit behind the triggers of a row already walked is caught by it).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from audit.store.application import FactStore
from audit.store.verify import ChainReport, ChainWalk
from consumers.web.access_log import record_access
from consumers.web.auth import User, require

router = APIRouter(prefix="/api/chain", tags=["chain"])
Reader = Annotated[User, Depends(require("analyst", "auditor"))]
STALE_AFTER_S = 600.0
FULL_AFTER_S = 86_400.0
"""A walk this old is left for a new one from the first stored event (once a day unless
``TABLEWATCH_CHAIN_FULL_WALK_HOURS`` says otherwise)."""
MAX_PROBLEMS_SHOWN = 100


class Head(BaseModel):
    """One table's chain head as the ingest recorded it."""

    table_id: str
    chain_head: str
    next_seq: int
    gaming_day: str | None


class Heads(BaseModel):
    """Every table's chain head, the casebook's, and the store's last notification id."""

    last_notification_id: int
    tables: list[Head]
    casebook_head: str
    """The casebook chain's head (64 zeros while no case was opened)."""
    case_facts: int


class Status(BaseModel):
    """The last verification of every chain, from the first stored event to the last."""

    state: Literal["never", "verifying", "verified"]
    ok: bool | None
    verified_at: str | None
    up_to_notification: int | None
    facts: int | None
    chains: int | None
    problems: list[str]
    problem_count: int
    walk_started_at: str | None = None
    """When the walk this result ends began at the first stored event: events stored before
    it were proved by it then, the rest by its later runs."""
    events_read: int | None = None
    """Events the last run read: every one for a new walk, those since for a later run."""


@dataclass
class _Result:
    report: ChainReport
    at: datetime
    taken: float
    walk_started_at: datetime
    events_read: int


class ChainWatch:
    """Runs verifications one at a time on a thread, and keeps the last result."""

    def __init__(self, store: FactStore, full_after_s: float = FULL_AFTER_S) -> None:
        self.store = store
        self.full_after_s = full_after_s
        self._lock = threading.Lock()
        self._running: threading.Thread | None = None
        self._walk: ChainWalk | None = None
        self._walk_began = (0.0, datetime.now(UTC))
        self.last: _Result | None = None

    def request(self) -> bool:
        """Start a verification unless one runs or the last is fresh; return whether one runs."""
        with self._lock:
            if self._running is not None and self._running.is_alive():
                return True
            fresh = self.last is not None and time.monotonic() - self.last.taken < STALE_AFTER_S
            if fresh:
                return False
            self._running = threading.Thread(
                target=self._verify, name="tablewatch-chain", daemon=True
            )
            self._running.start()
            return True

    def _verify(self) -> None:
        if self._walk is None or time.monotonic() - self._walk_began[0] >= self.full_after_s:
            self._walk = ChainWalk(self.store)
            self._walk_began = (time.monotonic(), datetime.now(UTC))
        report = self._walk.advance()
        self.last = _Result(report, datetime.now(UTC), time.monotonic(), self._walk_began[1],
                            self._walk.read_last)  # fmt: skip

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running verification to end (tests, and a shutdown)."""
        running = self._running
        if running is not None:
            running.join(timeout)


@router.get("/heads", response_model=Heads)
def heads(request: Request, user: Reader) -> Heads:
    """Return each table's chain head, as the ingest recorded it."""
    store: FactStore = request.app.state.store
    found = sorted(store.ingest_state.heads(), key=lambda head: head.table_id)
    record_access(request.app.state.db, user, "chain", "heads")
    head, count = request.app.state.cases.chain_head()
    return Heads(
        casebook_head=head,
        case_facts=count,
        last_notification_id=store.last_notification_id(),
        tables=[
            Head(
                table_id=h.table_id,
                chain_head=h.chain_head,
                next_seq=h.next_seq,
                gaming_day=h.gaming_day,
            )
            for h in found
        ],
    )


@router.get("/status", response_model=Status)
def status(request: Request, user: Reader) -> Status:
    """Return the last full verification; start a new one when it is missing or stale."""
    watch: ChainWatch = request.app.state.chain_watch
    running = watch.request()
    record_access(request.app.state.db, user, "chain", "status")
    last = watch.last
    if last is None:
        return Status(
            state="verifying" if running else "never",
            ok=None,
            verified_at=None,
            up_to_notification=None,
            facts=None,
            chains=None,
            problems=[],
            problem_count=0,
        )
    report = last.report
    return Status(
        state="verifying" if running else "verified",
        ok=report.ok,
        verified_at=last.at.isoformat(),
        up_to_notification=report.last_notification_id,
        facts=report.facts,
        chains=len(report.heads) + len(report.rejection_heads),
        problems=report.problems[:MAX_PROBLEMS_SHOWN],
        problem_count=len(report.problems),
        walk_started_at=last.walk_started_at.isoformat(),
        events_read=last.events_read,
    )
