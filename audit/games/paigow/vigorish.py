"""The 5% vigorish on Pai Gow winnings (PA 621a.8(k), NJ 19:47-10.7(k)).

Both texts fix the rate at 5% of the amount won and let the house "round off the
vigorish to 25¢ or the next highest multiple of 25¢". Neither says what to do
with a fraction of a cent when the house does not round to quarters, so
:attr:`VigRounding.CENT` is our completion: round up to the next whole cent, the
direction the quarter rule already rounds.

>>> vigorish(1000, VigRounding.CENT), vigorish(1000, VigRounding.QUARTER)
(50, 50)
>>> vigorish(1100, VigRounding.CENT), vigorish(1100, VigRounding.QUARTER)
(55, 75)
>>> vigorish(1010, VigRounding.CENT)
51
"""

from __future__ import annotations

from enum import Enum

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents, ceil_div, check_amount

VIGORISH_PERCENT = 5
"""PA 621a.8(k) / NJ 19:47-10.7(k): "an amount equal to 5% of the amount won"."""

QUARTER: Cents = 25
"""The 25¢ step of the optional round-off in PA 621a.8(k) / NJ 19:47-10.7(k)."""


class VigRounding(Enum):
    """How a house rounds the 5% vigorish: its rules submission picks one."""

    CENT = "cent"
    """Round up to the next whole cent (our completion where the texts are silent)."""
    QUARTER = "quarter"
    """Round up to 25¢ or the next highest multiple of 25¢ (PA 621a.8(k), NJ 10.7(k))."""


def vigorish(amount_won: Cents, rounding: VigRounding) -> Cents:
    """Return the vigorish on ``amount_won`` cents, rounded up as ``rounding`` says.

    Any positive win pays at least 1¢ (``CENT``) or 25¢ (``QUARTER``); nothing won,
    nothing owed.

    >>> vigorish(100, VigRounding.CENT), vigorish(100, VigRounding.QUARTER)
    (5, 25)
    >>> vigorish(0, VigRounding.QUARTER)
    0
    """
    check_amount(amount_won, "amount won")
    # 5% of n cents is n * 5 / 100 cents; ceil_div keeps it exact (no float).
    if rounding is VigRounding.CENT:
        return ceil_div(amount_won * VIGORISH_PERCENT, 100)
    # PA 621a.8(k) / NJ 10.7(k): "25¢ or the next highest multiple of 25¢".
    if rounding is VigRounding.QUARTER:
        return ceil_div(amount_won * VIGORISH_PERCENT, 100 * QUARTER) * QUARTER
    raise InvalidSettlementError(f"unknown vigorish rounding: {rounding!r}")
