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

The tallies count the whole history, so they live in the table only: a batch keeps the
trials it read per group, in order, and at its end reads those groups' rows in one query and
adds the trials one by one, exactly as one tally kept in memory would have (the sums of
floats in the same order, so a rebuild and a live view agree to the bit). The state
checkpointed with every write (projections/fact_projection.py) is the trial reader's: the
tables' rules and dealers, and the rounds still open. A restart loads that, never a tally
per player ever seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.store.application import FactStore
from audit.verification.statistics import (
    GROUP_BYS,
    TRIAL_OUTCOMES,
    GroupBy,
    SettledWager,
    Tally,
    TrialReader,
)
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


_LOOKUP = 500
"""Groups read per query at a batch's end (well under either database's parameter limit)."""


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

    def tallies_of(self, keys: Sequence[tuple[GroupBy, str]]) -> dict[tuple[GroupBy, str], Tally]:
        """Return the stored tally of each of ``keys`` that has one."""
        found: dict[tuple[GroupBy, str], Tally] = {}
        for by in sorted({by for by, _ in keys}):
            groups = sorted({group for b, group in keys if b == by})
            for start in range(0, len(groups), _LOOKUP):
                chunk = groups[start : start + _LOOKUP]
                marks = ", ".join(["{p}"] * len(chunk))
                rows = self.query(
                    f"SELECT grp, {', '.join(_COLUMNS)} FROM win_rate_tallies "
                    f"WHERE grouped_by = {{p}} AND grp IN ({marks})",
                    [by, *chunk],
                )
                found.update({(by, row[0]): Tally(*row[1:]) for row in rows})
        return found


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
    view_tables = ("win_rate_tallies",)
    state_names = ("reader",)

    def __init__(self, store: FactStore, view: WinRatesView | None = None) -> None:
        self.reader = TrialReader()
        self._trials: dict[tuple[GroupBy, str], list[SettledWager]] = {}
        """The batch's trials by group, in the order read: added to the stored tallies."""
        super().__init__(store, view or open_win_rates_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Count the trial a fact settles, if any; rows are written at the batch's end."""
        trial = self.reader.feed(fact)
        if trial is not None and trial.outcome in TRIAL_OUTCOMES:  # not surrendered or returned
            for by in GROUP_BYS:
                self._trials.setdefault((by, trial.key(by)), []).append(trial)
        return []

    def pending(self) -> list[tuple[Any, ...]]:
        """Return a row for each tally changed in this batch: its stored tally and the trials."""
        trials, self._trials = self._trials, {}
        if not self.warm:
            return []  # a warm-up's replayed trials are in the stored tallies already
        stored = self.view.tallies_of(list(trials))
        rows = []
        for key in sorted(trials):
            t = stored.get(key) or Tally()
            for trial in trials[key]:
                t.add(trial)
            rows.append((*key, *(getattr(t, c) for c in _COLUMNS)))
        return rows
