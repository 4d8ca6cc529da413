"""Settling a Pai Gow round: the value types, dealer-banked rounds and voided rounds.

A round is settled from its wagers in settlement order. Each :class:`Wager`
becomes one :class:`SettlementLine`; the :class:`RoundSettlement` adds the flows
of the bank and the house, and :meth:`RoundSettlement.nets` says what each party
gained or lost. Money moves between parties and never appears or vanishes, so
:meth:`RoundSettlement.is_balanced` holds for every round this package settles.
Player banks and co-banks live in :mod:`.banking`, the California player-dealer
in :mod:`.california`.

>>> from audit.games.paigow.vigorish import VigRounding
>>> round_ = settle_dealer_banked(
...     [Wager(1, 1000, Outcome.WIN), Wager(2, 500, Outcome.LOSE), Wager(3, 700, surrendered=True)],
...     VigRounding.QUARTER,
... )
>>> round_.lines[0]
SettlementLine(wager=Wager(position=1, amount=1000, outcome=Outcome.WIN), paid=1000, vigorish=50)
>>> round_.nets()
{1: 950, 2: -500, 3: -700, 'bank': 0, 'house': 250}
>>> round_.is_balanced()
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.games.wagering import (
    HOUSE,
    Outcome,
    Party,
    Position,
    check_stake,
    dataclass_repr,
)

BANK = "bank"
"""The player bank, the co-bank or the California player-dealer."""
DEALER = "dealer"
"""The payee of the dealer's winning wager in :attr:`RoundSettlement.payments` (a house wager)."""


class BankingMode(Enum):
    """Who banks the round, which decides where the players' money goes."""

    DEALER = "dealer"
    """The house banks through its dealer (PA 621a.8, NJ 19:47-10.7)."""
    PLAYER_BANK = "player_bank"
    """A player banks; the dealer may wager against the bank (PA 621a.9(h)-(q))."""
    CO_BANK = "co_bank"
    """A player and the house each cover half (PA 621a.9(e),(r), NJ 19:47-10.8(e),(p))."""
    CALIFORNIA = "california"
    """A California player-dealer covers up to its own wager (CA Pai Gow Tiles)."""


@dataclass(frozen=True, repr=False)
class Wager:
    """A player's Pai Gow wager to settle: position, amount and how it ended.

    ``outcome`` is the result against the dealer or bank; a wager the player
    surrendered (PA 621a.8(e)) or voided after an exposed tile (PA 621a.10(d)) was
    never compared, so it has no outcome.

    >>> Wager(3, 2500, Outcome.PUSH)
    Wager(position=3, amount=2500, outcome=Outcome.PUSH)
    >>> Wager(4, 2500, surrendered=True)
    Wager(position=4, amount=2500, surrendered=True)
    """

    position: Position
    amount: Cents
    outcome: Outcome | None = None
    surrendered: bool = False
    voided: bool = False

    def __post_init__(self) -> None:
        if (  # the usual wager, passed with few tests; anything else is checked in full below
            type(self.position) is int
            and self.position >= 0
            and type(self.amount) is int
            and self.amount > 0
            and self.surrendered is False
            and self.voided is False
            and (self.outcome is None or type(self.outcome) is Outcome)
        ):
            return
        if not isinstance(self.position, int) or isinstance(self.position, bool):
            raise InvalidSettlementError(f"position must be an int: {self.position!r}")
        if self.position < 0:
            raise InvalidSettlementError(f"position must not be negative: {self.position!r}")
        check_stake(self.amount, f"wager at position {self.position}")
        if self.outcome is not None and not isinstance(self.outcome, Outcome):
            raise InvalidSettlementError(f"invalid outcome: {self.outcome!r}")
        for flag in (self.surrendered, self.voided):
            if not isinstance(flag, bool):
                raise InvalidSettlementError(f"wager flags must be True or False: {flag!r}")
        if self.surrendered and self.voided:
            raise InvalidSettlementError(
                f"a wager cannot be both surrendered and voided: position {self.position!r}"
            )
        if (self.surrendered or self.voided) and self.outcome is not None:
            what = "surrendered" if self.surrendered else "voided"
            raise InvalidSettlementError(
                f"a {what} wager has no outcome: position {self.position!r}, {self.outcome!r}"
            )

    __repr__ = dataclass_repr

    @property
    def is_live(self) -> bool:
        """Return whether the wager was played out (neither surrendered nor voided)."""
        return not (self.surrendered or self.voided)


@dataclass(frozen=True, repr=False)
class DealerWager:
    """The dealer's wager against a player bank, with its outcome from the dealer's side."""

    amount: Cents
    outcome: Outcome

    def __post_init__(self) -> None:
        check_stake(self.amount, "dealer wager")
        if not isinstance(self.outcome, Outcome):
            raise InvalidSettlementError(f"invalid dealer outcome: {self.outcome!r}")

    __repr__ = dataclass_repr

    @property
    def result(self) -> Cents:
        """Return what the house won (positive) or lost (negative) on this wager."""
        if self.outcome is Outcome.WIN:
            return self.amount
        return -self.amount if self.outcome is Outcome.LOSE else 0


@dataclass(frozen=True, repr=False)
class SettlementLine:
    """How one wager was settled, in cents.

    ``paid`` is the winnings handed to the player (the wager itself stays with
    the player), ``collected`` the part of the wager taken from the player,
    ``returned`` the part handed back without action (a push, a void, or what a
    California player-dealer could not cover), ``vigorish`` the 5% commission on
    the win and ``fee`` a California collection fee.
    """

    wager: Wager
    paid: Cents = 0
    collected: Cents = 0
    vigorish: Cents = 0
    returned: Cents = 0
    fee: Cents = 0

    __repr__ = dataclass_repr

    @property
    def position(self) -> Position:
        """Return the wager's betting position."""
        return self.wager.position

    @property
    def outcome(self) -> Outcome | None:
        """Return the wager's outcome (``None`` if surrendered or voided)."""
        return self.wager.outcome

    @property
    def covered(self) -> Cents:
        """Return the part of the wager that was in action: paid 1:1 or collected."""
        return self.wager.amount - self.returned

    @property
    def net(self) -> Cents:
        """Return the player's gain (positive) or loss (negative) on this line."""
        return self.paid - self.collected - self.vigorish - self.fee


@dataclass(frozen=True, repr=False)
class CentrePayment:
    """One winner paid from the centre of a banked layout, in settlement order.

    ``from_pay_in`` is the part paid from what the bank (and, co-banking, the
    house) put in once the centre was exhausted (PA 621a.9(o),(r)).
    """

    payee: Position | str
    from_centre: Cents
    from_pay_in: Cents = 0

    __repr__ = dataclass_repr


@dataclass(frozen=True, repr=False)
class RoundSettlement:
    """A settled round: one line per wager, plus the flows of the bank and the house.

    Fields that a banking mode does not use stay 0. Player-bank and co-bank rounds
    route the players' money through the centre of the layout: losing wagers and a
    losing dealer wager go in, the pay-in (``shortfall_from_bank`` plus
    ``shortfall_from_house``) tops it up, winners are paid out, and the
    ``surplus`` is split into ``surplus_to_house``, ``surplus_vigorish`` and
    ``surplus_to_bank``.
    """

    mode: BankingMode
    lines: tuple[SettlementLine, ...]
    voided: bool = False
    dealer_wager: DealerWager | None = None
    payments: tuple[CentrePayment, ...] = ()
    shortfall_from_bank: Cents = 0
    shortfall_from_house: Cents = 0
    surplus: Cents = 0
    surplus_to_house: Cents = 0
    surplus_vigorish: Cents = 0
    surplus_to_bank: Cents = 0
    player_dealer_wager: Cents = 0
    player_dealer_fee: Cents = 0

    __repr__ = dataclass_repr

    @property
    def shortfall(self) -> Cents:
        """Return everything paid into the centre once it was exhausted."""
        return self.shortfall_from_bank + self.shortfall_from_house

    @property
    def dealer_result(self) -> Cents:
        """Return what the house won (positive) or lost (negative) on its dealer wager."""
        return 0 if self.dealer_wager is None else self.dealer_wager.result

    @property
    def vigorish(self) -> Cents:
        """Return all vigorish the house took: from winners and from the surplus."""
        return sum(line.vigorish for line in self.lines) + self.surplus_vigorish

    @property
    def fees(self) -> Cents:
        """Return all California collection fees: the players' and the player-dealer's."""
        return sum(line.fee for line in self.lines) + self.player_dealer_fee

    def nets(self) -> dict[Party, Cents]:
        """Return each party's gain (positive) or loss (negative): players, bank, house."""
        nets: dict[Party, Cents] = {line.position: line.net for line in self.lines}
        players_lost = sum(line.collected - line.paid for line in self.lines)
        bank = self.surplus_to_bank - self.shortfall_from_bank - self.player_dealer_fee
        house = (
            self.vigorish
            + self.fees
            + self.surplus_to_house
            - self.shortfall_from_house
            + self.dealer_result
        )
        # Dealer and California rounds settle player against banker directly; the
        # centre modes reach the bank and house only through the centre's fields.
        if self.mode is BankingMode.DEALER:
            house += players_lost
        elif self.mode is BankingMode.CALIFORNIA:
            bank += players_lost
        nets[BANK] = bank
        nets[HOUSE] = house
        return nets

    def is_balanced(self) -> bool:
        """Return whether the nets sum to exactly 0: no money made or lost in the record."""
        return sum(self.nets().values()) == 0


def check_wagers(wagers: Iterable[Wager]) -> tuple[Wager, ...]:
    """Return the wagers as a tuple if each is a :class:`Wager` at its own position."""
    result = tuple(wagers)
    seen: set[Position] = set()
    for wager in result:
        if not isinstance(wager, Wager):
            raise InvalidSettlementError(f"not a wager: {wager!r}")
        if wager.position in seen:
            raise InvalidSettlementError(f"duplicate position: {wager.position!r}")
        seen.add(wager.position)
    return result


def settle_wager(wager: Wager, rounding: VigRounding) -> SettlementLine:
    """Settle one wager at 1:1 against a dealer or bank that covers it in full.

    >>> line = settle_wager(Wager(1, 1100, Outcome.WIN), VigRounding.CENT)
    >>> line.paid, line.vigorish, line.net
    (1100, 55, 1045)
    """
    if wager.outcome is None and not (wager.surrendered or wager.voided):
        raise InvalidSettlementError(f"a played wager needs an outcome: {wager!r}")
    paid, collected, returned, vig = line_amounts(
        wager.amount, wager.outcome, rounding, surrendered=wager.surrendered, voided=wager.voided
    )
    return SettlementLine(wager, paid=paid, collected=collected, vigorish=vig, returned=returned)


def line_amounts(
    amount: Cents,
    outcome: Outcome | None,
    rounding: VigRounding,
    *,
    surrendered: bool = False,
    voided: bool = False,
) -> tuple[Cents, Cents, Cents, Cents]:
    """Return what :func:`settle_wager` moves for a wager: paid, collected, returned, vigorish.

    Unchecked, for callers that compare many recorded settlements with the rules' (the
    verification's clean-round reading); ``settle_wager`` is this, with the checks.

    >>> line_amounts(1100, Outcome.WIN, VigRounding.CENT)
    (1100, 0, 0, 55)
    >>> line_amounts(500, Outcome.PUSH, VigRounding.CENT)
    (0, 0, 500, 0)
    """
    # PA 621a.8(e) / NJ 10.7(f): the dealer "shall immediately collect the wager".
    if surrendered:
        return 0, amount, 0, 0
    # PA 621a.10(d): "any wagers placed by the player shall be returned".
    if voided:
        return 0, 0, amount, 0
    # PA 621a.8(k) / NJ 10.7(k): 1 to 1, less 5% collected at the time of payout.
    if outcome is Outcome.WIN:
        return amount, 0, 0, vigorish(amount, rounding)
    # PA 621a.8(h) / NJ 10.7(i): a tie is returned.
    if outcome is Outcome.PUSH:
        return 0, 0, amount, 0
    # PA 621a.8(g) / NJ 10.7(h): a loss is collected.
    return 0, amount, 0, 0


def settle_dealer_banked(wagers: Iterable[Wager], rounding: VigRounding) -> RoundSettlement:
    """Settle a round the house banks through its dealer (PA 621a.8, NJ 19:47-10.7)."""
    lines = tuple(settle_wager(wager, rounding) for wager in check_wagers(wagers))
    return RoundSettlement(BankingMode.DEALER, lines)


def settle_voided_round(
    wagers: Iterable[Wager], mode: BankingMode = BankingMode.DEALER
) -> RoundSettlement:
    """Settle a round whose hands are all void: every wager goes back, nothing else moves.

    PA 621a.10(c),(e): "all hands shall be void, all wagers shall be returned to
    the players". Outcomes and flags are ignored, since no hand stands; a dealer
    wager simply goes back to the table inventory, and no collection fee is taken.

    >>> settle_voided_round([Wager(1, 500, Outcome.WIN)]).nets()
    {1: 0, 'bank': 0, 'house': 0}
    """
    if not isinstance(mode, BankingMode):
        raise InvalidSettlementError(f"invalid banking mode: {mode!r}")
    lines = tuple(SettlementLine(wager, returned=wager.amount) for wager in check_wagers(wagers))
    return RoundSettlement(mode, lines, voided=True)
