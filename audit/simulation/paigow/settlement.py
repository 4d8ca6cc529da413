"""The round's end: the engine settles it, each position is revealed and paid, books close.

PA 621a.8(e)-(k), 621a.9(n)-(r), 621a.10(c), (e); NJ 19:47-10.7, 10.8;
California's coverage and collection fees.
"""

from __future__ import annotations

from audit.events.paigow.play import HandsRevealed
from audit.events.paigow.settlement import (
    BankShortfallCollected,
    BankSurplusSettled,
    CoBankSplit,
    CollectionFeeTaken,
    DealerWagerSettled,
    WagerSettled,
)
from audit.events.paigow.wagers import WagerKind
from audit.events.rounds import RoundCompleted
from audit.games.money import to_dollars
from audit.games.paigow.banking import settle_co_bank, settle_player_bank
from audit.games.paigow.california import settle_california
from audit.games.paigow.layout import Position
from audit.games.paigow.pair_fortunes import settle_pair_fortunes
from audit.games.paigow.settlement import (
    BANK,
    HOUSE,
    BankingMode,
    DealerWager,
    SettlementLine,
    Wager,
    settle_dealer_banked,
    settle_voided_round,
)
from audit.simulation.paigow.state import BANKED_MODES, RoundState


def settle_round(rnd: RoundState) -> None:
    """Settle every wager with the engine, in settlement order."""
    wagers = [
        Wager(p, rnd.wagers[p], surrendered=True)
        if p in rnd.surrendered
        else Wager(p, rnd.wagers[p], rnd.outcome(p))
        for p in rnd.order()
    ]
    if rnd.mode is BankingMode.DEALER:
        rnd.settlement = settle_dealer_banked(wagers, rnd.vig_rounding)
    elif rnd.mode is BankingMode.PLAYER_BANK:
        dealer_wager = None
        if rnd.dealer_wager:
            dealer_wager = DealerWager(rnd.dealer_wager, rnd.outcome(rnd.layout.dealer))
        rnd.settlement = settle_player_bank(wagers, rnd.vig_rounding, dealer_wager)
    elif rnd.mode is BankingMode.CO_BANK:
        rnd.settlement = settle_co_bank(wagers, rnd.vig_rounding)
    else:
        schedule = rnd.rule_set.collection_schedule
        rnd.settlement = settle_california(wagers, rnd.player_dealer_wager, schedule)
    paytable = rnd.rule_set.pair_fortunes
    if paytable is not None:
        for position, amount in rnd.pair_fortunes.items():
            result = settle_pair_fortunes(rnd.hands[position], amount, paytable)
            rnd.side_results[position] = result


def _emit_line(rnd: RoundState, line: SettlementLine) -> None:
    outcome = "surrendered" if line.outcome is None else line.outcome.value
    rnd.emit(
        WagerSettled,
        (1, 2.5),
        position=line.position,
        kind=WagerKind.PAI_GOW,
        outcome=outcome,
        paid=to_dollars(line.paid),
        collected=to_dollars(line.collected),
        vigorish=to_dollars(line.vigorish),
        returned=to_dollars(line.returned),
    )


def _emit_side_wager(rnd: RoundState, position: Position) -> None:
    result = rnd.side_results.get(position)
    if result is not None:
        rnd.emit(
            WagerSettled,
            (1, 3),
            position=position,
            kind=WagerKind.PAIR_FORTUNES,
            outcome="win" if result.paid else "lose",
            paid=to_dollars(result.paid),
            collected=to_dollars(result.collected),
        )


def reveal_and_settle(rnd: RoundState) -> None:
    """Collect surrendered wagers, reveal the bank's hand, then each player's in turn.

    PA 621a.8(e)-(j), 9(n)-(q): surrendered wagers are collected at once; a
    player bank's hands are exposed (and the dealer's wager against it decided)
    first; then each player's hands are revealed and their Pai Gow wager, then
    their Pair Fortunes wager, settled.
    """
    settlement = rnd.settlement
    if settlement is None:
        raise ValueError(f"round {rnd.round_id!r} was not settled")
    lines = {line.position: line for line in settlement.lines}
    for position in rnd.surrendered:
        _emit_line(rnd, lines[position])
    if rnd.mode is BankingMode.PLAYER_BANK or rnd.mode is BankingMode.CALIFORNIA:
        rnd.emit(HandsRevealed, (2, 5), position=rnd.banker_position)
    dealer_wager = settlement.dealer_wager
    if dealer_wager is not None:
        rnd.emit(
            DealerWagerSettled,
            (2, 4),
            outcome=dealer_wager.outcome.value,
            amount=to_dollars(abs(dealer_wager.result)),
        )
    for position in rnd.order():
        if position not in rnd.surrendered:
            rnd.emit(HandsRevealed, (1, 2.5), position=position)
            _emit_line(rnd, lines[position])
        _emit_side_wager(rnd, position)


def settle_bank(rnd: RoundState) -> None:
    """Record what a player bank or co-bank paid in or took out (PA 621a.9(o), (r))."""
    settlement = rnd.settlement
    if settlement is None or rnd.mode not in BANKED_MODES:
        return
    if rnd.mode is BankingMode.CO_BANK:
        rnd.emit(
            CoBankSplit,
            (3, 8),
            shortfall_from_co_bank=to_dollars(settlement.shortfall_from_bank),
            shortfall_from_house=to_dollars(settlement.shortfall_from_house),
            surplus_to_house=to_dollars(settlement.surplus_to_house),
            surplus_vigorish=to_dollars(settlement.surplus_vigorish),
            surplus_to_co_bank=to_dollars(settlement.surplus_to_bank),
        )
    elif settlement.shortfall_from_bank:
        rnd.emit(BankShortfallCollected, (3, 8), amount=to_dollars(settlement.shortfall_from_bank))
    elif settlement.surplus:
        rnd.emit(
            BankSurplusSettled,
            (3, 8),
            surplus=to_dollars(settlement.surplus),
            vigorish=to_dollars(settlement.surplus_vigorish),
            paid_to_bank=to_dollars(settlement.surplus_to_bank),
        )


def take_collection_fees(rnd: RoundState) -> None:
    """Take California's collection fees: each player's, then the player-dealer's."""
    settlement, schedule = rnd.settlement, rnd.rule_set.collection_schedule
    if settlement is None or schedule is None:
        return
    fees = [(line.position, line.fee) for line in settlement.lines]
    fees.append((rnd.layout.dealer, settlement.player_dealer_fee))
    for position, fee in fees:
        if fee:
            rnd.emit(
                CollectionFeeTaken,
                (1, 3),
                position=position,
                amount=to_dollars(fee),
                schedule_option=schedule.option,
            )


def return_wagers(rnd: RoundState) -> None:
    """Return every wager of a voided round (PA 621a.10(c), (e))."""
    settlement = settle_voided_round([Wager(p, rnd.wagers[p]) for p in rnd.order()], mode=rnd.mode)
    rnd.settlement = settlement
    lines = {line.position: line for line in settlement.lines}
    for position in rnd.order():
        line = lines[position]
        rnd.emit(
            WagerSettled,
            (1, 3),
            position=position,
            outcome="returned",
            returned=to_dollars(line.returned),
        )
        side = rnd.pair_fortunes.get(position)
        if side:
            rnd.emit(
                WagerSettled,
                (1, 3),
                position=position,
                kind=WagerKind.PAIR_FORTUNES,
                outcome="returned",
                returned=to_dollars(side),
            )


def complete_round(rnd: RoundState) -> None:
    """Collect the tiles and close the round."""
    rnd.emit(RoundCompleted, (3, 8))


def close_books(rnd: RoundState) -> None:
    """Move the chips and remember the round's banking for the next (no event)."""
    settlement = rnd.settlement
    books = rnd.table.books
    if settlement is not None:
        for party, net in settlement.nets().items():
            if isinstance(party, int):
                rnd.player(party).chips += net
            elif party == BANK and rnd.bank is not None:
                rnd.bank.chips += net
            elif party == HOUSE and books is not None:
                books.engine_win += net
    for position, result in rnd.side_results.items():
        rnd.player(position).chips += result.net
        if books is not None:
            books.engine_win -= result.net  # Pair Fortunes is always against the house
    dealer_round = None
    if rnd.mode is BankingMode.DEALER:
        dealer_round = {}
        for position in rnd.order():
            player = rnd.player(position)
            wager = rnd.wagers[position]
            dealer_round[player.player_id] = min(wager, dealer_round.get(player.player_id, wager))
    rnd.table.rotation.record(rnd.bank, rnd.bank_seat, dealer_round)
