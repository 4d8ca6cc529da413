"""``tablewatch serve --rebuild-views``: every read model's view emptied, to be judged again.

The views hold what the rules engines judged when each fact was read. After an engine changes
(a defect mended, a rule added, a read model added), history must be judged again: this
empties, in one transaction, the tables of every read model ``serve`` keeps
(:attr:`~projections.fact_projection.FactProjection.view_tables`), their checkpoints, and their
positions (set to 0), so the service's next pass rebuilds them from the first stored fact, on
two cores (``projections/split.py``), exactly once across a kill as any pass is. The stored
facts, the cases, the web's users and its access log are not touched. It runs once ``serve`` holds
the store's lease (``consumers/store_lease.py``), so no other service is left writing from the
positions it held.

**Alerts.** Neither database restarts a row number on DELETE, so every rebuilt finding comes
after each alert leg's position, and without more the whole of history would be alerted again.
So each leg that has delivered anything gets a *horizon* first, in the same transaction: the
last stored fact all of whose alerts it had delivered (the fact of its last delivered
finding, or the fact before it when later findings of that fact were still to go). A rebuilt
finding about a fact at or before its horizon is passed over (``consumers/alerts.py``): it went
out before, or it re-judges the past, which belongs in the queue, not in an alert as if the
table were in play. One about a later fact goes out as it would have, so an alert that was
still waiting is not lost. Passed over, a finding stays in the queue. A horizon only rises: a
rebuild begun again before the last was delivered past keeps the higher. A horizon counts only
the alerts whose positions are written, so the views are emptied while no alert is being
delivered: ``serve`` waits for its own delivery, and for a ``tablewatch alerts --follow`` to let
the store's alerts lease go (``Service._rebuild``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from audit.store.application import FactStore
from consumers.alerts import MIN_SEVERITY, TRACKING_NAME, WEBHOOK_TRACKING_NAME, horizon_name
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.read_models import READ_MODELS

_SQLITE_TRACKING = "tracking"
"""eventsourcing's SQLite tracking table (PostgreSQL's is named by the store's application)."""


@dataclass(frozen=True)
class Emptied:
    """What a rebuild of the views emptied, and where the alerts stand."""

    tables: tuple[str, ...]
    read_models: tuple[str, ...]
    horizons: dict[str, int]
    """Each alert leg's horizon (a notification id), for the legs that had delivered."""
    stored: int
    """The last stored event when the views were emptied: what the first pass reads up to."""


def rebuild_views(store: FactStore) -> Emptied:
    """Empty every read model's view, its checkpoint and position, recording each alert leg's
    horizon first, all in one transaction; return what was done."""
    models = [kind(store) for kind in READ_MODELS]  # opens each view (its tables, if allowed)
    findings = next(m for m in models if isinstance(m, FindingsProjection))
    view: Any = findings.view
    p = "%s" if store.is_postgres else "?"
    tracking = getattr(view, "tracking_table_name", _SQLITE_TRACKING)
    horizons = {
        leg: horizon
        for leg in (TRACKING_NAME, WEBHOOK_TRACKING_NAME)
        if (horizon := _horizon(view, leg, p)) is not None
    }
    stored = store.last_notification_id()
    with view.datastore.transaction(commit=True) as cursor:
        for leg, horizon in horizons.items():
            cursor.execute(
                f"INSERT INTO {tracking} (application_name, notification_id) VALUES ({p}, {p}) "
                "ON CONFLICT (application_name) DO UPDATE "
                "SET notification_id = excluded.notification_id",
                [horizon_name(leg), horizon],
            )
        _empty(cursor, models, tracking, p, postgres=store.is_postgres)
    return Emptied(
        tables=tuple(table for model in models for table in model.view_tables),
        read_models=tuple(model.tracking_name for model in models),
        horizons=horizons,
        stored=stored,
    )


def _empty(
    cursor: Any, models: Sequence[FactProjection], tracking: str, p: str, *, postgres: bool
) -> None:
    tables = [table for model in models for table in model.view_tables]
    if postgres:
        # TRUNCATE, in the transaction like the rest: a year of a large floor's hand history is
        # hundreds of millions of rows, which DELETE would write to the WAL one by one and leave
        # dead until a vacuum. It keeps the sequences, so row numbers go on (see Alerts above).
        cursor.execute(f"TRUNCATE {', '.join(tables)}")
    else:
        for table in tables:  # SQLite empties a table DELETEd whole without a row-by-row walk
            cursor.execute(f"DELETE FROM {table}")
    for model in models:
        cursor.execute(
            f"DELETE FROM projection_checkpoints WHERE tracking_name = {p}", [model.tracking_name]
        )
        # Set to 0, not deleted: the view's role may update its positions, never delete them.
        cursor.execute(
            f"UPDATE {tracking} SET notification_id = 0 WHERE application_name = {p}",
            [model.tracking_name],
        )


def _horizon(view: Any, leg: str, p: str) -> int | None:
    """Return the last stored fact all of whose alerts ``leg`` delivered (never lower than a
    horizon recorded before), or None if the leg has delivered nothing the view still holds."""
    before = view.max_tracking_id(horizon_name(leg)) or 0
    position = view.max_tracking_id(leg)
    if not position:
        return before or None
    with view.datastore.transaction(commit=False) as cursor:
        cursor.execute(
            f"SELECT notification_id FROM findings WHERE row_number <= {p} "
            "ORDER BY row_number DESC LIMIT 1",
            [position],
        )
        found = cursor.fetchall()
    if not found:  # emptied by a rebuild it has not yet passed: the horizon stays
        return before or None
    first = found[0]
    delivered = int(first["notification_id"] if isinstance(first, dict) else first[0])
    waiting = view.found_after(position, MIN_SEVERITY, 1)
    if waiting and waiting[0]["notification_id"] == delivered:
        delivered -= 1  # that fact's later alerts were still to go: they must not be passed over
    return max(delivered, before)
