"""Loaded dice: a shaker whose dice favour one face, injected at chosen tables with labels.

A loaded table's every die shows ``face`` with probability ``weight`` and otherwise rolls
fair, whatever dice are placed in its shaker (the shaker is the fault, so fresh dice do
not cure it). The truth is one :class:`~audit.simulation.paigow.careless.plan.Label` per
table (``round_id`` None, kind ``loaded_dice``) naming the dice screen's code: the
screen must find it once the table's windows close (audit/verification/equipment.py).

The loaded tables are the ``tables`` Pai Gow tables with the lowest numbers, which the
seed draws: choosing them draws nothing, so the clean tables' streams are exactly those of
the same seed without loaded dice, and a fair table rolls exactly as it always did.

>>> import random
>>> rolls = [throw(random.Random(1), LoadedDice(face=6, weight=1.0)) for _ in range(3)]
>>> rolls
[(6, 6, 6), (6, 6, 6), (6, 6, 6)]
>>> fair = random.Random(1)
>>> throw(random.Random(1), None) == (fair.randint(1, 6), fair.randint(1, 6), fair.randint(1, 6))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

DICE_CODE = "STAT-DICE-TOTALS"


class InvalidLoadError(ValueError):
    """Raised for a load that is not a face and a probability."""


@dataclass(frozen=True)
class LoadedDice:
    """How a loaded shaker's dice roll: ``face`` with probability ``weight``, else fair."""

    face: int = 6
    weight: float = 0.15

    def __post_init__(self) -> None:
        if self.face not in range(1, 7):
            raise InvalidLoadError(f"a die shows 1 to 6, not {self.face!r}")
        if not isinstance(self.weight, int | float) or not 0 < self.weight <= 1:
            raise InvalidLoadError(f"the load must be a probability above 0: {self.weight!r}")


def throw(rng: random.Random, loaded: LoadedDice | None) -> tuple[int, int, int]:
    """Return three dice; fair ones draw exactly what they always drew."""
    if loaded is None:
        return (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    a, b, c = (loaded.face if rng.random() < loaded.weight else rng.randint(1, 6) for _ in "abc")
    return a, b, c
