"""Paying and collecting the five wagers in integer cents (PA 681a.7(h)-(k), 681a.8).

- Player and Banker Wagers pay 1 to 1, "except when the Player's Hand or
  Banker's Hand wins with a 17 which shall pay at odds of 1 to 2" (681a.8(a)):
  any winning hand totalling 17, soft or hard, two cards or more, whether it
  beat a lower total or a hand over 21. A tie returns them (681a.7(i)(4), (j)(4)).
- The Tie Wager pays 10 to 1 (681a.8(b)).
- A Bonus Wager pays its hand's odds from the table's paytable (681a.8(c)).

The text does not say how to pay 1 to 2 on an odd number of cents. Like every
:class:`~audit.games.paigow.pair_fortunes.Odds` in the engines, a fraction of a
cent is rounded down: 1 to 2 on 101 cents pays 50.

Each :class:`Wager` settles to one :class:`SettlementLine`: a winner keeps the
wager and is ``paid`` the winnings, a loser's wager is ``collected``, a push is
``returned``. The house banks every wager, so what players gain the house loses
and :meth:`RoundSettlement.is_balanced` holds for every round.

>>> from audit.games.baccarat21.bonus import BONUS_PAYTABLES
>>> result = RoundResult(17, 23, BonusHand.PAIR, BonusHand.NOTHING)
>>> round_ = settle_round([Wager(1, Bet.PLAYER, 1001), Wager(1, Bet.BONUS_PLAYER, 500)],
...                       result, BONUS_PAYTABLES["A"])
>>> [(line.outcome.name, line.paid, line.collected) for line in round_.lines]
[('WIN', 500, 0), ('WIN', 1500, 0)]
>>> round_.nets()
{1: 2000, 'house': -2000}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from audit.games.baccarat21.bonus import BONUS_HANDS, BonusHand, BonusPaytable
from audit.games.baccarat21.drawing import Deal, Hand, RoundTally
from audit.games.baccarat21.outcome import Winner, hand_outcome, tie_outcome, winner
from audit.games.errors import InvalidSettlementError
from audit.games.money import Cents
from audit.games.wagering import HOUSE, Odds, Outcome, Party, Position, check_stake, dataclass_repr

MAIN_ODDS = Odds(1)
"""PA 681a.8(a): Player and Banker Wagers pay 1 to 1 ..."""
SEVENTEEN = 17
SEVENTEEN_ODDS = Odds(1, 2)
"""... "except when the Player's Hand or Banker's Hand wins with a 17" (681a.8(a))."""
TIE_ODDS = Odds(10)
"""PA 681a.8(b)."""


class Bet(Enum):
    """The five betting areas of each position (PA 681a.2(b)(2)-(6))."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    BONUS_PLAYER = "bonus_player"
    BONUS_BANKER = "bonus_banker"


MAIN_BETS = frozenset({Bet.PLAYER, Bet.BANKER})
"""PA 681a.6(c): a player takes part with a wager on either of these."""
BONUS_BETS = frozenset({Bet.BONUS_PLAYER, Bet.BONUS_BANKER})


@dataclass(frozen=True, repr=False)
class Wager:
    """A wager at a position: which betting area, and how many cents.

    >>> Wager(2, Bet.TIE, 500)
    Wager(position=2, bet=Bet.TIE, amount=500)
    """

    position: Position
    bet: Bet
    amount: Cents

    def __post_init__(self) -> None:
        if not isinstance(self.position, int) or isinstance(self.position, bool):
            raise InvalidSettlementError(f"position must be an int: {self.position!r}")
        if self.position < 0:
            raise InvalidSettlementError(f"position must not be negative: {self.position!r}")
        if not isinstance(self.bet, Bet):
            raise InvalidSettlementError(f"invalid bet: {self.bet!r}")
        check_stake(self.amount, f"{self.bet.value} wager at position {self.position}")

    __repr__ = dataclass_repr


@dataclass(frozen=True, repr=False)
class RoundResult:
    """What settlement needs from a dealt round: the two counting totals and Bonus hands.

    >>> RoundResult(20, 22, BonusHand.NOTHING, BonusHand.PAIR).winner
    <Winner.PLAYER: 'player'>
    """

    player_total: int
    banker_total: int
    player_bonus: BonusHand
    banker_bonus: BonusHand

    __repr__ = dataclass_repr

    @classmethod
    def from_deal(cls, deal: Deal) -> RoundResult:
        """Return the result of a dealt round (Bonus-only cards count for the Bonus alone)."""
        return cls(
            deal.player_total,
            deal.banker_total,
            deal.bonus_hand(Hand.PLAYER),
            deal.bonus_hand(Hand.BANKER),
        )

    @classmethod
    def from_tally(cls, tally: RoundTally) -> RoundResult:
        """Return the result of a round tallied by :func:`~.drawing.play_round`."""
        _, player, banker, player_bonus, banker_bonus = tally
        return cls(player, banker, BONUS_HANDS[player_bonus], BONUS_HANDS[banker_bonus])

    @property
    def winner(self) -> Winner:
        """Return which hand won the round, or a tie."""
        return winner(self.player_total, self.banker_total)


def wager_outcome(bet: Bet, result: RoundResult) -> Outcome:
    """Return how a wager on ``bet`` ends in a round with ``result`` (PA 681a.7(i)-(k))."""
    player, banker = result.player_total, result.banker_total
    if bet is Bet.PLAYER:
        return hand_outcome(player, banker)  # 681a.7(i)
    if bet is Bet.BANKER:
        return hand_outcome(banker, player)  # 681a.7(j)
    if bet is Bet.TIE:
        return tie_outcome(player, banker)  # 681a.7(k)(1)
    # 681a.7(k)(2)-(3): "a pair or better as described in § 681a.3(e)" wins.
    hand = result.player_bonus if bet is Bet.BONUS_PLAYER else result.banker_bonus
    return Outcome.LOSE if hand is BonusHand.NOTHING else Outcome.WIN


def winnings(bet: Bet, amount: Cents, result: RoundResult, paytable: BonusPaytable) -> Cents:
    """Return what a winning wager is paid beyond its own amount (PA 681a.8)."""
    if bet is Bet.PLAYER or bet is Bet.BANKER:
        total = result.player_total if bet is Bet.PLAYER else result.banker_total
        return (SEVENTEEN_ODDS if total == SEVENTEEN else MAIN_ODDS).pays(amount)  # 681a.8(a)
    if bet is Bet.TIE:
        return TIE_ODDS.pays(amount)  # 681a.8(b)
    hand = result.player_bonus if bet is Bet.BONUS_PLAYER else result.banker_bonus
    return paytable.pays(hand, amount)  # 681a.8(c)


@dataclass(frozen=True, repr=False)
class SettlementLine:
    """How one wager was settled: exactly one of ``paid``, ``collected`` and ``returned``
    is non-zero, by the outcome (a winner keeps its wager and is paid on top)."""

    wager: Wager
    outcome: Outcome
    paid: Cents = 0
    collected: Cents = 0
    returned: Cents = 0

    __repr__ = dataclass_repr

    @property
    def net(self) -> Cents:
        """Return the player's gain (positive) or loss (negative); the house has the opposite."""
        return self.paid - self.collected


def settle_wager(wager: Wager, result: RoundResult, paytable: BonusPaytable) -> SettlementLine:
    """Settle one wager against the house.

    >>> from audit.games.baccarat21.bonus import BONUS_PAYTABLES
    >>> result = RoundResult(21, 21, BonusHand.NOTHING, BonusHand.NOTHING)
    >>> settle_wager(Wager(1, Bet.TIE, 500), result, BONUS_PAYTABLES["D"])
    SettlementLine(wager=Wager(position=1, bet=Bet.TIE, amount=500), outcome=Outcome.WIN, paid=5000)
    """
    outcome = wager_outcome(wager.bet, result)
    if outcome is Outcome.WIN:
        paid = winnings(wager.bet, wager.amount, result, paytable)
        return SettlementLine(wager, outcome, paid=paid)
    if outcome is Outcome.PUSH:
        return SettlementLine(wager, outcome, returned=wager.amount)
    return SettlementLine(wager, outcome, collected=wager.amount)


@dataclass(frozen=True, repr=False)
class RoundSettlement:
    """A settled round: one line per wager, in the order settled."""

    result: RoundResult
    lines: tuple[SettlementLine, ...]

    __repr__ = dataclass_repr

    def nets(self) -> dict[Party, Cents]:
        """Return each position's gain or loss over its wagers, and the house's."""
        nets: dict[Party, Cents] = {}
        for line in self.lines:
            nets[line.wager.position] = nets.get(line.wager.position, 0) + line.net
        nets[HOUSE] = sum(line.collected - line.paid for line in self.lines)
        return nets

    def is_balanced(self) -> bool:
        """Return whether the nets sum to exactly 0: no money made or lost in the record."""
        return sum(self.nets().values()) == 0


def _check_wagers(wagers: Iterable[Wager]) -> tuple[Wager, ...]:
    result = tuple(wagers)
    seen: set[tuple[Position, Bet]] = set()
    for wager in result:
        if not isinstance(wager, Wager):
            raise InvalidSettlementError(f"not a wager: {wager!r}")
        spot = (wager.position, wager.bet)
        if spot in seen:
            raise InvalidSettlementError(f"two wagers on one betting area: {spot!r}")
        seen.add(spot)
    return result


def settle_round(
    wagers: Iterable[Wager], result: RoundResult, paytable: BonusPaytable
) -> RoundSettlement:
    """Settle every wager of a round against the house, in the order given.

    PA 681a.7(h) settles Player and Banker Wagers from the player farthest to the
    dealer's right, counterclockwise, then Tie and Bonus Wagers (681a.7(k)); the
    caller passes the wagers in that order, and the money is the same in any order.
    """
    if not isinstance(paytable, BonusPaytable):
        raise InvalidSettlementError(f"not a bonus paytable: {paytable!r}")
    lines = tuple(settle_wager(w, result, paytable) for w in _check_wagers(wagers))
    return RoundSettlement(result, lines)


def bonus_on_table(wagers: Iterable[Wager]) -> bool:
    """Return whether any player placed a Bonus Wager, which changes the deal (681a.7(f)(2))."""
    return any(w.bet in BONUS_BETS for w in wagers)


def positions_without_main_wager(wagers: Iterable[Wager]) -> list[Position]:
    """Return positions with a Tie or Bonus Wager but no Player or Banker Wager, which
    PA 681a.6(c)-(d) does not allow: the optional wagers are offered to "each player
    who placed a wager in accordance with subsection (c)".

    >>> positions_without_main_wager([Wager(1, Bet.TIE, 100), Wager(2, Bet.BANKER, 100)])
    [1]
    """
    placed = list(wagers)
    main = {w.position for w in placed if w.bet in MAIN_BETS}
    return sorted({w.position for w in placed} - main)


Stakes = tuple[Cents, Cents, Cents, Cents, Cents]
"""Amounts on Player, Banker, Tie, Bonus Player and Bonus Banker, in :class:`Bet` order."""

# For (player total, banker total): the Player Wager's, the Banker Wager's and the Tie Wager's
# settlement codes: 0 collect, 1 return, 2 pay 1 to 1, 3 pay 1 to 2.
_OUTCOME_CODE = {Outcome.LOSE: 0, Outcome.PUSH: 1, Outcome.WIN: 2}


def _main_code(own: int, other: int) -> int:
    code = _OUTCOME_CODE[hand_outcome(own, other)]
    return 3 if code == 2 and own == SEVENTEEN else code


_TOTAL_LIMIT = 32
_MAIN_CODES: tuple[tuple[int, int, bool], ...] = tuple(
    (_main_code(p, b), _main_code(b, p), p == b)
    for p in range(_TOTAL_LIMIT)
    for b in range(_TOTAL_LIMIT)
)


def house_net(tally: RoundTally, stakes: Stakes, paytable: BonusPaytable) -> Cents:
    """Return the house's gain (negative: its loss) on ``stakes`` in a tallied round.

    The simulator's hot path: the same money as :func:`settle_round`, on tables.
    A stake of 0 means no wager on that area.

    >>> from audit.games.baccarat21.bonus import BONUS_PAYTABLES
    >>> house_net((0, 17, 22, 4, 5), (1001, 1000, 100, 100, 100), BONUS_PAYTABLES["A"])
    400
    """
    _, player, banker, player_bonus, banker_bonus = tally
    on_player, on_banker, on_tie, on_bonus_player, on_bonus_banker = stakes
    player_code, banker_code, tied = _MAIN_CODES[player * _TOTAL_LIMIT + banker]
    net = 0
    for code, amount in ((player_code, on_player), (banker_code, on_banker)):
        if code == 0:
            net += amount
        elif code == 2:
            net -= amount
        elif code == 3:
            net -= amount // 2  # SEVENTEEN_ODDS, a fraction of a cent rounded down
    net += -TIE_ODDS.numerator * on_tie if tied else on_tie
    bonus_odds = paytable.odds
    for code, amount in ((player_bonus, on_bonus_player), (banker_bonus, on_bonus_banker)):
        hand = BONUS_HANDS[code]
        net += amount if hand is BonusHand.NOTHING else -bonus_odds[hand].pays(amount)
    return net
