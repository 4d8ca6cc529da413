"""A copy of a simulated table (of any game) to preview a round on: the real one never changes."""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import replace
from typing import TypeVar

from audit.simulation.recorder import Recorder

TableT = TypeVar("TableT")


def fork(table: TableT, *copied: str) -> TableT:
    """Return a copy of a simulated table (of any game) whose rounds change nothing of the
    original's: its own generator and clock, deep copies of the ``copied`` fields, no books
    (a preview moves no chips)."""
    rng = random.Random()
    rng.setstate(table.rng.getstate())  # type: ignore[attr-defined]
    recorder = Recorder(table.table_id, rng, table.recorder.now, table.recorder.seq)  # type: ignore[attr-defined]
    deep = {name: deepcopy(getattr(table, name)) for name in copied}
    return replace(table, rng=rng, recorder=recorder, books=None, **deep)  # type: ignore[type-var]
