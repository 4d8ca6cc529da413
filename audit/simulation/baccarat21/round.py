"""One simulated 21 Baccarat round, in the order PA 681a.6-681a.7 plays it.

Wagers go down on each seated player's betting areas; the dealer deals Player,
Banker, Player, Banker and draws by :func:`~audit.games.baccarat21.drawing.next_card`,
card by card, so the cover card and a card found face up come out where they
fall; the engine settles every wager against the house; the books keep the
house's net.
"""

from __future__ import annotations

from audit.events.baccarat21.play import B21CardDealt
from audit.events.baccarat21.shoe import CardFoundFaceUp, CoverCardAppeared
from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerSettled
from audit.events.rounds import RoundCompleted, RoundStarted
from audit.games.baccarat21.cards import card_name
from audit.games.baccarat21.drawing import Deal, DealtCard, next_card
from audit.games.baccarat21.settlement import (
    MAIN_BETS,
    Bet,
    RoundResult,
    RoundSettlement,
    Wager,
    bonus_on_table,
    settle_round,
)
from audit.games.money import to_dollars
from audit.games.wagering import HOUSE
from audit.simulation.baccarat21.table import DOLLAR, B21Player, B21Table

_BONUS_ON = {Bet.PLAYER: Bet.BONUS_PLAYER, Bet.BANKER: Bet.BONUS_BANKER}
_STEPS = (1, 1, 1, 1, 2, 2, 3, 5)
"""Multiples of a player's usual unit, as often as a player bets each."""


def settlement_order(wagers: list[Wager]) -> list[Wager]:
    """Return the wagers as PA 681a.7(h), (k) settle them: Player and Banker Wagers from the
    position farthest to the dealer's right (position 1) on, then Tie and Bonus Wagers."""
    return sorted(
        wagers, key=lambda w: (w.bet not in MAIN_BETS, w.position, list(Bet).index(w.bet))
    )


def _wagers(table: B21Table, player: B21Player) -> list[Wager]:
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


def _deal(table: B21Table, round_id: str, bonus: bool) -> Deal:
    """Deal the round card by card as the engine directs, recording each card as it comes out."""
    shoe, rule = table.shoe, table.rule_set.draw_rule
    assert shoe is not None
    dealt: list[DealtCard] = []
    while (step := next_card(dealt, bonus, rule)) is not None:
        if table.out == shoe.cover_at and not table.cover_out:
            table.cover_out = True  # 681a.7(d): set aside; the round is completed
            table.emit_round(CoverCardAppeared, (1, 3), round_id)
        card = shoe.cards[table.out]
        table.out += 1
        if table.rng.random() < table.rates.face_up_card:
            table.emit_round(CardFoundFaceUp, (2, 6), round_id, card=card_name(card),
                             disposition="discarded")  # 681a.9(a)  # fmt: skip
            continue
        dealt.append(DealtCard(card, step.hand, step.bonus_only))
        table.emit_round(B21CardDealt, (1, 3), round_id, card=card_name(card), hand=step.hand,
                         bonus_only=step.bonus_only)  # fmt: skip
    return Deal(tuple(dealt), bonus)


def _settle(table: B21Table, round_id: str, settlement: RoundSettlement) -> None:
    for line in settlement.lines:
        table.emit_round(
            B21WagerSettled, (1, 4), round_id, position=line.wager.position, bet=line.wager.bet,
            outcome=line.outcome.value, paid=to_dollars(line.paid),
            collected=to_dollars(line.collected), returned=to_dollars(line.returned),
        )  # fmt: skip
    players = {p.seat: p for p in table.seating.players}
    for party, net in settlement.nets().items():
        if party == HOUSE:
            if table.books is not None:
                table.books.engine_win += net
        else:
            players[int(party)].chips += net


def play_b21_round(table: B21Table) -> RoundSettlement:
    """Play the table's next round; the events go to the table's recorder."""
    table.rounds += 1
    round_id = f"{table.table_id}-{table.gaming_day:%Y%m%d}-{table.rounds:04d}"
    table.emit_round(RoundStarted, (5, 15), round_id, round_number=table.rounds,
                     dealer_id=table.dealer_id)  # fmt: skip
    wagers: list[Wager] = []
    for player in sorted(table.seating.players, key=lambda p: p.seat):
        for wager in _wagers(table, player):
            wagers.append(wager)
            table.emit_round(B21WagerPlaced, (1, 4), round_id, position=wager.position,
                             bet=wager.bet, amount=to_dollars(wager.amount),
                             player_id=player.player_id)  # fmt: skip
    deal = _deal(table, round_id, bonus_on_table(wagers))
    settlement = settle_round(
        settlement_order(wagers), RoundResult.from_deal(deal), table.rule_set.paytable
    )
    _settle(table, round_id, settlement)
    table.emit_round(RoundCompleted, (3, 8), round_id)
    return settlement
