"""The win-rate read model: trials by table, dealer, position, player and dealer with player.

Every settled wager that is a trial (audit/verification/statistics.py) is tallied
under each grouping: wins, pushes, losses and the sum of the engine's win chances,
and by money the cents staked and won (exact integers) with the money expected and
its variance (estimates). At each batch's end the changed tallies are written with
the view's position, exactly once; ``tablewatch stats`` turns them into observed
against expected rates with a Wilson interval that narrows as trials accumulate, and
money won against money expected with its interval.

The table is ``win_rate_tallies``, tracked as ``win-rate-tallies<-tablewatch``: a
store kept by an older version has a ``win_rates`` table without players or money,
which this view neither reads nor changes (it may be dropped); the new view builds
itself from the first fact.

State (the tallies, which count the whole history, and the trial reader's rounds still
open) is checkpointed with every write (projections/fact_projection.py).
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from audit.verification.statistics import GROUP_BYS, TRIAL_OUTCOMES, GroupBy, Tally, TrialReader
from projections.fact_projection import FactProjection
from projections.rows_view import RowsView, open_view

TRACKING_NAME = "win-rate-tallies<-tablewatch"
_COLUMNS = ("wins", "pushes", "losses", "expected_sum", "wagered", "won", "expected_won",
            "won_variance")  # fmt: skip
"""A tally's columns, in :class:`~audit.verification.statistics.Tally`'s field order."""
_CREATE = (
    "CREATE TABLE IF NOT EXISTS win_rate_tallies (grouped_by TEXT NOT NULL, grp TEXT NOT NULL, "
    "wins INTEGER NOT NULL, pushes INTEGER NOT NULL, losses INTEGER NOT NULL, "
    "expected_sum DOUBLE PRECISION NOT NULL, wagered BIGINT NOT NULL, won BIGINT NOT NULL, "
    "expected_won DOUBLE PRECISION NOT NULL, won_variance DOUBLE PRECISION NOT NULL, "
    "PRIMARY KEY (grouped_by, grp))"
)
_UPSERT = (
    f"INSERT INTO win_rate_tallies (grouped_by, grp, {', '.join(_COLUMNS)}) "
    f"VALUES ({', '.join(['{p}'] * (len(_COLUMNS) + 2))}) "
    "ON CONFLICT (grouped_by, grp) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS)
)


class _Tallies(RowsView):
    """What both databases' views share: the table, and the reads."""

    create_sql = _CREATE
    write_sql = _UPSERT

    def tallies(self, by: GroupBy) -> dict[str, Tally]:
        """Return every group's tally under ``by``."""
        rows = self.query(
            f"SELECT grp, {', '.join(_COLUMNS)} FROM win_rate_tallies WHERE grouped_by = {{p}}",
            [by],
        )
        return {row[0]: Tally(*row[1:]) for row in rows}


class SQLiteWinRatesView(_Tallies, SQLiteTrackingRecorder):
    """The win-rate view in the embedded SQLite store."""


class PostgresWinRatesView(_Tallies, PostgresTrackingRecorder):
    """The win-rate view in PostgreSQL."""

    placeholder = "%s"


WinRatesView = SQLiteWinRatesView | PostgresWinRatesView


def open_win_rates_view(store: FactStore) -> WinRatesView:
    """Return the win-rate view in the store's own database, creating it if need be."""
    return open_view(store, SQLiteWinRatesView, PostgresWinRatesView)


class WinRatesProjection(FactProjection):
    """Keeps the win-rate tallies up to date with the store."""

    tracking_name = TRACKING_NAME
    state_names = ("reader", "tallies")

    def __init__(self, store: FactStore, view: WinRatesView | None = None) -> None:
        self.reader = TrialReader()
        self.tallies: dict[tuple[GroupBy, str], Tally] = {}
        self._changed: set[tuple[GroupBy, str]] = set()
        super().__init__(store, view or open_win_rates_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Count the trial a fact settles, if any; rows are written at the batch's end."""
        trial = self.reader.feed(fact)
        if trial is not None and trial.outcome in TRIAL_OUTCOMES:  # not surrendered or returned
            for by in GROUP_BYS:
                key = (by, trial.key(by))
                self.tallies.setdefault(key, Tally()).add(trial)
                self._changed.add(key)
        return []

    def pending(self) -> list[tuple[Any, ...]]:
        """Return a row for each tally changed in this batch."""
        rows = []
        for by, group in sorted(self._changed):
            t = self.tallies[(by, group)]
            rows.append((by, group, *(getattr(t, c) for c in _COLUMNS)))
        self._changed.clear()
        return rows
