"""Stored facts read back for the projections: a page of rows in one query, each fact in one parse.

The projections read every stored event once on a rebuild. Through eventsourcing that
costs, per event, a ``Notification`` object, the mapper's decode of the whole stored
state into a ``FactRecorded`` (a UUID, a datetime, an aggregate event object), and
then :func:`~audit.events.catalogue.parse_event` of the fact's JSON: about as much
again as the parse itself (docs/rebuild-speed.md). A projection needs only the fact.

So here a page is one ``SELECT`` of the notification id, topic and state, with the
same bounds and order as the recorder's ``select_notifications`` (ids from ``start``,
up to ``stop``, ascending, at most ``limit``), so positions and the exactly-once
tracking built on them are unchanged. A ``FactRecorded`` state is then validated in
one pydantic call, straight from its bytes: the state's ``fact_json`` string is read
as JSON and validated by the catalogue's own union (:data:`EVENT_ADAPTER`'s schema,
no context: the lenient rules for stored facts), the exact call ``parse_event`` makes
first. No rule is skipped: stored facts were validated at ingest, but a fact stored
under older rules must read as the catalogue reads it today, not as it was then.

Whatever this one call does not accept (an older ``schema_version`` to upcast, a
fact the catalogue can no longer read, a state too large to be sure of the size
limit) takes the current path, ``parse_event`` of the decoded ``fact_json``, so it
reads exactly as before or raises :class:`UnreadableFactError` naming its
notification id: a fact that cannot be read stops the reader, never vanishes.
``tests/unit/store/test_fact_pages.py`` holds the two paths to the same events for
arbitrary stored facts of every type.

The hash chain is not verified from here: ``verify-chain`` keeps reading every
stored field through eventsourcing (audit/store/verify.py).
"""

from __future__ import annotations

import json
from typing import Any

from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier
from pydantic import BaseModel, Json, ValidationError

from audit.events.catalogue import MAX_EVENT_BYTES, AnyEvent, InvalidEventError, parse_event
from audit.events.envelope import Event
from audit.store.aggregates import FactRecorded
from audit.store.application import FactStore

FACT_TOPIC = FactRecorded.TOPIC

Row = tuple[int, str, bytes]
"""A stored event as a page holds it: notification id, topic, stored state."""


class UnreadableFactError(InvalidEventError):
    """Raised for a stored fact the catalogue cannot read; the message names where it is stored."""


class _FactState(BaseModel):
    """The one field of a ``FactRecorded`` state a projection needs; the others are ignored."""

    fact_json: Json[AnyEvent]


class FactPages:
    """Reads a store's events page by page and turns each stored fact into its event."""

    def __init__(self, store: FactStore) -> None:
        self.store = store
        recorder: Any = store.process_recorder
        self._datastore = recorder.datastore
        self._table: str = recorder.events_table_name
        mapper: Any = store.mapper
        # eventsourcing encrypts, then compresses, only if configured (CIPHER_TOPIC,
        # COMPRESSOR_TOPIC in the environment): undo them as its mapper would.
        self._cipher = mapper.cipher
        self._compressor = mapper.compressor

    def page(self, start: int, limit: int, stop: int | None = None) -> list[Row]:
        """Return up to ``limit`` stored events from notification id ``start`` (to ``stop``)."""
        if self.store.is_postgres:
            return self._postgres_page(start, limit, stop)
        statement = f"SELECT rowid, topic, state FROM {self._table} WHERE rowid>=? "
        params: list[int] = [start]
        if stop is not None:
            statement += "AND rowid<=? "
            params.append(stop)
        statement += "ORDER BY rowid LIMIT ?"
        params.append(limit)
        with self._datastore.transaction(commit=False) as cursor:
            # eventsourcing's connections make sqlite3.Row objects; this cursor makes plain
            # tuples, not copied into tuples one by one (2% of a rebuild's samples).
            plain = cursor.sqlite_cursor
            plain.row_factory = None
            plain.execute(statement, params)
            rows: list[Row] = plain.fetchall()
            return rows

    def _postgres_page(self, start: int, limit: int, stop: int | None) -> list[Row]:
        statement = SQL("SELECT notification_id, topic, state FROM {schema}.{table}").format(
            schema=Identifier(self._datastore.schema), table=Identifier(self._table)
        )
        statement += SQL(" WHERE notification_id>=%s")
        params: list[int] = [start]
        if stop is not None:
            statement += SQL(" AND notification_id<=%s")
            params.append(stop)
        statement += SQL(" ORDER BY notification_id LIMIT %s")
        params.append(limit)
        with self._datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            # Binary results: a bytea travels as its bytes and loads as ``bytes``, where text
            # sends it hex-encoded, twice the size, to be decoded and copied (the fetch of the
            # bench store's 168,516 events took 1.19 s as text and 0.52 s in binary).
            curs.execute(statement, params, prepare=True, binary=True)
            rows: list[Row] = curs.fetchall()
            return rows

    def fact(self, row: Row) -> Event | None:
        """Return a stored event's fact as an event, or None for an event that holds no fact.

        Raises :class:`UnreadableFactError` for a fact the catalogue cannot read.
        """
        notification_id, topic, state = row
        if topic != FACT_TOPIC:
            return None
        if self._cipher is not None:
            state = self._cipher.decrypt(state)
        if self._compressor is not None:
            state = self._compressor.decompress(state)
        # The state's bytes are at least as many as its fact's characters (a character
        # is one byte or more, an escape two or more), so under the limit the fact is
        # too, and parse_event's size check could not have refused it.
        if len(state) <= MAX_EVENT_BYTES:
            try:
                return _FactState.model_validate_json(state).fact_json
            except ValidationError:
                pass  # upcast, or refuse, as the current path does
        return read_fact(notification_id, json.loads(state)["fact_json"])


def read_fact(notification_id: int, fact_json: str) -> Event:
    """Return a stored fact's event by ``parse_event``, or raise naming its notification id."""
    try:
        return parse_event(fact_json)
    except InvalidEventError as error:
        raise UnreadableFactError(
            f"stored fact at notification id {notification_id} cannot be read: {error}",
            event_type=error.event_type,
            event_id=error.event_id,
        ) from None
