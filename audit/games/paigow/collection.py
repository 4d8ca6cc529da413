"""California collection rates for Pai Gow Tiles: schedule options 1 to 10, as data.

Options 1-5 take a fee from each player by the size of each game wager, plus a
flat fee per round from the player-dealer. Options 6-10 take one fee per round
from the player-dealer by the total table action (every player's game and bonus
wagers) and nothing from the players.

The text prints bands in whole dollars ("$101-$200"). We read each band as
running from just above the previous band's top to its own top inclusive, so a
$100.50 wager falls in "$101-$200"; amounts below the lowest band (under $1, or
under $100 for options 5 and 10) match no band, pay nothing, and
:func:`is_below_schedule` lets verification flag them.

>>> collection_fees(COLLECTION_SCHEDULES[1], [10000, 10050, 50000])
((100, 200, 500), 100)
>>> collection_fees(COLLECTION_SCHEDULES[6], [2500, 2500], bonus_action=5000)
((0, 0), 200)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from itertools import pairwise

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents, check_amount
from audit.games.wagering import dataclass_repr


class CollectionBasis(Enum):
    """What a schedule's bands measure."""

    PLAYER_WAGER = "player_wager"
    """Options 1-5: each player's game wager; the player-dealer pays a flat fee."""
    TABLE_ACTION = "table_action"
    """Options 6-10: all players' game and bonus wagers; only the player-dealer pays."""


@dataclass(frozen=True)
class CollectionBand:
    """One row of a schedule: the dollars printed (``high`` ``None`` for "$401+") and the fee."""

    low: int
    high: int | None
    fee: Cents

    @property
    def floor(self) -> Cents:
        """Return the smallest amount in the band when it is the schedule's first band."""
        return self.low * 100

    def covers(self, amount: Cents) -> bool:
        """Return whether ``amount`` is at most this band's top (always, if open-ended)."""
        return self.high is None or amount <= self.high * 100


@dataclass(frozen=True, repr=False)
class CollectionSchedule:
    """A collection schedule option: its basis, its bands and the flat player-dealer fee."""

    option: int
    basis: CollectionBasis
    bands: tuple[CollectionBand, ...]
    player_dealer_fee: Cents = 0

    __repr__ = dataclass_repr

    def __post_init__(self) -> None:
        # Each printed band must start one dollar above the last one's top, and only
        # the last may be open-ended; this catches a mistyped row at import.
        for below, above in pairwise(self.bands):
            if below.high is None or above.low != below.high + 1:
                raise InvalidSettlementError(f"bands do not join: {below!r}, {above!r}")
        if not self.bands or self.bands[-1].high is not None:
            raise InvalidSettlementError(f"the last band must be open-ended: {self.bands!r}")

    @cached_property
    def _tops(self) -> tuple[Cents, ...]:
        """Return each closed band's top in cents, in order: collection_band searches them."""
        return tuple(band.high * 100 for band in self.bands if band.high is not None)


def _schedule(
    option: int, basis: CollectionBasis, rows: str, player_dealer_fee: Cents = 0
) -> CollectionSchedule:
    """Build a schedule from rows written as in the text, e.g. ``"1-100 100, 401+ 500"``."""
    bands = []
    for row in rows.split(","):
        dollars, fee = row.split()
        low, _, high = dollars.rstrip("+").partition("-")
        bands.append(CollectionBand(int(low), int(high) if high else None, int(fee)))
    return CollectionSchedule(option, basis, tuple(bands), player_dealer_fee)


_WAGER = CollectionBasis.PLAYER_WAGER
_ACTION = CollectionBasis.TABLE_ACTION

# CA Pai Gow Tiles, Collection Rates Schedule: dollar bands, fees in cents.
COLLECTION_SCHEDULES: dict[int, CollectionSchedule] = {
    schedule.option: schedule
    for schedule in (
        _schedule(1, _WAGER, "1-100 100, 101-200 200, 201-300 300, 301-400 400, 401+ 500", 100),
        _schedule(2, _WAGER, "1-100 100, 101-200 200, 201-300 300, 301-400 400, 401+ 500", 200),
        _schedule(3, _WAGER, "1-200 100, 201-400 300, 401-600 500, 601-800 700, 801+ 900", 100),
        _schedule(
            4, _WAGER, "1-200 200, 201-600 400, 601-1000 800, 1001-1400 1200, 1401+ 1500", 200
        ),
        _schedule(
            5, _WAGER, "100-400 200, 401-800 600, 801-1400 1100, 1401-2000 1500, 2001+ 2000", 200
        ),
        _schedule(6, _ACTION, "1-49 50, 50-99 100, 100-199 200, 200-299 300, 300+ 500"),
        _schedule(7, _ACTION, "1-74 100, 75-199 200, 200-399 400, 400-699 700, 700+ 1000"),
        _schedule(8, _ACTION, "1-99 100, 100-299 300, 300-499 500, 500-799 800, 800+ 1200"),
        _schedule(9, _ACTION, "1-299 300, 300-499 500, 500-799 800, 800-1199 1200, 1200+ 2000"),
        _schedule(
            10, _ACTION, "100-999 500, 1000-1999 1500, 2000-2999 2500, 3000-3999 3500, 4000+ 4500"
        ),
    )
}


def collection_schedule(option: int) -> CollectionSchedule:
    """Return schedule option 1 to 10, or raise naming the option."""
    try:
        return COLLECTION_SCHEDULES[option]
    except (KeyError, TypeError):
        raise InvalidSettlementError(f"no collection schedule option: {option!r}") from None


def collection_band(schedule: CollectionSchedule, amount: Cents) -> CollectionBand | None:
    """Return the band ``amount`` falls in, or ``None`` below the lowest band.

    >>> collection_band(COLLECTION_SCHEDULES[1], 10050)
    CollectionBand(low=101, high=200, fee=200)
    """
    check_amount(amount, "collection basis")
    if amount < schedule.bands[0].floor:
        return None
    # The first band whose top is not below the amount covers it; above them all, the
    # open-ended last band does.
    return schedule.bands[bisect_left(schedule._tops, amount)]


def is_below_schedule(schedule: CollectionSchedule, amount: Cents) -> bool:
    """Return whether ``amount`` is below the schedule's lowest band, so pays no fee.

    >>> is_below_schedule(COLLECTION_SCHEDULES[5], 9999)
    True
    """
    return collection_band(schedule, amount) is None


def collection_fee(schedule: CollectionSchedule, amount: Cents) -> Cents:
    """Return the fee for ``amount`` on the schedule's bands (0 below the lowest band)."""
    band = collection_band(schedule, amount)
    return 0 if band is None else band.fee


def table_action(player_wagers: Sequence[Cents], bonus_action: Cents = 0) -> Cents:
    """Return the total table action: every player's game wagers plus all bonus wagers."""
    return sum(check_amount(w, "player wager") for w in player_wagers) + check_amount(
        bonus_action, "bonus action"
    )


def collection_fees(
    schedule: CollectionSchedule, player_wagers: Sequence[Cents], bonus_action: Cents = 0
) -> tuple[tuple[Cents, ...], Cents]:
    """Return each player wager's fee (in order) and the player-dealer's fee for a round.

    ``bonus_action`` is the sum of the players' bonus wagers, which count only
    towards an option 6-10 table action.
    """
    if not isinstance(schedule, CollectionSchedule):
        raise InvalidSettlementError(f"not a collection schedule: {schedule!r}")
    action = table_action(player_wagers, bonus_action)
    if schedule.basis is CollectionBasis.PLAYER_WAGER:
        fees = tuple(collection_fee(schedule, wager) for wager in player_wagers)
        return fees, schedule.player_dealer_fee
    return (0,) * len(player_wagers), collection_fee(schedule, action)
