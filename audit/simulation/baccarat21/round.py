"""One simulated 21 Baccarat round, in the order PA 681a.6-681a.7 plays it.

Wagers go down on each seated player's betting areas; the dealer deals Player,
Banker, Player, Banker and draws by :func:`~audit.games.baccarat21.drawing.next_card`,
card by card, so the cover card and a card found face up come out where they
fall; the engine settles every wager against the house; the books keep the
house's net.

Each step asks a :class:`Dealer`, which does what the rules say; a careless dealer
(:mod:`.careless`) overrides one step to go wrong there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from audit.events.baccarat21.play import B21CardDealt
from audit.events.baccarat21.shoe import CardFoundFaceUp, CoverCardAppeared
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved, B21WagerSettled
from audit.events.rounds import RoundCompleted, RoundStarted
from audit.games.baccarat21.drawing import Deal, DealtCard, DrawRule, NextCard, next_card
from audit.games.baccarat21.settlement import (
    MAIN_BETS,
    Bet,
    RoundResult,
    RoundSettlement,
    SettlementLine,
    Wager,
    bonus_on_table,
    settle_round,
)
from audit.games.cards.deck import card_name
from audit.games.money import to_dollars
from audit.games.wagering import HOUSE
from audit.simulation.baccarat21.table import DOLLAR, Player, SimTable

_BONUS_ON = {Bet.PLAYER: Bet.BONUS_PLAYER, Bet.BANKER: Bet.BONUS_BANKER}
_STEPS = (1, 1, 1, 1, 2, 2, 3, 5)
"""Multiples of a player's usual unit, as often as a player bets each."""


class Dealer:
    """How a round is dealt, step by step: as the rules say. A careless dealer overrides a step."""

    def holds_back(self, wager: Wager) -> bool:
        """Return whether ``wager`` goes down only after the first card (never, PA 681a.6(b))."""
        return False

    def takes_back(self, wager: Wager) -> Literal["before_first_card", "after_first_card"] | None:
        """Return when the player takes ``wager`` back unsettled (never, PA 681a.6(b))."""
        return None

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        """Return where the next card goes (PA 681a.7(e)-(g)), or None when the round is dealt."""
        return next_card(dealt, bonus, rule)

    def recorded_flag(self, step: NextCard) -> bool | None:
        """Return the ``bonus_only`` flag the device records for a card (the rules' own)."""
        return step.bonus_only

    def uses_face_up(self, index: int) -> bool:
        """Return whether card ``index``, found face up, is dealt anyway (never, 681a.9(a))."""
        return False

    def record(self, line: SettlementLine) -> SettlementLine:
        """Return a wager's settlement as paid and recorded (the engine's, PA 681a.8)."""
        return line

    def pays_again(self, line: SettlementLine) -> bool:
        """Return whether a settled line is paid a second time (never: each wager once)."""
        return False


RULES = Dealer()
"""The dealer who follows the rules."""


@dataclass(frozen=True)
class PlayedB21Round:
    """A round as played: its deal, the engine's settlement of it, and what was recorded."""

    round_id: str
    deal: Deal
    settlement: RoundSettlement
    recorded: tuple[SettlementLine, ...]


def settlement_order(wagers: list[Wager]) -> list[Wager]:
    """Return the wagers as PA 681a.7(h), (k) settle them: Player and Banker Wagers from the
    position farthest to the dealer's right (position 1) on, then Tie and Bonus Wagers."""
    return sorted(
        wagers, key=lambda w: (w.bet not in MAIN_BETS, w.position, list(Bet).index(w.bet))
    )


def _wagers(table: SimTable, player: Player) -> list[Wager]:
    """Return one player's wagers this round: a main wager always (681a.6(c)), and the player's
    usual Tie and Bonus Wagers while the chips last (681a.6(d))."""
    rng = table.rng
    main = min(player.unit * rng.choice(_STEPS), table.maximum)
    main = max(table.minimum, min(main, player.chips - player.chips % DOLLAR))
    left = player.chips - main
    wagers = [Wager(player.seat, player.backs, main)]
    for bet, amount in ((Bet.TIE, player.tie), (_BONUS_ON[player.backs], player.bonus)):
        if amount and amount <= left:
            wagers.append(Wager(player.seat, bet, amount))
            left -= amount
    return wagers


def _deal(
    table: SimTable,
    round_id: str,
    bonus: bool,
    dealer: Dealer,
    late: Sequence[Wager] = (),
    taken_back: Sequence[Wager] = (),
) -> Deal:
    """Deal the round card by card as the dealer directs, recording each card as it comes out;
    wagers held back go down, and wagers taken back late come off, after the first card."""
    shoe, rule = table.shoe, table.rule_set.draw_rule
    assert shoe is not None
    dealt: list[DealtCard] = []
    while (step := dealer.next_step(dealt, bonus, rule)) is not None:
        if table.out == shoe.cover_at and not table.cover_out:
            table.cover_out = True  # 681a.7(d): set aside; the round is completed
            table.emit_round(CoverCardAppeared, (1, 3), round_id)
        card = shoe.cards[table.out]
        table.out += 1
        found = table.rng.random() < table.rates.face_up_card
        if dealer.uses_face_up(len(dealt)):
            table.emit_round(CardFoundFaceUp, (2, 6), round_id, card=card_name(card),
                             disposition="dealt")  # fmt: skip
        elif found:
            table.emit_round(CardFoundFaceUp, (2, 6), round_id, card=card_name(card),
                             disposition="discarded")  # 681a.9(a)  # fmt: skip
            continue
        dealt.append(DealtCard(card, step.hand, step.bonus_only))
        table.emit_round(B21CardDealt, (1, 3), round_id, card=card_name(card), hand=step.hand,
                         bonus_only=dealer.recorded_flag(step))  # fmt: skip
        if len(dealt) == 1:
            _place(table, round_id, late)
            _take_back(table, round_id, taken_back)
    return Deal(tuple(dealt), bonus)


def _place(table: SimTable, round_id: str, wagers: Sequence[Wager]) -> None:
    players = {p.seat: p.player_id for p in table.seating.players}
    for wager in wagers:
        table.emit_round(B21WagerPlaced, (1, 4), round_id, position=wager.position,
                         bet=wager.bet, amount=to_dollars(wager.amount),
                         player_id=players[wager.position])  # fmt: skip


def _take_back(table: SimTable, round_id: str, wagers: Sequence[Wager]) -> None:
    players = {p.seat: p.player_id for p in table.seating.players}
    for wager in wagers:
        table.emit_round(B21WagerRemoved, (1, 4), round_id, position=wager.position,
                         bet=wager.bet, amount=to_dollars(wager.amount),
                         player_id=players[wager.position])  # fmt: skip


def _settle(
    table: SimTable, round_id: str, settlement: RoundSettlement, dealer: Dealer = RULES
) -> None:
    """Record and pay each line of ``settlement`` (the lines as the dealer records them)."""
    players = {p.seat: p for p in table.seating.players}
    for line in settlement.lines:
        again = dealer.pays_again(line)
        for _ in range(2 if again else 1):
            table.emit_round(
                B21WagerSettled, (1, 4), round_id, position=line.wager.position,
                bet=line.wager.bet, outcome=line.outcome.value, paid=to_dollars(line.paid),
                collected=to_dollars(line.collected), returned=to_dollars(line.returned),
            )  # fmt: skip
        if again:  # the chips really leave the tray a second time
            players[line.wager.position].chips += line.paid
    for party, net in settlement.nets().items():
        if party == HOUSE:
            if table.books is not None:
                table.books.engine_win += net
        else:
            players[int(party)].chips += net


def play_round(table: SimTable, dealer: Dealer = RULES) -> PlayedB21Round:
    """Play the table's next round as ``dealer`` deals it; the events go to the table's
    recorder."""
    table.rounds += 1
    round_id = f"{table.table_id}-{table.gaming_day:%Y%m%d}-{table.rounds:04d}"
    table.emit_round(RoundStarted, (5, 15), round_id, round_number=table.rounds,
                     dealer_id=table.dealer_id)  # fmt: skip
    wagers: list[Wager] = []
    late: list[Wager] = []
    for player in sorted(table.seating.players, key=lambda p: p.seat):
        for wager in _wagers(table, player):
            wagers.append(wager)
            if dealer.holds_back(wager):
                late.append(wager)
            else:
                _place(table, round_id, [wager])
    early = [w for w in wagers if dealer.takes_back(w) == "before_first_card"]
    _take_back(table, round_id, early)
    wagers = [w for w in wagers if w not in early]
    taken_back = [w for w in wagers if dealer.takes_back(w) == "after_first_card"]
    deal = _deal(table, round_id, bonus_on_table(wagers), dealer, late, taken_back)
    settled = [w for w in wagers if w not in taken_back]  # taken back, never settled
    settlement = settle_round(
        settlement_order(settled), RoundResult.from_deal(deal), table.rule_set.paytable
    )
    recorded = tuple(dealer.record(line) for line in settlement.lines)
    _settle(table, round_id, RoundSettlement(settlement.result, recorded), dealer)
    table.emit_round(RoundCompleted, (3, 8), round_id)
    return PlayedB21Round(round_id, deal, settlement, recorded)
