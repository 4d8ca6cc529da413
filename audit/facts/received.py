"""The bytes each fact arrived as, stored beside it: the evidence under the parsed fact.

A stored fact holds the event's JSON as the catalogue re-serialised it
(``audit/facts/sequencing.py``): what was understood, not what was sent. The
message itself (a Kafka record's value, a file's line without its line ending)
goes, byte for byte, into :data:`RECEIVED_TABLE`, one row per stored fact that
arrived as a message, keyed by the fact's place in the store (its aggregate and
version, as unique as the stored event itself) and findable by its event id:

- written by the ingest's recorders (``audit/store/ingest_state.py``) in the
  batch's own transaction, so a fact is never stored without its bytes, nor
  bytes without their fact;
- append-only: UPDATE and DELETE (and TRUNCATE) are refused by trigger, as for
  the stored events, and the writer role is granted INSERT and SELECT only;
- part of the hash chain: a fact with received bytes is linked in format 3
  (``audit/facts/chain.py``), whose hashed fields end with the bytes' SHA-256, so
  ``verify-chain`` reports bytes altered, removed or moved to another fact.

A message whose id was already stored with other content is kept as the
ingest's ``event_id_reused`` observation, and its bytes go with that fact, filed
under the id the message bore. Facts that did not arrive as a message have no
row: the ingest's other observations (gaps, reorders), facts given to the store as parsed
events (``Accepted``, the simulator's ``tablewatch run``), and facts stored before
this table existed. A duplicate (an exact repeat) is not stored, so neither are
its bytes. A rejected message's bytes are kept in its rejection, as before
(``Rejections.MessageRejected``: the first 4 KiB, and the digest of all of it).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple
from uuid import UUID

RECEIVED_TABLE = "tablewatch_received"


class Received(NamedTuple):
    """One stored fact's bytes as received, and where the fact is stored."""

    aggregate_id: UUID
    version: int
    event_id: str
    raw: bytes


@dataclass(frozen=True)
class ReceivedFact:
    """The bytes of one fact as read back, with the fact's place in the store."""

    aggregate_id: UUID
    version: int
    event_id: str
    raw: bytes


def create_sql(postgres: bool) -> list[str]:
    """Return the table's idempotent DDL: the table, its event-id index, its immutability."""
    if postgres:
        return [
            f"CREATE TABLE IF NOT EXISTS {RECEIVED_TABLE} (originator_id UUID NOT NULL,"
            " originator_version BIGINT NOT NULL, event_id UUID NOT NULL, received BYTEA NOT NULL,"
            " PRIMARY KEY (originator_id, originator_version))",
            f"CREATE INDEX IF NOT EXISTS {RECEIVED_TABLE}_event_id ON {RECEIVED_TABLE} (event_id)",
            # tablewatch_refuse_change() is the stored events' trigger function, made first.
            f"CREATE OR REPLACE TRIGGER {RECEIVED_TABLE}_immutable BEFORE UPDATE OR DELETE"
            f" ON {RECEIVED_TABLE} FOR EACH ROW EXECUTE FUNCTION tablewatch_refuse_change()",
            f"CREATE OR REPLACE TRIGGER {RECEIVED_TABLE}_no_truncate BEFORE TRUNCATE"
            f" ON {RECEIVED_TABLE} FOR EACH STATEMENT EXECUTE FUNCTION tablewatch_refuse_change()",
        ]
    refuse = "BEGIN SELECT RAISE(ABORT, 'tablewatch: received bytes are immutable'); END"
    return [
        f"CREATE TABLE IF NOT EXISTS {RECEIVED_TABLE} (originator_id TEXT NOT NULL,"
        " originator_version INTEGER NOT NULL, event_id TEXT NOT NULL, received BLOB NOT NULL,"
        " PRIMARY KEY (originator_id, originator_version))",
        f"CREATE INDEX IF NOT EXISTS {RECEIVED_TABLE}_event_id ON {RECEIVED_TABLE} (event_id)",
        f"CREATE TRIGGER IF NOT EXISTS {RECEIVED_TABLE}_no_update BEFORE UPDATE"
        f" ON {RECEIVED_TABLE} {refuse}",
        f"CREATE TRIGGER IF NOT EXISTS {RECEIVED_TABLE}_no_delete BEFORE DELETE"
        f" ON {RECEIVED_TABLE} {refuse}",
    ]


# PostgreSQL: one statement per batch. psycopg dumps a list element by element in Python,
# which costs more per row than the rest of the row's upkeep, so (as for the ingest state,
# ``audit/store/ingest_state.py``) the ids and versions go as comma-joined text, and the
# messages as one bytea, sent in binary, that the server cuts at the given lengths.
_SPLIT = "string_to_array(%s, ',')"
_INSERT_POSTGRES = (
    f"INSERT INTO {RECEIVED_TABLE} (originator_id, originator_version, event_id, received)"
    " SELECT k.id::uuid, k.version::bigint, k.event_id::uuid,"
    " substring(%b::bytea FROM k.start::int + 1 FOR k.size::int)"
    f" FROM unnest({_SPLIT}, {_SPLIT}, {_SPLIT}, {_SPLIT}, {_SPLIT})"
    " AS k(id, version, event_id, start, size)"
)
_INSERT_SQLITE = (
    f"INSERT INTO {RECEIVED_TABLE} (originator_id, originator_version, event_id, received)"
    " VALUES (?, ?, ?, ?)"
)


def insert(cursor: Any, rows: Sequence[Received], *, postgres: bool) -> None:
    """Insert a batch's received bytes on the batch's cursor (inside its transaction)."""
    if not rows:
        return
    if postgres:
        ids, versions, event_ids, raws = zip(*rows, strict=True)
        sizes = [len(raw) for raw in raws]
        starts = [0, *itertools.accumulate(sizes)][:-1]
        cursor.execute(
            _INSERT_POSTGRES,
            (
                b"".join(raws),
                ",".join(map(str, ids)),
                ",".join(map(str, versions)),
                _joined(event_ids),
                ",".join(map(str, starts)),
                ",".join(map(str, sizes)),
            ),
        )
    else:
        cursor.executemany(
            _INSERT_SQLITE,
            [(row.aggregate_id.hex, row.version, row.event_id, row.raw) for row in rows],
        )


def _joined(event_ids: Sequence[str]) -> str:
    """Join event ids with commas; they are validated UUIDs, so none holds one."""
    text = ",".join(event_ids)
    if text.count(",") != len(event_ids) - 1:
        raise ValueError(f"an event id holds a comma: {[e for e in event_ids if ',' in e]!r}")
    return text


def _marks(postgres: bool) -> str:
    return "%s" if postgres else "?"


def _rows(datastore: Any, statement: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(statement, params)
        rows = cursor.fetchall()
    # PostgreSQL's rows come as dicts (eventsourcing's row factory), SQLite's as rows.
    return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in rows]


def _fact(row: tuple[Any, ...]) -> ReceivedFact:
    aggregate_id, version, event_id, raw = row
    return ReceivedFact(
        aggregate_id if isinstance(aggregate_id, UUID) else UUID(aggregate_id),
        int(version),
        str(event_id),
        # SQLite returns TEXT for a value someone rewrote as text: its bytes, not a crash.
        raw.encode() if isinstance(raw, str) else bytes(raw),
    )


def exists(datastore: Any, *, postgres: bool) -> bool:
    """Return whether the table exists (a SQLite store opened without DDL may predate it)."""
    if postgres:
        statement = "SELECT to_regclass(%s) IS NOT NULL"
    else:
        statement = "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return bool(_rows(datastore, statement, [RECEIVED_TABLE])[0][0])


def by_event_id(datastore: Any, event_id: str, *, postgres: bool) -> list[ReceivedFact]:
    """Return the received bytes of every stored fact with ``event_id``, in stored order.

    More than one when the id was reused with other content (each is its own fact).
    """
    if not exists(datastore, postgres=postgres):
        return []
    if postgres:
        try:
            UUID(event_id)
        except ValueError:
            return []  # not an event id: nothing could be stored under it
    statement = (
        f"SELECT originator_id, originator_version, event_id, received FROM {RECEIVED_TABLE}"
        f" WHERE event_id = {_marks(postgres)}"
    )
    found = [_fact(row) for row in _rows(datastore, statement, [event_id])]
    return sorted(found, key=lambda fact: (str(fact.aggregate_id), fact.version))


def _hex(aggregate_id: UUID | str) -> str:
    return aggregate_id.hex if isinstance(aggregate_id, UUID) else UUID(aggregate_id).hex


def for_events(
    datastore: Any, keys: Sequence[tuple[UUID | str, int]], *, postgres: bool
) -> dict[tuple[UUID, int], ReceivedFact]:
    """Return the received bytes stored for each (aggregate, version) of ``keys`` that has any.

    An aggregate id is a ``UUID``, or its text as a recorder may hand it back.
    """
    found: dict[tuple[UUID, int], ReceivedFact] = {}
    columns = "r.originator_id, r.originator_version, r.event_id, r.received"
    for start in range(0, len(keys), 400):  # 800 bound parameters: inside SQLite's limit
        chunk = keys[start : start + 400]
        if postgres:
            statement = (
                f"SELECT {columns} FROM unnest(%s::uuid[], %s::bigint[]) AS k(id, v)"
                f" JOIN {RECEIVED_TABLE} r ON r.originator_id = k.id"
                " AND r.originator_version = k.v"
            )
            params: list[Any] = [[key[0] for key in chunk], [key[1] for key in chunk]]
        else:
            pairs = ", ".join(["(?, ?)"] * len(chunk))
            statement = (
                f"SELECT {columns} FROM {RECEIVED_TABLE} r"
                f" WHERE (r.originator_id, r.originator_version) IN (VALUES {pairs})"
            )
            params = [value for key in chunk for value in (_hex(key[0]), key[1])]
        for row in _rows(datastore, statement, params):
            fact = _fact(row)
            found[fact.aggregate_id, fact.version] = fact
    return found
