"""The ingest's own state tables: each table's head, and every arriving event id with its digest.

The ingest judges each arriving event against its table's history: has this
``event_id`` been seen, with which content, and which ``seq`` comes next. Held
in memory that history grows with every fact ever stored and has to be read
back, in full, on every start. Held here, in two tables of the store's own
database, a start reads one head row per table, and an arriving id costs its
share of one indexed look-up, made for a whole poll at once:

- ``tablewatch_table_heads``: per table, the next expected ``seq``, the hash
  chain's head and the gaming day, upserted by every batch that touches it;
- ``tablewatch_event_ids``: per arriving event stored, its id, table and the
  digest first seen with it (what tells an exact repeat from a reused id).

Both are written by the recorders below inside the transaction that stores the
batch's events and its source position, so they can never disagree with the
facts: a crash loses or keeps all three together.

They are derived data: dropped, the next start rebuilds them once from the facts
(:func:`migrate`), which is also how a store written before they existed is
brought up to date.
"""

from __future__ import annotations

import selectors
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresProcessRecorder
from eventsourcing.sqlite import SQLiteProcessRecorder
from psycopg.rows import tuple_row

from audit.events.ingest import INGEST, EventIdReused
from audit.events.table import TableOpened
from audit.facts import received
from audit.facts.chain import GENESIS, digest
from audit.facts.received import Received
from audit.store.rows import fetch_rows

if TYPE_CHECKING:
    from audit.store.application import StoredFact

EVENT_IDS_TABLE = "tablewatch_event_ids"
HEADS_TABLE = "tablewatch_table_heads"
_TABLE_OPENED = TableOpened.type_name()
_ID_REUSED = EventIdReused.type_name()
_LOOKUP_CHUNK = 500  # ids per query: well inside SQLite's limit on bound parameters


@dataclass(frozen=True)
class TableHead:
    """Where one table's stream stands: the next ``seq``, the chain's head, the gaming day."""

    table_id: str
    next_seq: int
    chain_head: str
    gaming_day: str | None


@dataclass
class StateChange:
    """What one batch adds to the state tables: new event ids and the heads it moved."""

    event_ids: list[tuple[str, str, str]] = field(default_factory=list)
    """(event_id, table_id, digest) of each arriving event stored for the first time."""
    heads: list[TableHead] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    """The bytes each new fact arrived as (``audit/facts/received.py``)."""


@dataclass
class Found:
    """What a batch's look-up found stored."""

    digests: dict[tuple[str, str], str] = field(default_factory=dict)
    """The digest first stored with each (table, event id)."""
    versions: dict[UUID, int] = field(default_factory=dict)
    """The last stored version of each aggregate that has any."""


_SELECT_IDS = f"SELECT table_id, event_id, digest FROM {EVENT_IDS_TABLE}"  # SQLite's


def _create_sql(postgres: bool) -> list[str]:
    # Event ids are UUIDs: PostgreSQL keeps them in 16 bytes, compared without a collation.
    id_type, seq_type = ("UUID", "BIGINT") if postgres else ("TEXT", "INTEGER")
    return [
        f"CREATE TABLE IF NOT EXISTS {EVENT_IDS_TABLE} (event_id {id_type} NOT NULL,"
        " table_id TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (event_id, table_id))",
        f"CREATE TABLE IF NOT EXISTS {HEADS_TABLE} (table_id TEXT PRIMARY KEY,"
        f" next_seq {seq_type} NOT NULL, chain_head TEXT NOT NULL, gaming_day TEXT)",
    ]


# A batch's values go to PostgreSQL as one comma-joined string per column: psycopg dumps
# a list element by element in Python, which cost more than the rest of the state's
# upkeep (bench/ingest.py). Event ids are UUIDs, digests hex and table ids match the
# catalogue's pattern, so none holds a comma; _joined makes sure.
_SPLIT = "string_to_array(%s, ',')"


class SeparatorError(ValueError):
    """Raised for a value that would split in two when joined with commas."""


def _joined(values: Sequence[str]) -> str:
    text = ",".join(values)
    if values and text.count(",") != len(values) - 1:
        raise SeparatorError(f"a value holds a comma: {[v for v in values if ',' in v]!r}")
    return text


_UPSERT_SET = (
    " ON CONFLICT (table_id) DO UPDATE SET next_seq = excluded.next_seq,"
    " chain_head = excluded.chain_head, gaming_day = excluded.gaming_day"
)
_NO_DAY = "-"  # no gaming day yet; a day is an ISO date
# One statement for both tables, each column one string (an empty one for no ids): a
# statement's fixed cost in the client is most of what the state adds per batch.
_WRITE_STATE = (
    f"WITH ids AS (INSERT INTO {EVENT_IDS_TABLE} (event_id, table_id, digest)"
    f" SELECT * FROM unnest({_SPLIT}::uuid[], {_SPLIT}, {_SPLIT}))"
    f" INSERT INTO {HEADS_TABLE} (table_id, next_seq, chain_head, gaming_day)"
    f" SELECT table_id, next_seq::bigint, chain_head, NULLIF(gaming_day, '{_NO_DAY}') FROM"
    f" unnest({_SPLIT}, {_SPLIT}, {_SPLIT}, {_SPLIT}) AS h(table_id, next_seq, chain_head,"
    " gaming_day)" + _UPSERT_SET
)


class PostgresFactRecorder(PostgresProcessRecorder):
    """eventsourcing's PostgreSQL process recorder, writing a batch's ingest state with it.

    It also sends the whole batch before eventsourcing waits for the server's reply
    (:meth:`_insert_stored_events`): psycopg does not, and a large batch hung.
    """

    def _insert_stored_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        super()._insert_stored_events(curs, stored_events, **kwargs)
        send_pipeline(curs.connection.pgconn)

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        super()._insert_events(curs, stored_events, **kwargs)
        change: StateChange | None = kwargs.get("state")
        if change is not None:
            received.insert(curs, change.received, postgres=True)
        if change is None or not change.heads:
            return  # a batch of rejections only: no table moved
        ids, tables, digests = (
            zip(*change.event_ids, strict=True) if change.event_ids else ([],) * 3
        )
        heads = change.heads
        curs.execute(
            _WRITE_STATE,
            (
                _joined(ids),
                _joined(tables),
                _joined(digests),
                _joined([head.table_id for head in heads]),
                _joined([str(head.next_seq) for head in heads]),
                _joined([head.chain_head for head in heads]),
                _joined([head.gaming_day or _NO_DAY for head in heads]),
            ),
        )


def send_pipeline(pgconn: Any) -> None:
    """Send everything libpq still holds of the pipeline's commands, reading replies meanwhile.

    eventsourcing inserts a batch's events in a psycopg pipeline and then calls
    ``Pipeline.sync()``, which waits for the server's reply. psycopg (3.3.9) sends a
    pipeline's last command with one non-blocking flush, and if that flush did not
    take it all (the socket buffers were full: a batch of megabytes, or a server held
    on the table lock and not reading) the rest stays in libpq's buffer while
    psycopg waits to read: the server waits for the rest of the message
    (``pg_stat_activity``: active, ``ClientRead``) and both wait forever. Here the
    buffer is flushed until empty, consuming the server's replies as they come so
    that it never blocks writing them; after this only the few bytes of the
    ``Sync`` are left for psycopg to send.
    """
    with selectors.DefaultSelector() as selector:
        selector.register(pgconn.socket, selectors.EVENT_READ | selectors.EVENT_WRITE)
        while pgconn.flush():  # 1: more to send; failures raise
            for _, ready in selector.select():
                if ready & selectors.EVENT_READ:
                    pgconn.consume_input()


class SQLiteFactRecorder(SQLiteProcessRecorder):
    """eventsourcing's SQLite process recorder, writing a batch's ingest state with it."""

    def _insert_events(
        self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        returning = super()._insert_events(c, stored_events, **kwargs)
        change: StateChange | None = kwargs.get("state")
        if change is not None:
            c.executemany(
                f"INSERT INTO {EVENT_IDS_TABLE} (event_id, table_id, digest) VALUES (?, ?, ?)",
                change.event_ids,
            )
            c.executemany(
                f"INSERT INTO {HEADS_TABLE} (table_id, next_seq, chain_head, gaming_day)"
                " VALUES (?, ?, ?, ?)" + _UPSERT_SET,
                [(h.table_id, h.next_seq, h.chain_head, h.gaming_day) for h in change.heads],
            )
            received.insert(c, change.received, postgres=False)
        return returning


class IngestState:
    """The state tables, on the store's own connections: created, read and (once) migrated.

    Batches write them through the recorders above, in their own transactions.
    """

    def __init__(
        self, datastore: Any, *, postgres: bool, events_table: str, create: bool = True
    ) -> None:
        self._datastore = datastore
        self._postgres = postgres
        self._events_table = events_table
        # Both questions as joins from the batch's values to a unique index, so that
        # each is an index probe per value whatever the planner's statistics: a plain
        # "event_id = ANY(...)" on a table not yet analysed is planned as a scan of it.
        self._look_up_sql = (
            "SELECT i.table_id, i.event_id, i.digest"
            f" FROM unnest({_SPLIT}::uuid[], {_SPLIT}) AS p(event_id, table_id)"
            f" JOIN {EVENT_IDS_TABLE} i ON i.event_id = p.event_id AND i.table_id = p.table_id"
            " UNION ALL SELECT NULL, a.id, (SELECT max(originator_version)"
            f" FROM {events_table} WHERE originator_id = a.id)::text"
            f" FROM unnest({_SPLIT}::uuid[]) AS a(id)"
        )
        if create:
            with datastore.transaction(commit=True) as cursor:
                for statement in _create_sql(postgres) + received.create_sql(postgres):
                    cursor.execute(statement)

    def _rows(self, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return fetch_rows(self._datastore, statement, params)

    def heads(self) -> list[TableHead]:
        """Return every table's head: one row per table, whatever the history."""
        rows = self._rows(f"SELECT table_id, next_seq, chain_head, gaming_day FROM {HEADS_TABLE}")
        return [TableHead(*row) for row in rows]

    def look_up(self, event_ids: Sequence[tuple[str, str]], aggregate_ids: Sequence[UUID]) -> Found:
        """Return which of ``event_ids`` (each with its table) are stored, and which aggregates.

        A batch's look-up. On PostgreSQL it is one statement on a connection in
        autocommit (no transaction to open and roll back): each statement costs
        the client more than the rows it reads, so the two questions share one,
        the versions as rows with no table.
        """
        if self._postgres:
            return self._look_up_postgres(event_ids, aggregate_ids)
        # SQLite: a query is a function call, so two of them, in chunks of bound parameters.
        found = Found()
        ids = [event_id for event_id, _ in event_ids]
        for start in range(0, len(ids), _LOOKUP_CHUNK):
            chunk = ids[start : start + _LOOKUP_CHUNK]
            statement = _SELECT_IDS + f" WHERE event_id IN ({','.join('?' * len(chunk))})"
            for table_id, event_id, first_digest in self._rows(statement, chunk):
                found.digests[table_id, event_id] = first_digest
        for start in range(0, len(aggregate_ids), _LOOKUP_CHUNK):
            hexes = [each.hex for each in aggregate_ids[start : start + _LOOKUP_CHUNK]]
            statement = (
                f"SELECT originator_id, max(originator_version) FROM {self._events_table}"
                f" WHERE originator_id IN ({','.join('?' * len(hexes))}) GROUP BY originator_id"
            )
            for aggregate_id, version in self._rows(statement, hexes):
                found.versions[UUID(aggregate_id)] = version
        return found

    def _look_up_postgres(
        self, event_ids: Sequence[tuple[str, str]], aggregate_ids: Sequence[UUID]
    ) -> Found:
        found = Found()
        ids, tables = zip(*event_ids, strict=True) if event_ids else ((), ())
        with self._datastore.get_connection() as conn:
            rows = conn.cursor(row_factory=tuple_row).execute(
                self._look_up_sql,
                (_joined(ids), _joined(tables), _joined([str(each) for each in aggregate_ids])),
            )
            for table_id, some_id, value in rows:
                if table_id is not None:
                    found.digests[table_id, str(some_id)] = value
                elif value is not None:
                    found.versions[some_id] = int(value)
        return found

    def write_ids(self, event_ids: Sequence[tuple[str, str, str]]) -> None:
        """Record event ids, keeping any already recorded: the migration's idempotent step."""
        if not event_ids:
            return
        with self._datastore.transaction(commit=True) as cursor:
            if self._postgres:
                ids, tables, digests = zip(*event_ids, strict=True)
                cursor.execute(
                    f"INSERT INTO {EVENT_IDS_TABLE} (event_id, table_id, digest) SELECT * FROM"
                    f" unnest({_SPLIT}::uuid[], {_SPLIT}, {_SPLIT}) ON CONFLICT DO NOTHING",
                    (_joined(ids), _joined(tables), _joined(digests)),
                )
            else:
                cursor.executemany(
                    f"INSERT INTO {EVENT_IDS_TABLE} (event_id, table_id, digest)"
                    " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    event_ids,
                )

    def write_heads(self, heads: Sequence[TableHead]) -> None:
        """Upsert table heads in one transaction (the migration's last step)."""
        marks = ", ".join(["%s" if self._postgres else "?"] * 4)
        with self._datastore.transaction(commit=True) as cursor:
            cursor.executemany(
                f"INSERT INTO {HEADS_TABLE} (table_id, next_seq, chain_head, gaming_day)"
                f" VALUES ({marks})" + _UPSERT_SET,
                [(h.table_id, h.next_seq, h.chain_head, h.gaming_day) for h in heads],
            )


def migrate(state: IngestState, facts: Iterable[StoredFact], chunk: int = 5_000) -> int:
    """Build the state tables from the stored facts, as a start would have; return facts read.

    For a store written before the tables existed (or after they were dropped).
    The ids go in chunks, each its own transaction and idempotent, and the heads
    last, in one: until they are in, the tables count as empty and the next start
    simply migrates again. Memory stays one head per table plus one chunk.
    """
    heads: dict[str, TableHead] = {}
    pending: list[tuple[str, str, str]] = []
    read = 0
    for stored in facts:
        read += 1
        fact = stored.fact
        table_id = fact["table_id"]
        head = heads.get(table_id) or TableHead(table_id, 0, GENESIS, None)
        next_seq, gaming_day = head.next_seq, head.gaming_day
        if fact["type"] == _TABLE_OPENED:
            gaming_day = fact["gaming_day"]
        # The ingest's own observations take no part in de-duplication, nor in sequencing
        # but for a reused id's seq, which arrived and advanced the table as the live
        # ingest judged it (sequencing.judge_known): the migrated head is the live one.
        if fact.get("recorded_by") != INGEST:
            pending.append((fact["event_id"], table_id, digest(stored.fact_json)))
            next_seq = max(next_seq, fact["seq"] + 1)
        elif fact["type"] == _ID_REUSED:
            next_seq = max(next_seq, fact["seq"] + 1)
        heads[table_id] = TableHead(table_id, next_seq, stored.chain_hash, gaming_day)
        if len(pending) >= chunk:
            state.write_ids(pending)
            pending = []
    state.write_ids(pending)
    state.write_heads(list(heads.values()))
    return read
