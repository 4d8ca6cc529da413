"""A long pass split across two processes: the judge's read models here, the rest in a second.

A rebuild from zero, or a backlog after an outage, is CPU work on one core: each fact is
parsed once and fed to every read model (``projections/together.py``). Read models write
their own rows with their own positions, so two groups of them can catch up in two
processes at once from the same store, exactly once each, with no fact handed between
them (handing a parsed fact across costs more than parsing it again:
docs/rebuild-speed.md). The split is by read model, not by table, because the drop
reconciliation and the collusion screens read every table's facts in the stored order.

- **Here** (the calling process): the findings and the reconciliation, which borrows the
  findings judge's reconciler, so they must stay together, and the round index, which only
  evens the two processes out (``KEPT_HERE``). The service keeps their state warm in memory,
  as in a pass that is not split.
- **There** (a second process, started for the pass): every other read model. It opens the
  store itself, catches its group up, and stores each one's state at its position
  (``rest_together``), so the service's next pass, opening them afresh, replays nothing.

Why a fresh interpreter (``spawn``) rather than ``fork``: ``tablewatch serve`` is
multi-threaded (uvicorn, the web app's database reads), and a fork taken while another
thread holds a lock inside SQLite or libpq would deadlock the child. The second process
costs an interpreter's start and the package's imports (about a second), so only a
backlog of at least :data:`SPLIT_BACKLOG` stored events is split.

Exactly once, and no orphan: on Linux the second process is killed when the thread that
started it ends (``PR_SET_PDEATHSIG``), so a SIGKILL'd service leaves nothing writing
beside its successor; each read model's position is written with its rows either way, so
a restart goes on from whatever each group wrote. A stop (``stopped``) reaches the second
process at its next batch, as it reaches the first. A database fault there is raised here
as :class:`SecondProcessLostError` (an eventsourcing ``OperationalError``, which the service
retries with a back-off); read models stopped there by a defect as :class:`ReadModelDefect`,
as here (the others' rows are written); a view's position taken there by another writer as
:class:`ViewMovedError` (``VIEW_CONFLICTS``: the service opens its read models afresh); anything
else there is a defect, raised here with its traceback.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import cast

import psycopg
from eventsourcing.persistence import IntegrityError, OperationalError

from audit.store.application import FactStore, StoreConfig
from projections.fact_projection import FactProjection
from projections.together import (
    DATABASE_FAULTS,
    PASS_BATCH,
    ReadModelDefect,
    catch_up_together,
    rest_together,
)

SPLIT_BACKLOG = 50_000
"""Stored events a read model of the second group must lack before ``tablewatch serve`` splits
a pass (``TABLEWATCH_SPLIT_BACKLOG``): about 1,200 rounds, a pass of several seconds, against
about a second to start the process."""

ReadModelKind = Callable[[FactStore], FactProjection]
_PR_SET_PDEATHSIG = 1


class SecondProcessLostError(OperationalError):
    """The second process lost its database, or ended without saying how its pass went."""


class ViewMovedError(IntegrityError):
    """A view's position was written by another process while the second one caught it up."""


VIEW_CONFLICTS = (IntegrityError, psycopg.IntegrityError)
"""What a read model's write raises when its rows or position are there already: another
process wrote the view since this one read its position (one that took no store lease)."""


class SecondProcessFailedError(RuntimeError):
    """The second process failed on something other than its database: a defect."""


def catch_up_split(
    here: Sequence[FactProjection],
    there: Sequence[ReadModelKind],
    store: FactStore,
    batch: int = PASS_BATCH,
    stopped: Callable[[], bool] = lambda: False,
    seconds: dict[str, float] | None = None,
) -> int:
    """Catch ``here`` up in this process while a second process catches ``there`` up from the
    same store; return the rows both wrote. ``there`` are importable read-model classes,
    opened there on the store as this process opened it (running DDL only if it may).

    ``seconds``, if given, gets each group's wall time of a pass that completes: ``"here"``,
    and ``"second"`` from the second process's start to its end, its interpreter's start and
    imports included; the longer bounds the pass (docs/rebuild-speed.md)."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    worker = context.Process(
        target=_second,
        args=(store.config, store.create, tuple(there), batch, theirs, os.getpid()),
        name="tablewatch-read-models-2",
        daemon=True,
    )
    started = time.time()  # wall clock: the second process's end is stamped in its own
    worker.start()
    theirs.close()
    try:
        written = catch_up_together(here, batch, stopped=stopped)
        here_seconds = time.time() - started
    except BaseException:
        _stop(ours)
        worker.join(timeout=60)
        if worker.is_alive():
            worker.kill()  # a kill mid-write loses nothing: each batch is one transaction
        raise
    told = False  # told once: the second process only polls, and a pipe it never drains fills
    while worker.is_alive():
        if not told and stopped():
            _stop(ours)
            told = True
        worker.join(timeout=0.1)
    outcome = _outcome(ours)
    if outcome is None:
        raise SecondProcessLostError(f"the second read-model process ended (exit code "
                                 f"{worker.exitcode}) without finishing its pass")  # fmt: skip
    kind, detail = outcome
    if kind == "database":
        raise SecondProcessLostError(f"the second read-model process: {detail}")
    if kind == "moved":
        raise ViewMovedError(f"the second read-model process: {detail}")
    if kind == "stopped":
        said = cast(dict[str, str], detail)
        raise ReadModelDefect({name: RuntimeError(text) for name, text in said.items()})
    if kind == "defect":
        raise SecondProcessFailedError(f"the second read-model process failed:\n{detail}")
    theirs_written, ended = cast(tuple[int, float], detail)  # "ok": rows written, its end
    if seconds is not None:
        seconds.update(here=here_seconds, second=max(0.0, ended - started))
    return written + theirs_written


def _outcome(pipe: Connection) -> tuple[str, object] | None:
    """Return what the second process said of its pass, or None if it said nothing."""
    try:
        return pipe.recv() if pipe.poll() else None
    except EOFError:  # it ended without a word: killed, or out of memory
        return None
    finally:
        pipe.close()


def _stop(pipe: Connection) -> None:
    with contextlib.suppress(OSError):  # it has ended already
        pipe.send("stop")


def _second(
    config: StoreConfig,
    create: bool,
    kinds: tuple[ReadModelKind, ...],
    batch: int,
    pipe: Connection,
    parent: int,
) -> None:
    """The second process: catch ``kinds`` up, store their state, and say how it went."""
    _end_with_parent(parent)
    told: list[int] = []
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the parent decides
    signal.signal(signal.SIGTERM, lambda signum, _: told.append(signum))

    def stopped() -> bool:
        return bool(told) or pipe.poll() or os.getppid() != parent

    try:
        store = FactStore(config, create=create)
        models = [kind(store) for kind in kinds]
        written = catch_up_together(models, batch, stopped=stopped)
        rest_together(models)
        store.close()
        pipe.send(("ok", (written, time.time())))
    except DATABASE_FAULTS as error:
        pipe.send(("database", str(error).strip() or type(error).__name__))
    except VIEW_CONFLICTS as error:
        pipe.send(("moved", str(error).strip() or type(error).__name__))
    except ReadModelDefect as error:  # the others' rows were written: the service benches these
        pipe.send(("stopped", {name: traceback.format_exception(e)[-1].strip()
                               for name, e in error.errors.items()}))  # fmt: skip
    except Exception:  # a defect: the parent raises it with this traceback
        pipe.send(("defect", traceback.format_exc()))


def _end_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when the thread that started it ends (a SIGKILL'd
    service), and end now if that already happened."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)
