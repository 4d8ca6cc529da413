"""Every read model caught up from one read of the store: each fact read and parsed once.

A projection's own :meth:`~projections.fact_projection.FactProjection.catch_up` reads
and parses the facts after its position; six of them doing so read the store six
times. :func:`catch_up_together` reads from the position of the one furthest behind,
parses each fact once, and gives it to every projection not yet past it. Each still
writes its rows with its own position in its own transaction, so each stays exactly
once on its own: a crash between two projections' writes leaves one a batch ahead,
and the next pass simply starts that one later.
"""

from __future__ import annotations

from collections.abc import Sequence

from projections.fact_projection import FactProjection


def catch_up_together(projections: Sequence[FactProjection], batch: int = 2_000) -> int:
    """Apply every fact stored since each projection's position; return the rows written."""
    if not projections:
        return 0
    last_stored = projections[0].store.last_notification_id()
    behind = [p for p in projections if p.position < last_stored]
    if not behind:
        return 0
    for projection in behind:
        projection.warm_up()  # its state as of its position (a checkpoint, or a replay)
    start = min(p.position for p in behind) + 1
    rows: list[list[tuple[object, ...]]] = [[] for _ in behind]
    applied = [p.position for p in behind]
    written = 0
    batch_start = start
    for notification_id, fact in behind[0].facts_after(start):
        for i, projection in enumerate(behind):
            if notification_id > projection.position:
                if fact is not None:
                    rows[i] += projection.apply(fact, notification_id)
                applied[i] = notification_id
        if notification_id - batch_start >= batch:
            written += _write_all(behind, rows, applied)
            batch_start = notification_id
    return written + _write_all(behind, rows, applied)


def _write_all(
    projections: Sequence[FactProjection], rows: list[list[tuple[object, ...]]], applied: list[int]
) -> int:
    """Write each projection's rows and position, if it moved; clear what was written."""
    written = 0
    for i, projection in enumerate(projections):
        if applied[i] > projection.position:
            written += projection.write_batch(rows[i], applied[i])
            rows[i] = []
    return written
