"""A read model's in-memory state, kept beside its view's position so a restart need not replay.

A projection's state (each table's context, rounds still open, ledgers, slip series,
tallies) is pickled and stored in ``projection_checkpoints`` in the same transaction
as the view's rows and a position, so a checkpoint is the state as of a recorded
position. A restart loads it and replays only what came after: the cost is the
checkpoint's size and the facts since it, not the store's history.

The state is the same Python objects the warm-up would rebuild, so a checkpoint is
only as good as the code that wrote it: each is stamped with a digest of the modules
its objects can come from (:func:`code_digest`), and one written by other code
is not loaded; the projection then replays from the first fact, as before checkpoints,
and its next write stores a fresh one. Loading goes through an unpickler that finds
only classes of this project and of a few standard modules, so a row written into
the table by hand cannot run arbitrary code.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from eventsourcing.postgres import PostgresTrackingRecorder

_ROOT = Path(__file__).resolve().parents[1]
_STATE_PACKAGES = ("audit", "projections")
"""The packages whose classes a projection's state holds: their source stamps a checkpoint."""
_FINDABLE = ("audit.", "projections.")
_STANDARD = {
    "collections": {"OrderedDict", "defaultdict", "deque", "Counter"},
    "datetime": {"datetime", "date", "time", "timedelta", "timezone"},
    "decimal": {"Decimal"},
    "uuid": {"UUID"},
}
"""The standard classes a state may hold, beside this project's own."""


class CheckpointError(ValueError):
    """Raised when a stored checkpoint cannot be read back as this code's state."""


@dataclass(frozen=True)
class Checkpoint:
    """One projection's stored state: the position it is as of, the code that wrote it."""

    position: int
    code: str
    state: bytes


@cache
def code_digest() -> str:
    """Return a digest of every module a projection's state can come from."""
    digest = hashlib.sha256()
    for package in _STATE_PACKAGES:
        for path in sorted((_ROOT / package).rglob("*.py")):
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def _mapping_proxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


_DISPATCH = copyreg.dispatch_table.copy()
_DISPATCH[MappingProxyType] = lambda proxy: (_mapping_proxy, (dict(proxy),))  # rule sets' tables


def dumps(state: dict[str, Any]) -> bytes:
    """Return a projection's state as bytes (shared objects stay shared when loaded)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(state)
    return buffer.getvalue()


class _ProjectUnpickler(pickle.Unpickler):
    """Finds a standard class of state, or a class or function of this project defined in
    the module named (a rule set holds its house way's function): nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if name in _STANDARD.get(module, ()):
            return super().find_class(module, name)
        if module.startswith(_FINDABLE) and "." not in name:
            found = super().find_class(module, name)
            if getattr(found, "__module__", None) == module:
                return found
        raise CheckpointError(f"a checkpoint names {module + '.' + name!r}, not a class of state")


def loads(data: bytes) -> dict[str, Any]:
    """Return the state :func:`dumps` wrote; ``CheckpointError`` if it is not readable as such."""
    try:
        state = _ProjectUnpickler(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, AttributeError, ImportError, EOFError, TypeError) as error:
        raise CheckpointError(f"unreadable checkpoint: {error}") from None
    if not isinstance(state, dict):
        raise CheckpointError(f"a checkpoint holds a {type(state).__name__!r}, not a state")
    return state


_CREATE = (
    "CREATE TABLE IF NOT EXISTS projection_checkpoints (tracking_name TEXT PRIMARY KEY, "
    "position BIGINT NOT NULL, code TEXT NOT NULL, state {blob} NOT NULL)"
)
_UPSERT = (
    "INSERT INTO projection_checkpoints (tracking_name, position, code, state) "
    "VALUES ({p}, {p}, {p}, {p}) ON CONFLICT (tracking_name) DO UPDATE SET "
    "position = excluded.position, code = excluded.code, state = excluded.state"
)
_SELECT = "SELECT position, code, state FROM projection_checkpoints WHERE tracking_name = {p}"


class Checkpoints:
    """Mixed in before a tracking recorder: the checkpoint table, written in the view's own
    transaction (``_insert_checkpoint``) and read on start (``checkpoint``)."""

    def _is_postgres(self) -> bool:
        return isinstance(self, PostgresTrackingRecorder)

    def create_checkpoint_table(self) -> None:
        """Create the checkpoint table if it is not there."""
        blob = "BYTEA" if self._is_postgres() else "BLOB"
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(_CREATE.format(blob=blob))

    def _insert_checkpoint(self, cursor: Any, name: str, checkpoint: Checkpoint | None) -> None:
        if checkpoint is None:
            return
        sql = _UPSERT.format(p="%s" if self._is_postgres() else "?")
        cursor.execute(sql, (name, checkpoint.position, checkpoint.code, checkpoint.state))

    def save_checkpoint(self, name: str, checkpoint: Checkpoint | None) -> None:
        """Store a checkpoint of a position already recorded, in a transaction of its own."""
        with self.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            self._insert_checkpoint(cursor, name, checkpoint)

    def checkpoint(self, name: str) -> Checkpoint | None:
        """Return the checkpoint stored for a tracking name, if any."""
        with self.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute(_SELECT.format(p="%s" if self._is_postgres() else "?"), (name,))
            row = cursor.fetchone()
        if row is None:
            return None
        position, code, state = (row[k] for k in ("position", "code", "state"))
        return Checkpoint(int(position), str(code), bytes(state))
