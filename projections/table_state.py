"""The table-state read model: one row per table, upserted with the view's store position.

Each table's game, rule set, gaming day, open or closed, dealer and rounds, as its events
told them, and what its game adds, read by the game's entry in :data:`STATES`: a Pai Gow
table's equipment (tile set and dice, and since when) and banking rotation; a 21
Baccarat table's shoe in play (its number in the gaming day, its decks, since when it
was loaded, and the rounds dealt from it). Tables changed in a
batch are upserted (``INSERT ... ON CONFLICT (table_id) DO UPDATE``) in the same
transaction as the view's position in the store's notification log, so the row
is always the table as of that position; a rebuild from zero gives the same rows.

State (each table's context and the rounds still open) is checkpointed with every write
(projections/fact_projection.py): the tile set in play, since when, and the banking
rotation carry over from one gaming day to the next, so no single day rebuilds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.events.table import TableOpened
from audit.store.application import FactStore
from audit.store.rows import fetch_rows
from audit.verification.paigow import TableContext, after_round, view_round
from projections.checkpoint import Checkpoint, Checkpoints
from projections.fact_projection import FactProjection, fact_kind
from projections.rows_view import open_view

TRACKING_NAME = "table-state<-tablewatch"
"""The view's name in the tracking table it shares with the store."""

COLUMNS = (
    "table_id", "rule_set", "gaming_day", "is_open", "dealer_id", "tile_set_id",
    "tiles_since", "dice_set_id", "dice_since", "rounds_played", "rounds_in_game",
    "bank_position", "bank_streak", "last_event_at", "notification_id", "game", "shoe_number",
    "shoe_decks", "shoe_since", "shoe_rounds",
)  # fmt: skip
_ADDED = (
    ("game", f"TEXT NOT NULL DEFAULT '{DEFAULT_GAME}'"), ("shoe_number", "INTEGER"),
    ("shoe_decks", "INTEGER"), ("shoe_since", "TEXT"), ("shoe_rounds", "INTEGER"),
)  # fmt: skip
"""The columns added since the table's first version, each with its type."""


def _sql(flag: str, bigint: str) -> str:
    return (
        "CREATE TABLE IF NOT EXISTS table_state ("
        "table_id TEXT PRIMARY KEY, rule_set TEXT NOT NULL, gaming_day TEXT, "
        f"is_open {flag} NOT NULL, dealer_id TEXT, tile_set_id TEXT, tiles_since TEXT, "
        "dice_set_id TEXT, dice_since TEXT, rounds_played INTEGER NOT NULL, "
        "rounds_in_game INTEGER NOT NULL, bank_position INTEGER, bank_streak INTEGER NOT NULL, "
        f"last_event_at TEXT, notification_id {bigint} NOT NULL, "
        + ", ".join(f"{name} {kind}" for name, kind in _ADDED)
        + ")"
    )


def _upsert(placeholder: str) -> str:
    updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:])
    return (
        f"INSERT INTO table_state ({', '.join(COLUMNS)}) "
        f"VALUES ({', '.join([placeholder] * len(COLUMNS))}) "
        f"ON CONFLICT (table_id) DO UPDATE SET {updates}"
    )


_NO_SHOE = (None, None, None, None)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


@dataclass
class TableState:
    """What the view knows of one table beyond the verifier's :class:`TableContext`."""

    context: TableContext
    gaming_day: str | None = None
    is_open: bool = False
    dice_set_id: str | None = None
    rounds_played: int = 0
    last_event_at: datetime | None = None
    notification_id: int = 0
    game: str = DEFAULT_GAME
    other_game_rules: str | None = None
    """The rule set of a table of a game without a context (no tiles, dice or bank rotation)."""
    shoe: Shoe | None = None
    """A 21 Baccarat table's shoe in play."""
    shoes: int = 0
    """Shoes loaded at a 21 Baccarat table this gaming day."""
    decks: int | None = None
    """The decks of the table's last shuffle."""

    def row(self) -> tuple[Any, ...]:
        """Return the table's row as written."""
        c = self.context
        bank_position, streak = c.bank_streak
        shoe = self.shoe
        return (
            c.table_id, self.other_game_rules or c.ruleset.name, self.gaming_day, self.is_open,
            c.dealer_id, c.tile_set_id, _iso(c.tiles_since), self.dice_set_id, _iso(c.dice_since),
            self.rounds_played, c.rounds_in_game, bank_position, streak,
            _iso(self.last_event_at), self.notification_id, self.game,
            *((shoe.number, shoe.decks, _iso(shoe.since), shoe.rounds) if shoe else _NO_SHOE),
        )  # fmt: skip


@dataclass
class Shoe:
    """A 21 Baccarat shoe in play: the gaming day's n-th, its decks, loaded when, rounds dealt."""

    number: int
    decks: int | None
    since: datetime
    rounds: int = 0


def _as_dict(row: Sequence[Any]) -> dict[str, Any]:
    found = dict(zip(COLUMNS, row, strict=True))
    found["is_open"] = bool(found["is_open"])
    return found


def _age(since: str | None, now: datetime) -> timedelta | None:
    return None if since is None else now - datetime.fromisoformat(since)


class _Queries:
    """Reads shared by both databases."""

    datastore: Any

    def select(self) -> list[dict[str, Any]]:
        """Return every table's row, by table id."""
        sql = f"SELECT {', '.join(COLUMNS)} FROM table_state ORDER BY table_id"
        return [_as_dict(row) for row in fetch_rows(self.datastore, sql)]

    def ages(self, now: datetime) -> dict[str, dict[str, timedelta | None]]:
        """Return each table's tile-set and dice ages at ``now`` (aware), None where unknown."""
        return {
            row["table_id"]: {
                "tiles": _age(row["tiles_since"], now),
                "dice": _age(row["dice_since"], now),
            }
            for row in self.select()
        }


class SQLiteTableStateView(_Queries, Checkpoints, SQLiteTrackingRecorder):
    """The table-state view in the embedded SQLite store."""

    def create_table(self) -> None:
        """Create the tracking table and the table-state table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_sql("INTEGER", "INTEGER"))
            cursor.execute("PRAGMA table_info(table_state)")
            found = {row[1] for row in cursor.fetchall()}
            for name, kind in _ADDED:
                if name not in found:  # a table from before the column
                    cursor.execute(f"ALTER TABLE table_state ADD COLUMN {name} {kind}")

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Upsert table rows; write the position and the checkpoint in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            # sqlite3 binds a bool as the integer 1 or 0: no conversion needed
            cursor.executemany(_upsert("?"), rows)
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


class PostgresTableStateView(_Queries, Checkpoints, PostgresTrackingRecorder):
    """The table-state view in PostgreSQL."""

    def create_table(self) -> None:
        """Create the tracking table and the table-state table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_sql("BOOLEAN", "BIGINT"))
            for name, kind in _ADDED:
                cursor.execute(f"ALTER TABLE table_state ADD COLUMN IF NOT EXISTS {name} {kind}")

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Upsert table rows; write the position and the checkpoint in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            if rows:
                cursor.executemany(_upsert("%s"), list(rows))
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


TableStateView = SQLiteTableStateView | PostgresTableStateView


def open_table_state_view(store: FactStore) -> TableStateView:
    """Return the table-state view in the store's own database, creating its table if need be."""
    return open_view(store, SQLiteTableStateView, PostgresTableStateView)


class TableStateProjection(FactProjection):
    """Keeps the table-state view up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("table_state",)
    state_names = ("tables", "open_rounds")

    def __init__(self, store: FactStore, view: TableStateView | None = None) -> None:
        self.tables: dict[str, TableState] = {}
        self.open_rounds: dict[tuple[str, str], list[Event]] = {}
        self._changed: set[str] = set()
        super().__init__(store, view or open_table_state_view(store))

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact into its table's state; rows are written at the batch's end."""
        kind = fact_kind(fact)
        if kind == "drop_counted":
            return []  # the count room's station, not a table: no tiles, dice or rotation
        table_id = fact.table_id
        state = self.tables.get(table_id)
        if state is None:
            state = self.tables[table_id] = TableState(TableContext(table_id))
        state.last_event_at = fact.occurred_at
        state.notification_id = notification_id
        self._changed.add(table_id)
        if isinstance(fact, TableOpened):
            state.game = fact.game
            state.other_game_rules = None if fact.game == DEFAULT_GAME else fact.rule_set
        return STATES[state.game](self, state, fact, kind)

    def _pai_gow(self, state: TableState, fact: Event, kind: str) -> list[tuple[Any, ...]]:
        """A Pai Gow table: its context (rules, equipment, bank rotation) and its rounds."""
        if fact.round_id is None:
            state.context.observe(fact)
            if kind == "table_opened":
                state.is_open = True
                state.gaming_day = fact.gaming_day.isoformat()  # type: ignore[attr-defined]
                state.rounds_played = 0
                state.context.bank_streak = (None, 0)
            elif kind == "table_closed":
                state.is_open = False
                for key in [k for k in self.open_rounds if k[0] == fact.table_id]:
                    del self.open_rounds[key]  # never played to the end: not counted
            elif kind == "dice_placed_in_shaker":
                state.dice_set_id = fact.dice_set_id  # type: ignore[attr-defined]
            return []
        key = (fact.table_id, fact.round_id)
        events = self.open_rounds.get(key)
        if events is None:
            events = self.open_rounds[key] = []
        events.append(fact)
        if kind == "round_started":
            state.context.dealer_id = fact.dealer_id  # type: ignore[attr-defined]
        elif kind == "round_completed":
            view = view_round(self.open_rounds.pop(key))
            state.rounds_played += 1  # a voided round counts, as the verifier counts it
            after_round(view, state.context)
        return []

    def _baccarat21(self, state: TableState, fact: Event, kind: str) -> list[tuple[Any, ...]]:
        """A 21 Baccarat table: its opening, dealer, rounds and the shoe in play."""
        if isinstance(fact, TableOpened):
            state.is_open, state.gaming_day = True, fact.gaming_day.isoformat()
            state.context.dealer_id, state.rounds_played = fact.dealer_id, 0
            state.shoe, state.shoes = None, 0  # each gaming day opens with a shuffle
        elif kind == "table_closed":
            state.is_open = False
        elif kind == "dealer_changed":
            state.context.dealer_id = fact.incoming_dealer_id  # type: ignore[attr-defined]
        elif kind == "round_started":
            state.context.dealer_id = fact.dealer_id  # type: ignore[attr-defined]
        elif kind == "shoe_shuffled":
            state.decks = fact.decks  # type: ignore[attr-defined]
        elif kind == "shoe_loaded":
            state.shoes += 1
            state.shoe = Shoe(state.shoes, state.decks, fact.occurred_at)
        elif kind == "round_completed":
            state.rounds_played += 1  # a voided round counts, as for Pai Gow
            if state.shoe is not None:
                state.shoe.rounds += 1
        return []

    def pending(self) -> list[tuple[Any, ...]]:
        """Return the rows of the tables changed since the last write."""
        rows = [self.tables[table_id].row() for table_id in sorted(self._changed)]
        self._changed.clear()
        return rows


STATES: dict[
    str, Callable[[TableStateProjection, TableState, Event, str], list[tuple[Any, ...]]]
] = {
    "paigow": TableStateProjection._pai_gow,
    "baccarat21": TableStateProjection._baccarat21,
}
"""Game name -> how a table of that game takes one fact (and its type name) into its state."""
