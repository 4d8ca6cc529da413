"""``/api/tables`` and ``/api/floor``: each table's live state, and the floor at a glance.

A table's state is the table-state view's row (game, rule set, gaming day, open or closed,
dealer, rounds, last event; a Pai Gow table's tile set and dice and since when and bank
rotation; a 21 Baccarat table's shoe in play, since when and rounds dealt from it); the floor
adds to each table its alerts (findings at warning and above) and the newest of them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel

from audit.findings.finding import Severity
from audit.store.rows import fetch_rows
from consumers.web.access_log import record_access
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require
from consumers.web.errors import NotFoundError

router = APIRouter(prefix="/api", tags=["tables"])
Analyst = Annotated[User, Depends(require("analyst"))]


class TableOut(BaseModel):
    """One table as the table-state view holds it."""

    table_id: str
    game: str
    rule_set: str
    gaming_day: str | None
    is_open: bool
    dealer_id: str | None
    tile_set_id: str | None
    tiles_since: str | None
    tile_set_age_s: float | None
    dice_set_id: str | None
    dice_since: str | None
    dice_age_s: float | None
    rounds_played: int
    rounds_in_game: int
    bank_position: int | None
    bank_streak: int
    last_event_at: str | None
    shoe_number: int | None = None
    """A 21 Baccarat table's shoe in play: the gaming day's n-th shoe loaded."""
    shoe_decks: int | None = None
    shoe_since: str | None = None
    shoe_age_s: float | None = None
    shoe_rounds: int | None = None
    """Rounds dealt from the shoe in play."""


class FloorTable(TableOut):
    """A table on the floor: its state, its alerts (warning and above) in its gaming day, and
    the newest of them."""

    alerts: int
    critical: int
    last_alert_at: str | None


class Floor(BaseModel):
    """Every table, with the floor's totals."""

    tables: list[FloorTable]
    open_tables: int
    alerts: int
    as_of: str


def _age(since: str | None, now: datetime) -> float | None:
    return None if since is None else (now - datetime.fromisoformat(since)).total_seconds()


def _table(row: dict[str, Any], now: datetime) -> dict[str, Any]:
    return {
        **row,
        "tile_set_age_s": _age(row["tiles_since"], now),
        "dice_age_s": _age(row["dice_since"], now),
        "shoe_age_s": _age(row["shoe_since"], now),
    }


def _alerts_by_table(views: Views, days: dict[str, str]) -> dict[str, tuple[int, int, str | None]]:
    """Return each table's count of alerts in its gaming day (``days``: table -> its day), of
    criticals, and its newest alert's time.

    Read through the findings' gaming-day index: the floor costs the tables' days, never
    every alert in history (#16).
    """
    if not days:
        return {}
    view = views.findings
    p = view.placeholder
    wanted = sorted(set(days.values()))
    sql = (
        "SELECT table_id, gaming_day, COUNT(*) AS n, "
        f"SUM(CASE WHEN severity = {p} THEN 1 ELSE 0 END) AS c, MAX(occurred_at) AS last "
        f"FROM findings WHERE gaming_day IN ({', '.join([p] * len(wanted))}) "
        f"AND severity IN ({p}, {p}) GROUP BY table_id, gaming_day"
    )
    params = [Severity.CRITICAL.value, *wanted, Severity.WARNING.value, Severity.CRITICAL.value]
    found = {}
    for table, day, n, critical, last in fetch_rows(view.datastore, sql, params):
        if days.get(table) == day:
            found[table] = (int(n), int(critical or 0), last)
    return found


@router.get("/tables", response_model=list[TableOut])
def tables(
    request: Request, user: Analyst, views: Annotated[Views, Depends(views_of)]
) -> list[TableOut]:
    """Return every table's live state, by table id."""
    now = datetime.now(UTC)
    record_access(request.app.state.db, user, "floor", "tables")
    return [TableOut.model_validate(_table(row, now)) for row in views.table_state.select()]


@router.get("/tables/{table_id}", response_model=TableOut)
def table(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    table_id: Annotated[str, Path(max_length=64)],
) -> TableOut:
    """Return one table's live state."""
    row = next((r for r in views.table_state.select() if r["table_id"] == table_id), None)
    if row is None:
        raise NotFoundError(f"no table {table_id!r}")
    record_access(request.app.state.db, user, "table", table_id)
    return TableOut.model_validate(_table(row, datetime.now(UTC)))


@router.get("/floor", response_model=Floor)
def floor(request: Request, user: Analyst, views: Annotated[Views, Depends(views_of)]) -> Floor:
    """Return every table's state with its alerts of its gaming day: what a floor view shows."""
    now = datetime.now(UTC)
    states = views.table_state.select()
    days = {row["table_id"]: row["gaming_day"] for row in states if row["gaming_day"]}
    alerts = _alerts_by_table(views, days)
    out = []
    for row in states:
        count, critical, last = alerts.get(row["table_id"], (0, 0, None))
        out.append(
            FloorTable.model_validate(
                {**_table(row, now), "alerts": count, "critical": critical, "last_alert_at": last}
            )
        )
    record_access(request.app.state.db, user, "floor", "floor")
    return Floor(
        tables=out,
        open_tables=sum(t.is_open for t in out),
        alerts=sum(t.alerts for t in out),
        as_of=now.isoformat(),
    )
