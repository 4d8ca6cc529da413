"""Every read model caught up from one read of the store: each fact read and parsed once.

A projection's own :meth:`~projections.fact_projection.FactProjection.catch_up` reads
and parses the facts after its position; six of them doing so read the store six
times. :func:`catch_up_together` reads from the position of the one furthest behind,
parses each fact once, and gives it to every projection not yet past it. Each still
writes its rows with its own position in its own transaction, so each stays exactly
once on its own: a crash between two projections' writes leaves one a batch ahead,
and the next pass simply starts that one later.

The drop reconciliation is the one piece of work two read models would each do in full:
the findings projection's judge reconciles every fact for its accounting findings, and
the reconciliation projection for its ledgers. When both stand at the same position,
the reconciliation borrows the judge's reconciler for the pass
(:meth:`~projections.fact_projection.FactProjection.borrow`) instead of feeding its
own: both would hold the same state, built from the same facts in the same order with
the same retirement window. Each still writes its own rows, position and checkpoint in
its own transaction; after a crash between the two writes they stand at different
positions, and that pass each works alone, as before.

A read model that raises on a fact (a defect) is left where its last write put it, with the
read model it shares state with, if any; the others go on through the pass and write their
rows and positions, and :class:`ReadModelDefect` then names the ones that stopped. A defect in
a view a newcomer added does not stop the findings, nor their alerts.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any

import psycopg
from eventsourcing.persistence import InterfaceError, OperationalError

from projections.fact_projection import FactProjection

DATABASE_FAULTS = (psycopg.OperationalError, OperationalError, InterfaceError)
"""The database away or failing: a fault the service retries, never a read model's defect."""

PASS_BATCH = 10_000
"""Stored events a long pass applies between two writes (``TABLEWATCH_PASS_BATCH``).

Each write is a transaction per read model, and some read models redo work per write
(the win rates re-read and rewrite every tally the batch changed, the table state a row a
table): on a rebuild of 4,000 rounds, 2,000-event batches spent 1.02 s of 5.03 s writing
and 20,000-event ones 0.52 s; the rebuild on two cores took 3.87 s at 2,000 and 3.51 s at
10,000, alternated (docs/rebuild-speed.md). A batch is also what a crash redoes and
how long a stop waits, about a quarter of a second of work here at 10,000. A caught-up
service's passes are far shorter than a batch, so there this changes nothing."""

MAX_PASS_BATCH = 100_000
"""The largest batch ``serve`` accepts: a batch's rows are held in memory until it is written
and a crash redoes it whole, so an unbounded one would hold a long backlog's rows at once."""


def catch_up_together(
    projections: Sequence[FactProjection],
    batch: int = PASS_BATCH,
    stopped: Callable[[], bool] = lambda: False,
) -> int:
    """Apply every fact stored since each projection's position; return the rows written.

    ``stopped`` is asked after each batch is written: a service told to stop in a long pass
    (a backlog, a rebuild) stops at the next batch, its positions written, not at the end."""
    if not projections:
        return 0
    last_stored = projections[0].store.last_notification_id()
    behind = [p for p in projections if p.position < last_stored]
    if not behind:
        return 0
    for projection in behind:
        if not projection.borrow(behind):
            projection.warm_up()  # its state as of its position (a checkpoint, or a replay)
    try:
        return _pass(behind, batch, stopped)
    finally:
        for projection in behind:
            projection.give_back()


class ReadModelDefect(Exception):  # noqa: N818 - what the service names it: a defect
    """Read models raised on a fact in a pass: they stand where their last write put them, and
    every other read model's rows and position of the pass were written."""

    def __init__(self, errors: dict[str, Exception]) -> None:
        self.errors = errors
        """Each stopped read model's tracking name, and what it (or its partner) raised."""
        first = next(iter(errors.values()))
        super().__init__(f"{', '.join(errors)}: {type(first).__name__}: {first}")


def _nothing(fact: object, notification_id: int) -> None:
    """What a read model stopped by a defect is given for the rest of its pass."""
    return None


def _pass(behind: Sequence[FactProjection], batch: int, stopped: Callable[[], bool]) -> int:
    positions = [p.position for p in behind]  # each takes only the facts after its own
    start, top = min(positions) + 1, max(positions)
    applies: list[Callable[[Any, int], list[tuple[object, ...]] | None]] = [p.apply for p in behind]
    rows: list[list[tuple[object, ...]]] = [[] for _ in behind]
    failed: dict[int, Exception] = {}

    def fail(i: int, error: Exception) -> None:
        # With it, any read model it shares state with: that state took half a fact.
        for j, other in enumerate(behind):
            if j == i or other.lender is behind[i] or behind[i].lender is other:
                failed.setdefault(j, error)
                applies[j] = _nothing

    written = 0
    batch_start, last = start, start - 1
    for notification_id, fact in behind[0].facts_after(start):
        last = notification_id
        if fact is not None:
            every = notification_id > top  # past every position: no projection to skip
            for i, apply in enumerate(applies):
                if every or notification_id > positions[i]:
                    try:
                        found = apply(fact, notification_id)
                    except DATABASE_FAULTS:
                        raise
                    except Exception as error:  # a defect: this read model stops, the rest go on
                        fail(i, error)
                        continue
                    if found:
                        rows[i] += found
        if notification_id - batch_start >= batch:
            written += _write_all(behind, rows, last, failed)
            batch_start = notification_id
            if stopped():
                break
    else:
        written += _write_all(behind, rows, last, failed)
    if failed:
        errors = {behind[i].tracking_name: error for i, error in sorted(failed.items())}
        raise ReadModelDefect(errors) from next(iter(errors.values()))
    return written


def _write_all(
    projections: Sequence[FactProjection],
    rows: list[list[tuple[object, ...]]],
    last: int,
    failed: Container[int] = (),
) -> int:
    """Write each projection's rows and position ``last`` (the last stored event read), if it
    moved: a projection is at ``last`` once given every fact up to it; clear what was written.
    One stopped by a defect (its index in ``failed``) is not written."""
    written = 0
    for i, projection in enumerate(projections):
        if last > projection.position and i not in failed:
            written += projection.write_batch(rows[i], last)
            rows[i] = []
    return written


def rest_together(projections: Sequence[FactProjection]) -> int:
    """Store each projection's state at its position where none is stored there (a graceful
    stop: the next start replays nothing); return how many checkpoints were stored.

    A projection that lent or borrowed state in the last pass borrows it again to store it,
    rather than replaying its way back to a state another projection holds."""
    due = [p for p in projections if p.state_names and p.position > p.checkpointed]
    borrowed = [p for p in due if not p.warm and p.borrow(projections)]
    try:
        return sum(p.rest() for p in due)
    finally:
        for projection in borrowed:
            projection.give_back()
