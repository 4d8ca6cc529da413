"""Player-banked and co-banked rounds: settling through the centre of the layout.

A player bank (PA 621a.9(h),(n)-(q), NJ 19:47-10.8(h),(n)-(r)) pays winners out
of the losing wagers in the centre and puts in the rest itself; a surplus pays
5% vigorish and goes to the bank. Co-banking (PA 621a.9(e),(r), NJ 10.8(e),(p))
splits the pay-in and the surplus half and half with the house. Either way each
winning player pays the house 5% vigorish.

>>> from audit.games.paigow.vigorish import VigRounding
>>> round_ = settle_player_bank(
...     [Wager(1, 1000, Outcome.LOSE), Wager(2, 3000, Outcome.WIN), Wager(3, 500, Outcome.WIN)],
...     VigRounding.CENT,
... )
>>> for payment in round_.payments:
...     print(payment)
CentrePayment(payee=2, from_centre=1000, from_pay_in=2000)
CentrePayment(payee=3, from_centre=0, from_pay_in=500)
>>> round_.shortfall_from_bank, round_.nets()
(2500, {1: -1000, 2: 2850, 3: 475, 'bank': -2500, 'house': 175})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents, ceil_div, check_amount
from audit.games.paigow.settlement import (
    DEALER,
    BankingMode,
    CentrePayment,
    DealerWager,
    RoundSettlement,
    SettlementLine,
    Wager,
    check_wagers,
    settle_wager,
)
from audit.games.paigow.vigorish import VigRounding, vigorish
from audit.games.wagering import Outcome, Position


def dealer_wager_limit(banks_last_wager: Cents) -> Cents:
    """Return the most the dealer may wager against a player bank.

    PA 621a.9(h) / NJ 10.8(h): the dealer wagers the bank's last wager against the
    dealer (or an amount the house's approved rules compute instead; pass that as
    ``banks_last_wager``), and the bank may direct a lesser amount or none.

    >>> dealer_wager_limit(2500)
    2500
    """
    return check_amount(banks_last_wager, "bank's last wager against the dealer")


def is_dealer_wager_allowed(amount: Cents, banks_last_wager: Cents) -> bool:
    """Return whether a dealer wager of ``amount`` is within :func:`dealer_wager_limit`.

    >>> is_dealer_wager_allowed(3000, 2500)
    False
    """
    return check_amount(amount, "dealer wager") <= dealer_wager_limit(banks_last_wager)


class CentreFlows(NamedTuple):
    """What a round settled through the centre moves besides the wagers, in cents.

    The names are :class:`RoundSettlement`'s; a flow a banking mode does not use stays 0.
    """

    shortfall_from_bank: Cents = 0
    shortfall_from_house: Cents = 0
    surplus: Cents = 0
    surplus_to_house: Cents = 0
    surplus_vigorish: Cents = 0
    surplus_to_bank: Cents = 0


def centre_totals(
    collected: Cents, paid: Cents, dealer_wager: DealerWager | None = None
) -> tuple[Cents, Cents]:
    """Return what the centre takes in and what it owes its winners, in cents.

    PA 621a.9(n), (o): the players' losing (and surrendered) wagers, ``collected``, and a
    losing dealer wager go into the centre; it owes the players' payouts, ``paid``, and a
    winning dealer wager.

    >>> centre_totals(4000, 2500, DealerWager(1000, Outcome.WIN))
    (4000, 3500)
    """
    if dealer_wager is not None and not isinstance(dealer_wager, DealerWager):
        raise InvalidSettlementError(f"not a dealer wager: {dealer_wager!r}")
    if dealer_wager is not None and dealer_wager.outcome is Outcome.LOSE:
        collected += dealer_wager.amount
    elif dealer_wager is not None and dealer_wager.outcome is Outcome.WIN:
        paid += dealer_wager.amount
    return collected, paid


def _centre_result(taken_in: Cents, owed: Cents) -> tuple[Cents, Cents]:
    """Return the pay-in and the surplus of a centre that took in ``taken_in`` and owes ``owed``.

    PA 621a.9(o): winners are paid from the centre until it is exhausted, the rest from the
    pay-in. Whatever order they are paid in, the pay-in is what the centre lacks and the
    surplus what it has left: the order moves money between the two, never the totals.
    """
    shortfall = max(owed - taken_in, 0)
    return shortfall, taken_in + shortfall - owed


def _surplus_vigorish(surplus: Cents, rounding: VigRounding) -> Cents:
    # The vigorish is charged on the surplus and paid out of it; a quarter rounded up
    # from a surplus under 25¢ cannot exceed the surplus itself.
    return min(vigorish(surplus, rounding), surplus)


def player_bank_flows(taken_in: Cents, owed: Cents, rounding: VigRounding) -> CentreFlows:
    """Return a player bank's flows, for a centre that took in ``taken_in`` and owes ``owed``.

    ``taken_in`` is the losing wagers (a surrender's, and a losing dealer wager, included),
    ``owed`` the winners' payouts (a winning dealer wager's included).

    >>> player_bank_flows(2000, 3500, VigRounding.CENT).shortfall_from_bank
    1500
    >>> flows = player_bank_flows(3500, 1500, VigRounding.QUARTER)
    >>> flows.shortfall_from_bank, flows.surplus, flows.surplus_vigorish, flows.surplus_to_bank
    (0, 2000, 100, 1900)
    """
    shortfall, surplus = _centre_result(taken_in, owed)
    # PA 621a.9(o): the surplus "shall be charged a 5% vigorish ... the remaining amount
    # shall be given to the bank".
    surplus_vigorish = _surplus_vigorish(surplus, rounding)
    return CentreFlows(
        shortfall_from_bank=shortfall,
        surplus=surplus,
        surplus_vigorish=surplus_vigorish,
        surplus_to_bank=surplus - surplus_vigorish,
    )


def co_bank_flows(taken_in: Cents, owed: Cents, rounding: VigRounding) -> CentreFlows:
    """Return a co-bank's flows, for a centre that took in ``taken_in`` and owes ``owed``.

    The texts halve the pay-in and the surplus without saying where an odd cent goes; we
    give it to the house: the co-bank pays the larger half of a shortfall and the house
    takes the larger half of a surplus.

    >>> flows = co_bank_flows(1001, 0, VigRounding.CENT)
    >>> flows.surplus_to_house, flows.surplus_vigorish, flows.surplus_to_bank
    (501, 25, 475)
    """
    shortfall, surplus = _centre_result(taken_in, owed)
    # PA 621a.9(r): 1/2 of the remaining winning wagers from the co-bank, 1/2 from the
    # table inventory.
    from_co_bank = ceil_div(shortfall, 2)
    # PA 621a.9(r): 1/2 of the surplus into the table inventory, 5% vigorish on the
    # remaining amount, the rest to the co-bank.
    to_house = ceil_div(surplus, 2)
    surplus_vigorish = _surplus_vigorish(surplus - to_house, rounding)
    return CentreFlows(
        shortfall_from_bank=from_co_bank,
        shortfall_from_house=shortfall - from_co_bank,
        surplus=surplus,
        surplus_to_house=to_house,
        surplus_vigorish=surplus_vigorish,
        surplus_to_bank=surplus - to_house - surplus_vigorish,
    )


def _pay_from_centre(
    centre: Cents, winners: Sequence[tuple[Position | str, Cents]]
) -> tuple[CentrePayment, ...]:
    """Pay winners in order from ``centre``: what each takes from it and from the pay-in.

    A winner reached as the centre runs out is paid partly from it and partly from
    the pay-in: "the remaining winning wagers" of 9(o) are what is still owed.
    """
    payments: list[CentrePayment] = []
    for payee, amount in winners:
        from_centre = min(centre, amount)
        centre -= from_centre
        payments.append(CentrePayment(payee, from_centre, amount - from_centre))
    return tuple(payments)


def _settle_through_centre(
    wagers: Iterable[Wager], rounding: VigRounding, dealer_wager: DealerWager | None
) -> tuple[tuple[SettlementLine, ...], tuple[CentrePayment, ...], Cents, Cents]:
    """Settle the wagers through the centre; return the lines, the payments, what the centre
    took in and what it owes."""
    if dealer_wager is not None and not isinstance(dealer_wager, DealerWager):
        raise InvalidSettlementError(f"not a dealer wager: {dealer_wager!r}")
    # Each winning player pays 5% to the house: PA 621a.9(q) / NJ 10.8(r).
    lines = tuple(settle_wager(wager, rounding) for wager in check_wagers(wagers))
    collected = sum(line.collected for line in lines)
    taken_in, owed = centre_totals(collected, sum(line.paid for line in lines), dealer_wager)
    winners: list[tuple[Position | str, Cents]] = []
    if dealer_wager is not None and dealer_wager.outcome is Outcome.WIN:
        # Its outcome is decided first (9(n)), so we pay it first; no vigorish (9(q)).
        winners.append((DEALER, dealer_wager.amount))
    winners += [(line.position, line.paid) for line in lines if line.paid]
    # PA 621a.9(o): "If this amount becomes exhausted ... collect from the bank".
    return lines, _pay_from_centre(taken_in, winners), taken_in, owed


def settle_player_bank(
    wagers: Iterable[Wager],
    rounding: VigRounding,
    dealer_wager: DealerWager | None = None,
) -> RoundSettlement:
    """Settle a round banked by a player, with an optional dealer wager against the bank.

    ``wagers`` come in settlement order (PA 621a.9(o): from the dealer's right,
    counterclockwise). The dealer's wager is settled as wagered, whatever
    :func:`is_dealer_wager_allowed` says.
    """
    lines, payments, taken_in, owed = _settle_through_centre(wagers, rounding, dealer_wager)
    flows = player_bank_flows(taken_in, owed, rounding)
    return RoundSettlement(
        BankingMode.PLAYER_BANK,
        lines,
        dealer_wager=dealer_wager,
        payments=payments,
        **flows._asdict(),
    )


def settle_co_bank(
    wagers: Iterable[Wager],
    rounding: VigRounding,
    dealer_wager: DealerWager | None = None,
) -> RoundSettlement:
    """Settle a round co-banked 50/50 by a player and the house (flows: :func:`co_bank_flows`).

    >>> from audit.games.paigow.vigorish import VigRounding
    >>> round_ = settle_co_bank([Wager(1, 1001, Outcome.LOSE)], VigRounding.CENT)
    >>> round_.surplus_to_house, round_.surplus_vigorish, round_.surplus_to_bank
    (501, 25, 475)
    """
    # PA 621a.9(e),(h) / NJ 10.8(e),(h): "When co-banking is in effect, the dealer may
    # not place a wager against the bank."
    if dealer_wager is not None:
        raise InvalidSettlementError(f"co-banking allows no dealer wager: {dealer_wager!r}")
    lines, payments, taken_in, owed = _settle_through_centre(wagers, rounding, None)
    flows = co_bank_flows(taken_in, owed, rounding)
    return RoundSettlement(BankingMode.CO_BANK, lines, payments=payments, **flows._asdict())
