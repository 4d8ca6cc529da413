"""One ``tablewatch serve`` per store: a lease held for as long as the service runs.

Only ``serve`` writes the views, and two of them on one store would each judge every fact
(the positions keep the views exactly once, but the work and the alerts are done twice), and
a ``serve --rebuild-views`` beside a running one would set positions to 0 under a service
that goes on writing from the positions it holds. So ``serve`` takes the store's lease before
it writes anything; a second stands by, saying so (it serves the console on the first one's
views, and judges nothing), until the first stops or dies:

- **SQLite**: an exclusive ``flock`` on a file beside the store (``<store>.serve-lock``);
- **PostgreSQL**: a session advisory lock on a connection of its own (a key of its own,
  apart from the migration's).

Either is let go by the operating system or the server when the process ends, however it
ends (a SIGKILL included), so a lease never outlives its service. A PostgreSQL lease also
ends with its connection: the service asks :meth:`StoreLease.held` before each pass, and
one that lost it takes it again before writing, or waits.

A second lease, :data:`ALERTS`, is held by whichever process delivers the
store's alerts (a ``serve``, or ``tablewatch alerts``): two deliverers would each send every
alert, since each leg's position is read before the delivery and written after it.
"""

from __future__ import annotations

import contextlib
import fcntl
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psycopg

from audit.store.application import FactStore

LEASE_KEY = 0x7477_7365_7276_6531
"""The advisory lock's key on PostgreSQL ("twserve1" as bytes), apart from the migration's."""


@dataclass(frozen=True)
class LeaseKind:
    """What a lease is for: its lock file's suffix beside a SQLite store, its advisory key."""

    name: str
    key: int
    holder: str
    """Who holds it, as a process that cannot take it says so."""


SERVE = LeaseKind(
    "serve", LEASE_KEY, "another tablewatch serve (or a command catching the views up)"
)
"""Judging: writing the views (``serve``, or a command catching them up)."""
ALERTS = LeaseKind("alerts", 0x7477_616C_6572_7431, "another tablewatch process delivering alerts")
"""Delivering the alerts ("twalert1")."""


class StoreLease:
    """The store's one-service lease: taken with :meth:`try_acquire`, kept until :meth:`release`."""

    def __init__(self, store: FactStore, kind: LeaseKind = SERVE) -> None:
        self.store = store
        self.kind = kind
        self._file: IO[str] | None = None
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        """PostgreSQL: the lock's connection, kept while standing by too, so that a standby
        asking every second does not open a connection every second."""
        self._locked = False

    def describe(self) -> str:
        """Say where the lease is kept."""
        path = self._path()
        return f"lock file {path}" if path is not None else f"advisory lock {self.kind.key:#x}"

    def try_acquire(self) -> bool:
        """Take the lease if no other service holds it; return whether this one now does."""
        if self.held():
            return True
        path = self._path()
        if path is not None:
            handle = path.open("a")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.close()
                return False
            self._file = handle
            return True
        url = self.store.config.postgres_url
        assert url is not None
        if self._conn is None:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
        try:
            row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (self.kind.key,)).fetchone()
        except psycopg.Error:
            self._drop_connection()  # a new one next time
            raise
        self._locked = bool(row and row[0])
        return self._locked

    def held(self) -> bool:
        """Return whether this service still holds the lease (on PostgreSQL, whether the
        lock's connection still answers: the server let the lock go with it otherwise)."""
        if self._file is not None:
            return True
        if self._conn is None or not self._locked:
            return False
        try:
            self._conn.execute("SELECT 1")
        except psycopg.Error:
            self._drop_connection()
            return False
        return True

    def release(self) -> None:
        """Let the lease go (ending the process does too)."""
        if self._file is not None:
            self._file.close()  # closing the file releases its flock
            self._file = None
        if self._conn is not None and self._locked:
            # Unlocked before the connection closes: the server lets a closed session's locks go
            # only once its backend has ended, a moment a standby asking at once would miss.
            with contextlib.suppress(psycopg.Error):
                self._conn.execute("SELECT pg_advisory_unlock(%s)", (self.kind.key,))
        self._drop_connection()

    def _drop_connection(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None
        self._locked = False

    def _path(self) -> Path | None:
        path = self.store.config.sqlite_path
        return None if path is None else path.with_name(f"{path.name}.{self.kind.name}-lock")
