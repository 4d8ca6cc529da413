"""California player-dealer rounds: coverage limited to the player-dealer's own wager.

The CA text: "The player-dealer shall collect all losing wagers, pay all winning
wagers, and may not win or lose more than the original amount wagered. Once the
player-dealer's wager has been exhausted, the wagers not covered by the
player-dealer shall be returned." Wagers are settled seat to seat, clockwise from
the action button; each is covered as far as the player-dealer can still win
(a loser) or still lose (a winner) at its turn, and the rest is returned. Once
the player-dealer has lost its whole wager it is exhausted, and every later
wager, winner or loser, is returned. There is no vigorish; the house takes only
collection fees (:mod:`.collection`).

Coverage runs out part-way round the table below (amounts in cents): seat 2 is
paid only $20 of its $40, which exhausts the player-dealer's $50, so seat 3's
win and seat 4's loss are both returned whole.

>>> round_ = settle_california(
...     [Wager(1, 3000, Outcome.WIN), Wager(2, 4000, Outcome.WIN),
...      Wager(3, 1000, Outcome.WIN), Wager(4, 2000, Outcome.LOSE)],
...     player_dealer_wager=5000,
... )
>>> [(line.covered, line.returned) for line in round_.lines]
[(3000, 0), (2000, 2000), (0, 1000), (0, 2000)]
>>> round_.nets()
{1: 3000, 2: 2000, 3: 0, 4: 0, 'bank': -5000, 'house': 0}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents, check_amount
from audit.games.paigow.collection import CollectionSchedule, collection_fees
from audit.games.paigow.outcome import Outcome
from audit.games.paigow.settlement import (
    BankingMode,
    RoundSettlement,
    SettlementLine,
    Wager,
    check_wagers,
)


def _cover(wager: Wager, can_win: Cents, can_lose: Cents) -> SettlementLine:
    """Settle one wager against what the player-dealer can still win and still lose."""
    if wager.voided or wager.outcome is Outcome.PUSH or can_lose == 0:
        # can_lose == 0: the player-dealer's wager is exhausted, so nothing more is covered.
        return SettlementLine(wager, returned=wager.amount)
    # CA: "Wagers are collected or paid, to the extent that the player-dealer's
    # wager covers", and the uncovered part is "returned to the respective players".
    if wager.outcome is Outcome.LOSE:
        collected = min(wager.amount, can_win)
        return SettlementLine(wager, collected=collected, returned=wager.amount - collected)
    if wager.outcome is Outcome.WIN:
        paid = min(wager.amount, can_lose)
        return SettlementLine(wager, paid=paid, returned=wager.amount - paid)
    raise InvalidSettlementError(f"a played wager needs an outcome: {wager!r}")


def settle_california(
    wagers: Iterable[Wager],
    player_dealer_wager: Cents,
    schedule: CollectionSchedule | None = None,
    bonus_action: Cents = 0,
) -> RoundSettlement:
    """Settle a California round; ``wagers`` in order, clockwise from the action button.

    ``schedule`` adds the collection fees (house revenue), ``bonus_action`` being
    the players' bonus wagers that count towards an option 6-10 table action.
    Fees are taken on every wager placed, a voided one included, since the text
    ties them to the wager placed, not to its result.

    >>> from audit.games.paigow.collection import COLLECTION_SCHEDULES
    >>> round_ = settle_california(
    ...     [Wager(1, 10000, Outcome.LOSE), Wager(2, 10000, Outcome.LOSE)], 15000,
    ...     COLLECTION_SCHEDULES[1],
    ... )
    >>> [(line.collected, line.returned, line.fee) for line in round_.lines]
    [(10000, 0, 100), (5000, 5000, 100)]
    >>> round_.nets()
    {1: -10100, 2: -5100, 'bank': 14900, 'house': 300}
    """
    wagers = check_wagers(wagers)
    check_amount(player_dealer_wager, "player-dealer wager")
    for wager in wagers:
        # The CA text has no surrender; a surrendered wager here is a wrong input.
        if wager.surrendered:
            raise InvalidSettlementError(f"california play has no surrender: {wager!r}")
    result = 0  # the player-dealer's running win (positive) or loss (negative)
    lines: list[SettlementLine] = []
    for wager in wagers:
        # CA: the player-dealer "may not win or lose more than the original amount wagered".
        line = _cover(wager, player_dealer_wager - result, player_dealer_wager + result)
        result += line.collected - line.paid
        lines.append(line)
    player_dealer_fee = 0
    if schedule is not None:
        fees, player_dealer_fee = collection_fees(
            schedule, [wager.amount for wager in wagers], bonus_action
        )
        lines = [replace(line, fee=fee) for line, fee in zip(lines, fees, strict=True)]
    return RoundSettlement(
        BankingMode.CALIFORNIA,
        tuple(lines),
        player_dealer_wager=player_dealer_wager,
        player_dealer_fee=player_dealer_fee,
    )
