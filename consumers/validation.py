"""Read and validate Kafka records in a second process, one batch ahead of the store.

Why a process: the ingest is CPU-bound and, in one interpreter, everything
shares one core through the GIL. Decoding Kafka's record batches (kafka-python
does it in Python), validating each event (JSON and pydantic) and serialising it
for the store is over half the work per event, and none of it needs the
ingest's state. So a child process does it and hands back, per partition, the
:class:`~audit.store.ingest.Checked` tuples (stored JSON text, digest and the
few fields the store needs) and the rejected records: cheaper to pickle than
the events themselves. The main process keeps what must be single: sequencing, the
hash chain, dead letters and the database's transactions.

What does not change:

- The child never commits anything, to Kafka or the database. It reads from the
  positions the main process got from the database and is told nothing else.
- Nothing is lost if either process dies: the main process commits a batch's
  position with its facts, and a restart reads again from the database.
- When the main process must resume from the database (another writer got
  there first), it discards the child and everything read ahead, and starts a
  new one at the stored positions.

The child is a fresh interpreter (``python -m consumers.validation``) with the
parent's ``sys.path``, talking over a socket pair. Not a fork: the main process
has database-pool and producer threads, and a fork copies their locks in
whatever state they are. Nor multiprocessing's spawn, which imports the parent's
main script again. It starts at once and imports while the main process
connects. It ignores SIGINT and SIGTERM (stopping is the main process's call,
and it needs its reader alive to finish a batch); it is killed when the main
process is done with it, and exits by itself when the main process dies.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from consumers.ingest import CheckedBatch, check_records
from consumers.kafka_io import Bootstrap, ClosedOnExit, PartitionReader


class ValidatorError(RuntimeError):
    """Raised when the validating reader died without saying why."""


@dataclass(frozen=True)
class Polled:
    """What one poll read: its validated batches, and whether the reader was then caught up."""

    batches: list[CheckedBatch]
    caught_up: bool
    ends: dict[int, int] = field(default_factory=dict)
    """Each partition's end offset, when this poll asked the broker for them (else empty)."""


@dataclass(frozen=True)
class _Failed:
    """The child's last word: the error that stopped it."""

    error: BaseException


@dataclass(frozen=True)
class ReaderSettings:
    """Where and how the child reads."""

    bootstrap: Bootstrap
    topic: str
    batch_size: int
    poll_timeout_ms: int
    partitions: tuple[int, ...] | None = None
    """The partitions to read (None: every one)."""


class CheckingReader(ClosedOnExit):
    """A child process that reads a topic from given offsets and sends back validated batches.

    ``start_offsets`` maps each partition to the next offset to read, as stored in
    the database. :meth:`receive` waits for the next poll's batches; the child
    polls at least every ``poll_timeout_ms``, so the caller regains control that
    often even when nothing arrives.
    """

    def __init__(self, settings: ReaderSettings) -> None:
        parent_end, child_end = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(child_end.fileno())],
                env=env,
                pass_fds=(child_end.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        finally:
            child_end.close()
        self._conn = Connection(parent_end.detach())
        self._conn.send((settings, os.getpid()))

    @property
    def pid(self) -> int:
        """Return the child's process id."""
        return self._process.pid

    def start(self, start_offsets: Mapping[int, int]) -> None:
        """Tell the child where to start reading; it starts polling at once."""
        self._conn.send(dict(start_offsets))

    def receive(self) -> Polled:
        """Return the next poll's validated batches; raise the child's error if it failed."""
        try:
            received = self._conn.recv()
        except (EOFError, ConnectionResetError):
            code = self._process.wait(timeout=5)
            raise ValidatorError(f"the validating reader exited (exit code {code})") from None
        if isinstance(received, _Failed):
            raise received.error
        return received

    def close(self) -> None:
        """Stop the child and discard whatever it read ahead; it holds nothing to save."""
        self._conn.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


LIVENESS_TIMEOUT_MS = 3000
"""How long the end offsets may take after a poll that found nothing, or every few seconds.

kafka-python's poll waits in silence while the broker is gone, and returns what it
fetched ahead for a while longer; asking for the end offsets after every empty poll,
and at least every LIVENESS_INTERVAL_S while records flow, turns a lost broker into
BrokerUnavailableError, which the parent hears within seconds.
"""

LIVENESS_INTERVAL_S = 2.0


def caught_up(reader: PartitionReader) -> bool:
    """Return whether ``reader`` has read every partition to its end (the broker answered)."""
    return _read_to(reader, reader.end_offsets(LIVENESS_TIMEOUT_MS))


def _read_to(reader: PartitionReader, ends: Mapping[int, int]) -> bool:
    positions = reader.positions()
    return all(positions.get(p, 0) >= end for p, end in ends.items())


def _serve(conn: Connection) -> None:
    """Run in the child: read, validate, send; until the parent goes away."""
    # Stopping is the parent's decision: a Ctrl-C or a service manager's SIGTERM that reaches
    # the whole process group must let the parent finish its batch with this child alive.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        settings, parent = conn.recv()
        starts: dict[int, int] = conn.recv()
        with PartitionReader(
            settings.bootstrap, settings.topic, starts, partitions=settings.partitions
        ) as reader:
            asked = -LIVENESS_INTERVAL_S  # the first poll asks: a backlog shows from the start
            while os.getppid() == parent:
                records = reader.poll_batch(settings.batch_size, settings.poll_timeout_ms)
                done, ends = False, {}
                if not records or time.monotonic() - asked >= LIVENESS_INTERVAL_S:
                    # The same answer feeds the parent's lag gauges: no extra request for them.
                    ends = reader.end_offsets(LIVENESS_TIMEOUT_MS)  # raises if the broker is gone
                    done = not records and _read_to(reader, ends)
                    asked = time.monotonic()
                conn.send(Polled(check_records(records), done, ends))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        return  # the parent closed its end: it is done with us
    except BaseException as error:  # handed to the parent, which raises it
        with contextlib.suppress(OSError, EOFError):  # unless the parent is gone too
            conn.send(_Failed(_picklable(error)))


def _picklable(error: BaseException) -> BaseException:
    """Return ``error`` if it survives pickling, else a RuntimeError with its message."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # any failure means: send the message instead
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


if __name__ == "__main__":
    # Run the imported module's code, so what is pickled names consumers.validation, not __main__.
    from consumers.validation import _serve as serve

    serve(Connection(int(sys.argv[1])))
