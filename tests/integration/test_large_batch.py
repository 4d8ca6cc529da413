"""A batch of megabytes is still one transaction on PostgreSQL, and it completes (issue #16).

eventsourcing writes a batch in a psycopg pipeline and then waits for the server's
reply. psycopg left the part of the batch that one non-blocking flush could not
send in libpq's buffer and waited to read: the server waited for the rest of the
message (``pg_stat_activity``: active, ``ClientRead``) and neither ever moved. The
socket buffers fill first when the server is not reading: here it waits for the
events table's lock, held by another writer, as writers do in turn.
"""

import threading
import time
import uuid

import psycopg
from eventsourcing.persistence import StoredEvent

from audit.store.application import FactStore, StoreConfig

EVENTS = 32
STATE_BYTES = 1_000_000
"""32 MB in one batch: a 12 MB batch already hung on this machine's loopback."""
HELD_S = 3.0
"""How long the other writer keeps the lock once the batch's transaction waits for it."""


def test_a_batch_larger_than_the_socket_buffers_is_written_once_the_lock_is_free(pg_url):
    store = FactStore(StoreConfig.postgres(pg_url))
    ids = [uuid.uuid4() for _ in range(EVENTS)]
    events = [
        StoredEvent(aggregate_id, 1, "tablewatch:Large", bytes([n]) * STATE_BYTES)
        for n, aggregate_id in enumerate(ids)
    ]
    outcome: dict[str, object] = {}

    def write() -> None:
        try:
            outcome["written"] = store.write_stored(events, "large", 7)
        except Exception as exc:  # reported by the assertion below
            outcome["error"] = exc

    writer = threading.Thread(target=write, daemon=True)
    with psycopg.connect(pg_url) as other, psycopg.connect(pg_url, autocommit=True) as watch:
        other.execute(f"LOCK TABLE {store.events_table} IN EXCLUSIVE MODE")
        writer.start()
        _wait_for_lock_wait(watch)
        time.sleep(HELD_S)  # the batch is sent meanwhile, as far as the sockets take it
        other.commit()
    writer.join(timeout=30)

    assert not writer.is_alive(), "the batch's transaction hung after the lock was freed"
    assert outcome == {"written": EVENTS}
    assert store.process_recorder.max_tracking_id("large") == 7
    with psycopg.connect(pg_url) as conn:
        stored = conn.execute(
            f"SELECT originator_id, length(state), get_byte(state, 0)"
            f" FROM {store.events_table} WHERE originator_id = ANY(%s)",
            (ids,),
        ).fetchall()
    assert sorted(stored) == sorted((i, STATE_BYTES, n) for n, i in enumerate(ids))


def _wait_for_lock_wait(conn: psycopg.Connection) -> None:
    """Return once a session of this database waits for a lock (the batch's).

    ``conn`` is in autocommit: a transaction would see one snapshot of the activity.
    """
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        waiting = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock'"
        ).fetchone()
        if waiting and waiting[0]:
            return
        time.sleep(0.05)
    raise AssertionError("the batch's transaction never waited for the table lock")
