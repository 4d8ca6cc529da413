"""The hand-history read model: one row per hand played, written with its store position.

Every round of every game gets its rows when the round completes, or when its table
closes with the round still open; each table's rounds are read by its game's entry in
:data:`HANDS`. A Pai Gow round gives a row to every position that held a Pai Gow wager
or played the banker's hand (the dealer, a player bank, a co-bank or a California
player-dealer); a 21 Baccarat round one to every position that held a wager, with the
round's two hands, its result and the position's main, Tie and Bonus wagers
(projections/baccarat21_hands.py). The ``game`` column says which; the columns of the
other game are empty. Rows are keyed by (table_id, round_id, position) and inserted with
"insert or ignore", so a restart or a rebuild from zero gives the same rows; the
view's position in the store's notification log is recorded in the same
transaction, exactly as the findings view does.

Each row carries the ``player_id`` of the hand: the one its ``wager_placed`` recorded
for a player's position, the ``bank_accepted`` one for a player bank's hand or a
California player-dealer's, and none for the house dealer's hand (or where nothing was
recorded). A store whose table predates a column (``player_id``; ``game`` and the 21
Baccarat columns) gets it added when the view is opened (PostgreSQL: by ``tablewatch db
migrate``); hands written before then keep no player, and their ``game`` reads
``paigow``, the one game they could be, until the view is rebuilt (drop the table and the
view's tracking rows).

State (each table's game reader, with a Pai Gow table's context, and the rounds still
open, with the rules they started under) is checkpointed with every write
(projections/fact_projection.py): a round can straddle a restart, and a table's context
carries over from one gaming day to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any, Protocol

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind
from audit.events.table import TableOpened
from audit.games.errors import RulesError
from audit.games.paigow.hands import describe_hand
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.tiles import parse_tile
from audit.store.application import FactStore
from audit.store.rows import fetch_rows
from audit.verification.paigow import RoundView, TableContext, banking, view_round
from projections.baccarat21_hands import Baccarat21Hands
from projections.checkpoint import Checkpoint, Checkpoints
from projections.fact_projection import FactProjection, fact_kind
from projections.rows_view import open_view

TRACKING_NAME = "hand-history<-tablewatch"
"""The view's name in the tracking table it shares with the store."""

ZERO = Decimal("0.00")
BANKINGS = ("dealer", "player bank", "co-bank", "player-dealer")

COLUMNS = (
    "table_id", "round_id", "position", "round_number", "dealer_id", "player_id", "banking",
    "bank_position", "is_bank", "tiles", "high", "high_name", "low", "low_name", "set_by",
    "wager", "outcome", "paid", "collected", "vigorish", "returned", "collection_fee",
    "pf_wager", "pf_outcome", "pf_paid", "started_at", "completed_at", "voided",
    "notification_id", "game", "bet", "player_cards", "player_total", "banker_cards",
    "banker_total", "result", "tie_wager", "tie_outcome", "tie_paid", "bonus_wager",
    "bonus_outcome", "bonus_paid",
)  # fmt: skip
_MONEY = ("wager", "paid", "collected", "vigorish", "returned", "collection_fee", "pf_wager",
          "pf_paid", "tie_wager", "tie_paid", "bonus_wager", "bonus_paid")  # fmt: skip
_BACCARAT21 = COLUMNS[COLUMNS.index("bet") :]
"""The 21 Baccarat columns, empty in a Pai Gow row."""
_FLAGS = ("is_bank", "voided")
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS hand_history_round ON hand_history (round_id)",
    # A dealer's or a player's hands in the queries' order: a page of them reads that page,
    # not every hand of theirs in history sorted first (#16). They replace the single-column
    # hand_history_dealer and hand_history_player, dropped from an older store (kept up to
    # date on every hand written, for no read).
    "CREATE INDEX IF NOT EXISTS hand_history_dealer_order ON hand_history "
    "(dealer_id, table_id, round_id, position)",
    "CREATE INDEX IF NOT EXISTS hand_history_player_order ON hand_history "
    "(player_id, table_id, round_id, position)",
    "DROP INDEX IF EXISTS hand_history_dealer",
    "DROP INDEX IF EXISTS hand_history_player",
)
"""What the replay, the dealer and the player queries look hands up by (the key starts with
the table)."""


def _added(money: str) -> tuple[tuple[str, str], ...]:
    """Return the columns added since the table's first version, each with its type."""
    text = ("bet", "player_cards", "banker_cards", "result", "tie_outcome", "bonus_outcome")
    return (
        ("player_id", "TEXT"), ("game", f"TEXT NOT NULL DEFAULT '{DEFAULT_GAME}'"),
        *((name, "TEXT") for name in text),
        ("player_total", "INTEGER"), ("banker_total", "INTEGER"),
        *((name, money) for name in ("tie_wager", "tie_paid", "bonus_wager", "bonus_paid")),
    )  # fmt: skip


def _sql(money: str, flag: str, bigint: str) -> str:
    return (
        "CREATE TABLE IF NOT EXISTS hand_history ("
        "table_id TEXT NOT NULL, round_id TEXT NOT NULL, position INTEGER NOT NULL, "
        "round_number INTEGER, dealer_id TEXT, player_id TEXT, banking TEXT NOT NULL, "
        f"bank_position INTEGER NOT NULL, is_bank {flag} NOT NULL, tiles TEXT, "
        "high TEXT, high_name TEXT, low TEXT, low_name TEXT, set_by TEXT, "
        f"wager {money}, outcome TEXT, paid {money}, collected {money}, "
        f"vigorish {money}, returned {money}, collection_fee {money}, "
        f"pf_wager {money}, pf_outcome TEXT, pf_paid {money}, "
        "started_at TEXT, completed_at TEXT, "
        f"voided {flag} NOT NULL, notification_id {bigint} NOT NULL, "
        + "".join(f"{name} {kind}, " for name, kind in _added(money) if name != "player_id")
        + "PRIMARY KEY (table_id, round_id, position))"
    )


# --- building rows -------------------------------------------------------------------------


def _money(amount: Decimal | None) -> str | None:
    return None if amount is None else str(amount.quantize(ZERO))


def _hand(tiles: Sequence[str] | None) -> tuple[str | None, str | None]:
    """Return a two-tile hand as written ('6-6a 4-5') and its name, if it can be named."""
    if not tiles:
        return None, None
    return _named(tuple(tiles))


@lru_cache(maxsize=4096)
def _named(tiles: tuple[str, ...]) -> tuple[str, str | None]:
    # Every hand set names two of 32 tiles: a few hundred pairs, named once each, not per
    # row; the bound holds for any odd data.
    try:
        name = describe_hand(*(parse_tile(t) for t in tiles)).name
    except (RulesError, TypeError):
        name = None  # odd data (a tile twice): shown as recorded, not named
    return " ".join(tiles), name


def _total(found: list[WagerSettled], field: str) -> str | None:
    return _money(sum((getattr(s, field) for s in found), ZERO)) if found else None


_NO_BACCARAT21 = (None,) * len(_BACCARAT21)


_BANKED_BY = {
    BankingMode.CALIFORNIA: "player-dealer",
    BankingMode.DEALER: "dealer",
    BankingMode.CO_BANK: "co-bank",
    BankingMode.PLAYER_BANK: "player bank",
}


def hand_rows(view: RoundView, ruleset: RuleSet, notification_id: int) -> list[tuple[Any, ...]]:
    """Return one round's rows: every Pai Gow wager's position and the banker's hand."""
    who = banking(view, ruleset)  # verification's reading: the checks and replay say the same
    banked_by, bank_position = _BANKED_BY[who.mode], who.banker
    pai_gow: dict[int, Decimal] = {}
    pair_fortunes: dict[int, Decimal] = {}
    players: dict[int, str] = {}
    for _, placed in view.placed:
        into = pai_gow if placed.kind is WagerKind.PAI_GOW else pair_fortunes
        into[placed.position] = into.get(placed.position, ZERO) + placed.amount
        if placed.player_id is not None:
            players[placed.position] = placed.player_id
    if who.taken is not None and who.taken.player_id is not None:
        players[bank_position] = who.taken.player_id  # a player bank or CA's player-dealer
    for _, withdrawn in view.withdrawn:
        into = pai_gow if withdrawn.kind is WagerKind.PAI_GOW else pair_fortunes
        if withdrawn.position in into:
            into[withdrawn.position] -= withdrawn.amount
    positions = set(pai_gow) | {bank_position}
    if view.dealer_wager is not None:
        positions.add(0)  # the dealer's hand plays the player bank (PA 621a.9(h))
    delivered = view.delivered_to()
    fees: dict[int, Decimal] = {}
    for fee in view.fees:
        fees[fee.position] = fees.get(fee.position, ZERO) + fee.amount
    settled: dict[int, list[WagerSettled]] = {}
    for _, one in view.settled:
        found = settled.get(one.position)
        if found is None:
            found = settled[one.position] = []
        found.append(one)
    # What every row of the round shares, read once.
    started = view.started
    round_number = started.round_number if started else None
    started_at = started.occurred_at.isoformat() if started else None
    completed_at = view.completed.occurred_at.isoformat() if view.completed else None
    voided = view.voided is not None
    rows = []
    for position in sorted(positions):
        at = settled.get(position, [])
        main = [s for s in at if s.kind is WagerKind.PAI_GOW]
        side = [s for s in at if s.kind is WagerKind.PAIR_FORTUNES]
        hand = view.hands.get(position)
        high, high_name = _hand(hand.high if hand else None)
        low, low_name = _hand(hand.low if hand else None)
        tiles = delivered.get(position)
        wager, outcome = pai_gow.get(position), main[-1].outcome if main else None
        if position == 0 and position != bank_position and view.dealer_wager is not None:
            wager = view.dealer_wager.amount  # the dealer's wager against the player bank
            settled_dealer = view.dealer_wager_settled
            outcome = settled_dealer.outcome if settled_dealer else None
        rows.append((
            view.table_id, view.round_id, position, round_number, view.dealer_id,
            players.get(position), banked_by,
            bank_position, position == bank_position, " ".join(tiles) if tiles else None,
            high, high_name, low, low_name, hand.set_by if hand else None,
            _money(wager), outcome,
            _total(main, "paid"), _total(main, "collected"), _total(main, "vigorish"),
            _total(main, "returned"),
            _money(fees.get(position)), _money(pair_fortunes.get(position)),
            side[-1].outcome if side else None, _total(side, "paid"),
            started_at, completed_at, voided, notification_id, "paigow", *_NO_BACCARAT21,
        ))  # fmt: skip
    return rows


# --- the views -----------------------------------------------------------------------------


def _where(filters: dict[str, Any], placeholder: str) -> tuple[str, list[Any]]:
    clauses, params = ["1 = 1"], []
    for column, value in filters.items():
        if value is not None:
            clauses.append(f"{column} = {placeholder}")
            params.append(value)
    return " AND ".join(clauses), params


def _as_dict(row: Sequence[Any]) -> dict[str, Any]:
    found = dict(zip(COLUMNS, row, strict=True))
    for name in _MONEY:
        if found[name] is not None:
            found[name] = str(Decimal(found[name]).quantize(ZERO))
    for name in _FLAGS:
        found[name] = bool(found[name])
    return found


def _query(filters: dict[str, Any], limit: int | None, placeholder: str) -> tuple[str, list[Any]]:
    where, params = _where(filters, placeholder)
    sql = (
        f"SELECT {', '.join(COLUMNS)} FROM hand_history WHERE {where} "
        "ORDER BY table_id, round_id, position"
    )
    if limit is not None:
        sql += f" LIMIT {placeholder}"
        params.append(limit)
    return sql, params


class _Reads:
    """Reads alike from either database (SQL in its placeholder)."""

    datastore: Any
    placeholder: str

    def select(
        self,
        table_id: str | None = None,
        round_id: str | None = None,
        dealer_id: str | None = None,
        limit: int | None = None,
        player_id: str | None = None,
    ) -> list[dict[str, Any]]:
        """Return hand rows, by table, round and position."""
        filters = {
            "table_id": table_id, "round_id": round_id, "dealer_id": dealer_id,
            "player_id": player_id,
        }  # fmt: skip
        sql, params = _query(filters, limit, self.placeholder)
        return [_as_dict(row) for row in fetch_rows(self.datastore, sql, params)]


class SQLiteHandHistoryView(_Reads, Checkpoints, SQLiteTrackingRecorder):
    """The hand-history view in the embedded SQLite store."""

    placeholder = "?"

    def create_table(self) -> None:
        """Create the tracking table and the hand-history table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_sql("TEXT", "INTEGER", "INTEGER"))
            cursor.execute("PRAGMA table_info(hand_history)")
            found = {row[1] for row in cursor.fetchall()}
            for name, kind in _added("TEXT"):
                if name not in found:  # a table from before the column
                    cursor.execute(f"ALTER TABLE hand_history ADD COLUMN {name} {kind}")
            for index in _INDEXES:
                cursor.execute(index)

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write hand rows and the view's position and checkpoint in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            cursor.executemany(
                f"INSERT OR IGNORE INTO hand_history ({', '.join(COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(COLUMNS))})",
                rows,  # sqlite3 binds a bool as the integer 1 or 0: no conversion needed
            )
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


class PostgresHandHistoryView(_Reads, Checkpoints, PostgresTrackingRecorder):
    """The hand-history view in PostgreSQL."""

    placeholder = "%s"

    def create_table(self) -> None:
        """Create the tracking table and the hand-history table."""
        super().create_table()
        self.create_checkpoint_table()
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(_sql("NUMERIC(14, 2)", "BOOLEAN", "BIGINT"))
            for name, kind in _added("NUMERIC(14, 2)"):
                cursor.execute(f"ALTER TABLE hand_history ADD COLUMN IF NOT EXISTS {name} {kind}")
            for index in _INDEXES:
                cursor.execute(index)

    def record(
        self,
        rows: Sequence[tuple[Any, ...]],
        tracking: Tracking,
        checkpoint: Checkpoint | None = None,
    ) -> None:
        """Write hand rows and the view's position and checkpoint in one transaction."""
        with self.datastore.transaction(commit=True) as cursor:
            if rows:
                cursor.executemany(
                    f"INSERT INTO hand_history ({', '.join(COLUMNS)}) "
                    f"VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
                    "ON CONFLICT (table_id, round_id, position) DO NOTHING",
                    list(rows),
                )
            self._insert_tracking(cursor, tracking)
            self._insert_checkpoint(cursor, tracking.application_name, checkpoint)


HandHistoryView = SQLiteHandHistoryView | PostgresHandHistoryView


def open_hand_history_view(store: FactStore) -> HandHistoryView:
    """Return the hand-history view in the store's own database, creating its table if need be."""
    return open_view(store, SQLiteHandHistoryView, PostgresHandHistoryView)


# --- the projections -----------------------------------------------------------------------


class TableHands(Protocol):
    """One table's reading of its rounds into hand rows, by its game."""

    game: str

    def observe(self, fact: Event) -> None:
        """Take a table fact (one with no round)."""
        ...

    def rules(self) -> Any:
        """Return what a round starting now is read under."""
        ...

    def rows(self, events: list[Event], rules: Any, notification_id: int) -> list[Any]:
        """Return a round's rows, as tuples in :data:`COLUMNS` order or dicts by column."""
        ...


class PaiGowHands:
    """One Pai Gow table: its context (rules, banking) carries from round to round and day
    to day, and each round is read under the rules it started under."""

    game = "paigow"

    def __init__(self, table_id: str) -> None:
        self.context = TableContext(table_id)

    def observe(self, fact: Event) -> None:
        """Take a table fact into the table's context."""
        self.context.observe(fact)

    def rules(self) -> RuleSet:
        """Return the table's rules now."""
        return self.context.ruleset

    def rows(self, events: list[Event], rules: RuleSet, notification_id: int) -> list[Any]:
        """Return a round's rows."""
        return hand_rows(view_round(events), rules, notification_id)


HANDS: dict[str, Callable[[str], TableHands]] = {
    "paigow": PaiGowHands,
    "baccarat21": Baccarat21Hands,
}
"""Game name -> how a table of that game reads its rounds into hand rows."""


def _as_tuple(row: Any) -> tuple[Any, ...]:
    return tuple(row.get(name) for name in COLUMNS) if isinstance(row, dict) else tuple(row)


class HandHistoryProjection(FactProjection):
    """Keeps the hand-history view up to date with the store."""

    tracking_name = TRACKING_NAME
    view_tables = ("hand_history",)
    state_names = ("tables", "open_rounds", "_rules_at_start")

    def __init__(self, store: FactStore, view: HandHistoryView | None = None) -> None:
        self.tables: dict[str, TableHands] = {}
        """Table -> its game's reader (a table not yet opened reads as the default game)."""
        self.open_rounds: dict[tuple[str, str], list[Event]] = {}
        self._rules_at_start: dict[tuple[str, str], Any] = {}
        super().__init__(store, view or open_hand_history_view(store))

    def _table(self, fact: Event) -> TableHands:
        table = self.tables.get(fact.table_id)
        game = fact.game if isinstance(fact, TableOpened) else None
        if table is None or (game is not None and game != table.game):
            table = self.tables[fact.table_id] = HANDS[game or DEFAULT_GAME](fact.table_id)
        return table

    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact; return the rows of a round it completes (or its table closes out)."""
        kind = fact_kind(fact)
        table = self.tables.get(fact.table_id)
        if table is None or kind == "table_opened":
            table = self._table(fact)
        round_id = fact.round_id
        if round_id is None:
            rows: list[tuple[Any, ...]] = []
            if kind == "table_closed":
                for key in [k for k in self.open_rounds if k[0] == fact.table_id]:
                    rows += self._close(key, notification_id)
            table.observe(fact)
            return rows
        key = (fact.table_id, round_id)
        events = self.open_rounds.get(key)
        if events is None:
            self._rules_at_start[key] = table.rules()
            events = self.open_rounds[key] = []
        events.append(fact)
        if kind == "round_completed":
            return self._close(key, notification_id)
        return []

    def _close(self, key: tuple[str, str], notification_id: int) -> list[tuple[Any, ...]]:
        events, rules = self.open_rounds.pop(key), self._rules_at_start.pop(key)
        rows = self.tables[key[0]].rows(events, rules, notification_id)
        return [_as_tuple(row) for row in rows]
