"""California player-dealer rounds: coverage limited to the player-dealer's own wager.

The CA text: the player-dealer "can only receive action on the amount wagered and
cannot win or lose more than their original wager"; "Wagers are collected or paid,
to the extent that the player-dealer's wager covers. Once the player-dealer's wager
has been exhausted, the wagers not covered by the player-dealer shall be returned."

So the player-dealer's wager is the action it can take, not a running total of its
result. Wagers are settled seat to seat, clockwise from the action button; each
takes as much of the remaining coverage as its amount, whatever its result, and
is settled on that covered part; the rest is returned. A won wager does not give
coverage back for the next. Readings where the text is silent (docs/rules.md):

- a push takes coverage like any wager in action: it was covered, and pushed;
- a voided hand's wager never was in action and takes none.

Coverage runs out part-way round the table below (amounts in cents): seat 2 is
covered for only $20 of its $40, which exhausts the player-dealer's $50, so seat
3's win and seat 4's loss are both returned whole.

>>> round_ = settle_california(
...     [Wager(1, 3000, Outcome.WIN), Wager(2, 4000, Outcome.WIN),
...      Wager(3, 1000, Outcome.WIN), Wager(4, 2000, Outcome.LOSE)],
...     player_dealer_wager=5000,
... )
>>> [(line.covered, line.returned) for line in round_.lines]
[(3000, 0), (2000, 2000), (0, 1000), (0, 2000)]
>>> round_.nets()
{1: 3000, 2: 2000, 3: 0, 4: 0, 'bank': -5000, 'house': 0}

A loss takes coverage too: the player-dealer's $50 covers seat 3's losing $50, and
nothing of seat 2's winning $100, which is returned (a running total would have
paid seat 2 $100, action of $150 on a $50 wager).

>>> round_ = settle_california(
...     [Wager(3, 5000, Outcome.LOSE), Wager(2, 10000, Outcome.WIN)], player_dealer_wager=5000
... )
>>> [(line.collected, line.paid, line.returned) for line in round_.lines]
[(5000, 0, 0), (0, 0, 10000)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents, check_amount
from audit.games.paigow.collection import CollectionSchedule, collection_fees
from audit.games.paigow.settlement import (
    BankingMode,
    RoundSettlement,
    SettlementLine,
    Wager,
    check_wagers,
)
from audit.games.wagering import Outcome


def coverage_taken(wager: Wager, coverage_left: Cents) -> Cents:
    """Return how much of the player-dealer's remaining coverage ``wager`` takes.

    >>> coverage_taken(Wager(1, 4000, Outcome.PUSH), 2500), coverage_taken(Wager(1, 4000), 0)
    (2500, 0)
    """
    return 0 if wager.voided else min(wager.amount, coverage_left)


def _cover(wager: Wager, covered: Cents) -> SettlementLine:
    """Settle one wager on its ``covered`` part; the rest is returned."""
    uncovered = wager.amount - covered
    if wager.voided or wager.outcome is Outcome.PUSH or covered == 0:
        return SettlementLine(wager, returned=wager.amount)
    # CA: "Wagers are collected or paid, to the extent that the player-dealer's
    # wager covers", and the uncovered part is "returned to the respective players".
    if wager.outcome is Outcome.LOSE:
        return SettlementLine(wager, collected=covered, returned=uncovered)
    if wager.outcome is Outcome.WIN:
        return SettlementLine(wager, paid=covered, returned=uncovered)
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
    # CA: the player-dealer "can only receive action on the amount wagered".
    coverage_left = player_dealer_wager
    lines: list[SettlementLine] = []
    for wager in wagers:
        covered = coverage_taken(wager, coverage_left)
        coverage_left -= covered
        lines.append(_cover(wager, covered))
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
