"""What every game's settlement shares: how a wager ends, payout odds, who money moves between.

Pure and game-neutral: Pai Gow Tiles and 21 Baccarat settle with these, each by its
own rules.

>>> Odds(1, 2).pays(1001), Outcome.WIN.value, HOUSE
(500, 'win', 'house')
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any

from audit.games.errors import InvalidAmountError, InvalidSettlementError
from audit.games.money import Cents

Position = int
"""A betting position at the table."""

Party = int | str
"""Who money moves between: a player's :data:`Position`, the bank, or :data:`HOUSE`."""

HOUSE = "house"
"""The casino: table inventory, vigorish and collection fees."""


class Outcome(Enum):
    """How one wager ends, from the wagering player's side."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


@dataclass(frozen=True)
class Odds:
    """Payout odds of ``numerator`` to ``denominator``, e.g. ``Odds(40, 1)`` for 40 to 1."""

    numerator: int
    denominator: int = 1

    def __post_init__(self) -> None:
        for value in (self.numerator, self.denominator):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise InvalidSettlementError(f"odds must be positive whole numbers: {value!r}")

    def pays(self, amount: Cents) -> Cents:
        """Return the winnings on ``amount``, rounding a fraction of a cent down.

        >>> Odds(3, 2).pays(101)
        151
        """
        return amount * self.numerator // self.denominator


def check_stake(cents: Cents, what: str) -> Cents:
    """Return ``cents`` if it is a positive ``int``, else raise naming ``what``."""
    if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
        raise InvalidAmountError(f"{what} must be a positive whole number of cents: {cents!r}")
    return cents


def _value_repr(value: object) -> str:
    # An enum's own repr ('<Outcome.WIN: 'win'>') does not evaluate; 'Outcome.WIN' does.
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, dict):
        items = (f"{_value_repr(key)}: {_value_repr(item)}" for key, item in value.items())
        return "{" + ", ".join(items) + "}"
    return repr(value)


def dataclass_repr(obj: Any) -> str:
    """Return a dataclass's repr as an evaluable call, leaving out fields at their defaults.

    Enum members, even as dict keys, appear as ``Outcome.WIN``, so the repr
    round-trips where the enum's names are in scope.

    >>> @dataclass(frozen=True)
    ... class Line:
    ...     outcome: Outcome
    ...     paid: int = 0
    ...     __repr__ = dataclass_repr
    >>> Line(Outcome.LOSE), Line(Outcome.WIN, 5)
    (Line(outcome=Outcome.LOSE), Line(outcome=Outcome.WIN, paid=5))
    """
    parts = [
        f"{field.name}={_value_repr(getattr(obj, field.name))}"
        for field in fields(obj)
        if field.default is MISSING or getattr(obj, field.name) != field.default
    ]
    return f"{type(obj).__name__}({', '.join(parts)})"
