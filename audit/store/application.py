"""The fact store: an eventsourcing application on SQLite or PostgreSQL.

Writes go through one call, :meth:`FactStore.write`, which records the new
aggregate events and the source position they came from (a Kafka partition's
offset, a file's line) in one transaction. A position already recorded raises
``IntegrityError`` and writes nothing: that is what makes ingest exactly once.

The stored-events table refuses UPDATE and DELETE by trigger, in both databases,
so immutability is the database's rule, not a convention.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.application import Application
from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import ProcessRecorder, StoredEvent, Tracking
from eventsourcing.utils import get_topic
from psycopg.conninfo import conninfo_to_dict
from psycopg.sql import SQL

from audit.store import casebook as _casebook  # noqa: F401 -- registers the casebook's topics
from audit.store.aggregates import FactRecorded, Round, Table, round_aggregate_id, table_day_id
from audit.store.ingest_state import (
    IngestState,
    PostgresFactRecorder,
    SQLiteFactRecorder,
    StateChange,
)
from audit.store.schema import SCHEMA_VERSION, mark_migrated, migrated_version, migration_lock
from audit.store.urls import StoreConfigError, StoreUnavailableError, mask_password

APPLICATION_NAME = "tablewatch"
_PG_EVENTS_TABLE = f"{APPLICATION_NAME}_events"
_SQLITE_EVENTS_TABLE = "stored_events"


class StoreMissingError(StoreUnavailableError):
    """Raised when a store that must exist already (to be verified, to be read) does not."""


class StoreNotMigratedError(StoreUnavailableError):
    """Raised when a PostgreSQL store is opened without DDL but its schema was never migrated."""


@dataclass(frozen=True)
class StoreConfig:
    """Where the facts live: a SQLite file (the embedded default) or a PostgreSQL database."""

    sqlite_path: Path | None = None
    postgres_url: str | None = None

    @classmethod
    def sqlite(cls, path: Path | str) -> StoreConfig:
        """Return a config for a SQLite file (created if absent)."""
        return cls(sqlite_path=Path(path))

    @classmethod
    def postgres(cls, url: str) -> StoreConfig:
        """Return a config for ``postgresql://user:password@host:port/dbname[?options]``.

        The URL is read by libpq's own rules (a percent-encoded password, a password or
        host in the query); an option the store cannot pass on is refused by name.
        """
        if not url.startswith(("postgresql://", "postgres://")):
            raise StoreConfigError(f"not a postgresql://host/dbname URL: {mask_password(url)!r}")
        params = _conninfo(url)
        if not params.get("dbname"):
            raise StoreConfigError(f"no database named in {mask_password(url)!r}")
        unknown = sorted(set(params) - _CONNECTION_KEYS - set(LIBPQ_ENV))
        if unknown:
            raise StoreConfigError(
                f"{mask_password(url)!r}: connection options {unknown!r} are not supported; "
                f"the store takes {sorted(LIBPQ_ENV)!r}"
            )
        return cls(postgres_url=url)

    def env(self) -> dict[str, str]:
        """Return the eventsourcing environment for this location."""
        if self.postgres_url is not None:
            params = _conninfo(self.postgres_url)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_DBNAME": params["dbname"],
                "POSTGRES_HOST": params.get("host") or "127.0.0.1",
                "POSTGRES_PORT": params.get("port") or "5432",
                "POSTGRES_USER": params.get("user") or "postgres",
                "POSTGRES_PASSWORD": params.get("password") or "",
                # Writers serialise on a table lock; wait for it rather than fail at once.
                "POSTGRES_LOCK_TIMEOUT": "10",
                "POSTGRES_POOL_SIZE": "4",
                "POSTGRES_CONNECT_TIMEOUT": params.get("connect_timeout") or "5",
            }
        if self.sqlite_path is None:
            raise StoreConfigError("a store needs a SQLite path or a PostgreSQL URL")
        self.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(self.sqlite_path),
        }

    def libpq_env(self) -> dict[str, str]:
        """Return the URL's other connection options (TLS, above all) as libpq's variables.

        eventsourcing connects with the five parameters of :meth:`env` only; libpq takes
        the rest from its environment, so ``?sslmode=verify-full&sslrootcert=...`` reaches
        every connection the store, its views and the ingest's children open.
        """
        if self.postgres_url is None:
            return {}
        params = _conninfo(self.postgres_url)
        return {LIBPQ_ENV[key]: value for key, value in params.items() if key in LIBPQ_ENV}

    def describe(self) -> str:
        """Say where the store is, with any password masked."""
        if self.postgres_url is not None:
            return f"PostgreSQL {mask_password(self.postgres_url)}"
        return f"SQLite {self.sqlite_path}"


_CONNECTION_KEYS = {"dbname", "host", "port", "user", "password", "connect_timeout"}
LIBPQ_ENV = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "sslcrl": "PGSSLCRL",
    "sslcrldir": "PGSSLCRLDIR",
    "sslsni": "PGSSLSNI",
    "ssl_min_protocol_version": "PGSSLMINPROTOCOLVERSION",
    "ssl_max_protocol_version": "PGSSLMAXPROTOCOLVERSION",
    "gssencmode": "PGGSSENCMODE",
    "channel_binding": "PGCHANNELBINDING",
    "require_auth": "PGREQUIREAUTH",
    "application_name": "PGAPPNAME",
    "options": "PGOPTIONS",
    "target_session_attrs": "PGTARGETSESSIONATTRS",
    "passfile": "PGPASSFILE",
}
"""URL options the store passes on, and the libpq environment variable that carries each."""


def _conninfo(url: str) -> dict[str, str]:
    """Return the URL's connection parameters as libpq reads them, or raise naming the URL."""
    try:
        return {key: str(value) for key, value in conninfo_to_dict(url).items()}
    except psycopg.ProgrammingError as error:
        raise StoreConfigError(f"not a usable PostgreSQL URL: {mask_password(url)!r}") from error


@dataclass(frozen=True)
class StoredFact:
    """One stored fact as read back, with where it sits in the store and in its chain."""

    notification_id: int
    aggregate_id: UUID
    version: int
    fact_json: str
    source: str
    chain_prev: str
    chain_hash: str

    @property
    def fact(self) -> dict[str, Any]:
        """Return the fact as a dict."""
        return json.loads(self.fact_json)


class FactStore(Application[UUID]):
    """The store of observed facts, with tracked source positions."""

    name = APPLICATION_NAME

    def __init__(self, config: StoreConfig, *, create: bool = True) -> None:
        """Open the store, running its (idempotent) DDL first if ``create``.

        With ``create=False`` no DDL runs, nor does anything that opens on this
        store (the projections' views): a store never made is refused in one line,
        a SQLite file is not created, and a PostgreSQL store must have been
        migrated by its owner (``audit/store/schema.py``). On PostgreSQL, creating
        holds the migration lock, so stores opened together do not race.
        """
        self.config = config
        self.create = create
        """Whether this store, and every view opened on it, may run DDL."""
        if not create:
            _check_made(config)
        os.environ.update(config.libpq_env())  # libpq reads them for every connection
        if config.postgres_url is not None:
            _probe(config.postgres_url)
        if create and config.postgres_url is not None:
            with migration_lock(config.postgres_url):
                self._open(config, create=True)
                mark_migrated(config.postgres_url)
        else:
            self._open(config, create=create)

    def _open(self, config: StoreConfig, *, create: bool) -> None:
        recorder = PostgresFactRecorder if config.postgres_url is not None else SQLiteFactRecorder
        super().__init__(
            env={
                **config.env(),
                "PROCESS_RECORDER_TOPIC": get_topic(recorder),
                # eventsourcing's switch: also what every view opened on this store obeys.
                "CREATE_TABLE": "yes" if create else "no",
            }
        )
        if create:
            self._protect_stored_events()
        if self.is_postgres:
            self._insert_in_binary()
        datastore: Any = self.recorder.datastore  # type: ignore[attr-defined]
        self.ingest_state = IngestState(
            datastore, postgres=self.is_postgres, events_table=self.events_table, create=create
        )

    def construct_recorder(self) -> ProcessRecorder:
        """Use a process recorder, which records tracking positions with events."""
        return self.factory.process_recorder()

    @property
    def process_recorder(self) -> ProcessRecorder:
        """Return the recorder, typed as the process recorder it is."""
        recorder = self.recorder
        if not isinstance(recorder, ProcessRecorder):
            raise TypeError(f"not a process recorder: {recorder!r}")
        return recorder

    @property
    def is_postgres(self) -> bool:
        """Return whether the facts live in PostgreSQL."""
        return self.config.postgres_url is not None

    @property
    def events_table(self) -> str:
        """Return the name of the stored-events table."""
        return _PG_EVENTS_TABLE if self.is_postgres else _SQLITE_EVENTS_TABLE

    def _protect_stored_events(self) -> None:
        datastore: Any = self.recorder.datastore  # type: ignore[attr-defined]
        with datastore.transaction(commit=True) as cursor:
            for statement in _immutability_sql(self.events_table, postgres=self.is_postgres):
                cursor.execute(statement)

    def _insert_in_binary(self) -> None:
        """Send each batch's array of stored events in PostgreSQL's binary format.

        eventsourcing passes a batch as one array of composite values with a ``%s``
        placeholder, which psycopg dumps as text, escaping every byte of every
        event's state; ``%b`` sends the same array in binary, which halves the
        insert's cost (bench/ingest.py). The statement is otherwise eventsourcing's own.
        """
        recorder: Any = self.recorder
        with recorder.datastore.get_connection() as conn:
            text = recorder.insert_events_statement.as_string(conn)
        if text.count("%s") != 1 or "unnest(%s::" not in text:
            raise RuntimeError(f"eventsourcing's insert statement changed shape: {text!r}")
        recorder.insert_events_statement = SQL(text.replace("unnest(%s::", "unnest(%b::"))

    def position(self, source: str) -> int | None:
        """Return the last position recorded for a source (e.g. ``table-events[3]``), if any."""
        return self.process_recorder.max_tracking_id(source)

    def write(
        self, events: Sequence[DomainEventProtocol[UUID]], source: str | None, position: int | None
    ) -> int:
        """Record new events, in the order given, and the source position in one transaction.

        The order given is the stored order, which the hash chain relies on.
        Return how many events were written. Raises ``IntegrityError`` if the
        position was recorded already, in which case nothing is written.
        """
        tracking = None if source is None or position is None else Tracking(source, position)
        if events or tracking is not None:
            self.events.put(list(events), tracking=tracking)
        return len(events)

    def write_stored(
        self,
        stored: Sequence[StoredEvent],
        source: str | None,
        position: int | None,
        state: StateChange | None = None,
    ) -> int:
        """Record events already in their stored form, and the source position, in one transaction.

        The same as :meth:`write` minus the mapper, for a writer that encodes its
        events itself (the ingest, see ``audit/store/encoding.py``), which also
        passes the change to its state tables (``audit/store/ingest_state.py``) to
        commit with them. Return how many events were written; ``IntegrityError``
        if the position was recorded.
        """
        tracking = None if source is None or position is None else Tracking(source, position)
        if stored or tracking is not None or state is not None:
            self.process_recorder.insert_events(list(stored), tracking=tracking, state=state)
        return len(stored)

    def facts(self, start: int = 1, batch: int = 2_000) -> Iterator[StoredFact]:
        """Yield every stored fact in the order it was stored."""
        recorder = self.process_recorder
        while True:
            notifications = recorder.select_notifications(start, batch)
            for notification in notifications:
                event = self.mapper.to_domain_event(notification)
                if isinstance(event, FactRecorded):
                    yield StoredFact(
                        notification.id,
                        event.originator_id,
                        event.originator_version,
                        event.fact_json,
                        event.source,
                        event.chain_prev,
                        event.chain_hash,
                    )
            if len(notifications) < batch:
                return
            start = notifications[-1].id + 1

    def facts_of(
        self, aggregate_ids: Collection[UUID], start: int = 1, batch: int = 2_000
    ) -> Iterator[StoredFact]:
        """Yield the facts of some aggregates, from notification id ``start``, in stored order.

        One table's stream over a day is its day's aggregate and its rounds': read by
        their ids (the stored events' key), not by scanning everything stored since.
        """
        ids = sorted(aggregate_ids)
        if not ids:
            return
        if self.is_postgres:
            sql = (
                "SELECT notification_id, originator_id, originator_version, topic, state "
                f"FROM {self.events_table} WHERE originator_id = ANY(%s) "
                "AND notification_id >= %s ORDER BY notification_id LIMIT %s"
            )
            keys: Any = ids
        else:
            marks = ", ".join("?" * len(ids))
            sql = (
                "SELECT rowid, originator_id, originator_version, topic, state "
                f"FROM {self.events_table} WHERE originator_id IN ({marks}) "
                "AND rowid >= ? ORDER BY rowid LIMIT ?"
            )
            keys = [each.hex for each in ids]
        datastore: Any = self.recorder.datastore  # type: ignore[attr-defined]
        while True:
            params = [keys, start, batch] if self.is_postgres else [*keys, start, batch]
            with datastore.transaction(commit=False) as cursor:
                cursor.execute(sql, params)
                found = cursor.fetchall()
            rows = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in found]
            for notification_id, originator_id, version, topic, state in rows:
                if topic != FactRecorded.TOPIC:
                    continue
                # The four fields a StoredFact takes, read from the stored state's JSON: not
                # eventsourcing's decode of the whole event into a FactRecorded, which was a
                # fifth of a replay's time (docs/history.md).
                data = json.loads(self._plain_state(bytes(state)))
                yield StoredFact(
                    notification_id,
                    UUID(str(originator_id)),
                    version,
                    data["fact_json"],
                    data["source"],
                    data["chain_prev"],
                    data["chain_hash"],
                )
            if len(rows) < batch:
                return
            start = rows[-1][0] + 1

    def _plain_state(self, state: bytes) -> bytes:
        """Undo eventsourcing's cipher and compressor on a stored state, if either is set."""
        mapper: Any = self.mapper
        if mapper.cipher is not None:
            state = mapper.cipher.decrypt(state)
        if mapper.compressor is not None:
            state = mapper.compressor.decompress(state)
        return state

    def fact_count(self, aggregate_id: UUID) -> int:
        """Return how many facts an aggregate holds (0 if it was never recorded): its stored
        facts counted by the events' key, not the aggregate rebuilt from them."""
        p = "%s" if self.is_postgres else "?"
        sql = (
            f"SELECT COUNT(*) AS n FROM {self.events_table} "
            f"WHERE originator_id = {p} AND topic = {p}"
        )
        key: UUID | str = aggregate_id if self.is_postgres else aggregate_id.hex
        datastore: Any = self.recorder.datastore  # type: ignore[attr-defined]
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(sql, [key, FactRecorded.TOPIC])
            row = cursor.fetchone()
        return int(row["n"] if isinstance(row, dict) else row[0])

    def round(self, table_id: str, round_id: str) -> Round:
        """Return a round's aggregate (raises ``AggregateNotFoundError`` if never recorded)."""
        return self.repository.get(round_aggregate_id(table_id, round_id))

    def table_day(self, table_id: str, gaming_day: str) -> Table:
        """Return a table's aggregate for a gaming day."""
        return self.repository.get(table_day_id(table_id, gaming_day))

    def last_notification_id(self) -> int:
        """Return the id of the last stored event (0 if none)."""
        return self.process_recorder.max_notification_id() or 0


def _check_made(config: StoreConfig) -> None:
    """Refuse, naming what to do, a store that an open without DDL could not use."""
    if config.sqlite_path is not None:
        if not config.sqlite_path.is_file():
            raise StoreMissingError(f"no store at {str(config.sqlite_path)!r}")
        return
    url = config.postgres_url or ""
    _probe(url)
    version = migrated_version(url)
    if version is None or version < SCHEMA_VERSION:
        found = "not migrated" if version is None else f"at schema version {version}"
        raise StoreNotMigratedError(
            f"{config.describe()} is {found} (this tablewatch needs {SCHEMA_VERSION}): "
            "run 'tablewatch db migrate' as the database's owner"
        )


def _probe(url: str) -> None:
    """Fail in seconds, with the reason, when PostgreSQL cannot be reached (the pool waits 30 s)."""
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError as error:
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else "no answer"
        raise StoreUnavailableError(f"cannot reach {mask_password(url)!r}: {reason}") from None


def _immutability_sql(table: str, *, postgres: bool) -> list[str]:
    """Return statements that make the stored-events table refuse UPDATE and DELETE."""
    if postgres:
        return [
            "CREATE OR REPLACE FUNCTION tablewatch_refuse_change() RETURNS trigger"
            " LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION"
            " 'tablewatch: stored events are immutable (% refused)', TG_OP; END $$",
            f"CREATE OR REPLACE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table}"
            " FOR EACH ROW EXECUTE FUNCTION tablewatch_refuse_change()",
            f"CREATE OR REPLACE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}"
            " FOR EACH STATEMENT EXECUTE FUNCTION tablewatch_refuse_change()",
        ]
    return [
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_update BEFORE UPDATE ON {table}"
        " BEGIN SELECT RAISE(ABORT, 'tablewatch: stored events are immutable'); END",
        f"CREATE TRIGGER IF NOT EXISTS {table}_no_delete BEFORE DELETE ON {table}"
        " BEGIN SELECT RAISE(ABORT, 'tablewatch: stored events are immutable'); END",
    ]
