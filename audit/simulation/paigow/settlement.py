"""The round's end: the engine settles it, each position is revealed and paid, books close.

PA 621a.8(e)-(k), 621a.9(n)-(r), 621a.10(c), (e); NJ 19:47-10.7, 10.8;
California's coverage and collection fees.
"""

from __future__ import annotations

from audit.events.paigow.play import HandsRevealed, Surrendered
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
from audit.games.money import Cents, to_dollars
from audit.games.paigow.banking import settle_co_bank, settle_player_bank
from audit.games.paigow.california import settle_california
from audit.games.paigow.layout import Position
from audit.games.paigow.pair_fortunes import settle_pair_fortunes
from audit.games.paigow.settlement import (
    BANK,
    BankingMode,
    DealerWager,
    RoundSettlement,
    Wager,
    settle_dealer_banked,
    settle_voided_round,
)
from audit.games.wagering import HOUSE, Outcome
from audit.simulation.paigow.dealer import Dealer, LineRecord, SideRecord
from audit.simulation.paigow.state import BANKED_MODES, RoundState


def settle_wagers(rnd: RoundState, dealer: Dealer) -> RoundSettlement:
    """Return the engine's settlement of the round's Pai Gow wagers on the outcomes and in the
    order ``dealer`` settles them (the hands' and settlement order, for the rules' dealer)."""

    def outcome(position: Position) -> Outcome:
        return dealer.outcome(position, rnd.outcome(position))

    wagers = [
        Wager(p, rnd.wagers[p], surrendered=True)
        if p in rnd.surrendered
        else Wager(p, rnd.wagers[p], outcome(p))
        for p in dealer.settlement_order(rnd.order())
    ]
    if rnd.mode is BankingMode.DEALER:
        return settle_dealer_banked(wagers, rnd.vig_rounding)
    if rnd.mode is BankingMode.PLAYER_BANK:
        dealer_wager = None
        if rnd.dealer_wager:
            dealer_wager = DealerWager(rnd.dealer_wager, outcome(rnd.layout.dealer))
        return settle_player_bank(wagers, rnd.vig_rounding, dealer_wager)
    if rnd.mode is BankingMode.CO_BANK:
        return settle_co_bank(wagers, rnd.vig_rounding)
    schedule = rnd.rule_set.collection_schedule
    return settle_california(wagers, rnd.player_dealer_wager, schedule)


def settle_round(rnd: RoundState) -> None:
    """Settle every wager with the engine, in settlement order, as the round's dealer does."""
    rnd.settlement = settle_wagers(rnd, rnd.dealer)
    paytable = rnd.rule_set.pair_fortunes
    if paytable is not None:
        for position, amount in rnd.pair_fortunes.items():
            result = settle_pair_fortunes(rnd.hands[position], amount, paytable)
            rnd.side_results[position] = result


def _emit_record(rnd: RoundState, position: Position, record: LineRecord) -> None:
    rnd.emit(
        WagerSettled,
        (1, 2.5),
        position=position,
        kind=WagerKind.PAI_GOW,
        outcome=record.outcome,
        paid=to_dollars(record.paid),
        collected=to_dollars(record.collected),
        vigorish=to_dollars(record.vigorish),
        returned=to_dollars(record.returned),
    )


def _emit_side_wager(rnd: RoundState, position: Position) -> None:
    result = rnd.side_results.get(position)
    if result is None:
        return
    paytable = SideRecord("win" if result.paid else "lose", result.paid, result.collected)
    record = rnd.dealer.side_record(position, paytable)
    rnd.emit(
        WagerSettled,
        (1, 3),
        position=position,
        kind=WagerKind.PAIR_FORTUNES,
        outcome=record.outcome,
        paid=to_dollars(record.paid),
        collected=to_dollars(record.collected),
    )


def reveal_and_settle(rnd: RoundState) -> None:
    """Collect surrendered wagers, reveal the bank's hand, then each player's in turn.

    PA 621a.8(e)-(j), 9(n)-(q): surrendered wagers are collected at once; a
    player bank's hands are exposed (and the dealer's wager against it decided)
    first; then each player's hands are revealed and their Pai Gow wager, then
    their Pair Fortunes wager, settled.
    """
    settlement, dealer = rnd.settlement, rnd.dealer
    if settlement is None:
        raise ValueError(f"round {rnd.round_id!r} was not settled")
    lines = {line.position: line for line in settlement.lines}

    def settle(position: Position) -> None:
        _emit_record(rnd, position, dealer.record(lines[position]))

    for position in rnd.surrendered:
        if not dealer.surrenders_late(position):
            settle(position)
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
    for position in dealer.settlement_order(rnd.order()):
        if dealer.surrenders_late(position):  # a careless dealer's: surrendered once revealed
            rnd.emit(HandsRevealed, (1, 2.5), position=position)
            rnd.emit(Surrendered, (2, 5), position=position)
            settle(position)
        elif position not in rnd.surrendered:
            rnd.emit(HandsRevealed, (1, 2.5), position=position)
            settle(position)
        _emit_side_wager(rnd, position)


def settle_bank(rnd: RoundState) -> None:
    """Record what a player bank or co-bank paid in or took out (PA 621a.9(o), (r))."""
    if rnd.settlement is None or rnd.mode not in BANKED_MODES:
        return
    settlement = rnd.dealer.bank_flows(rnd.settlement)
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
    for position, owed in fees:
        fee = rnd.dealer.fee(position, owed)
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
    dealer_round: dict[str, Cents] | None = None
    if rnd.mode is BankingMode.DEALER:
        dealer_round = {}
        for position in rnd.order():
            player = rnd.player(position)
            wager = rnd.wagers[position]
            dealer_round[player.player_id] = min(wager, dealer_round.get(player.player_id, wager))
    rnd.table.rotation.record(rnd.bank, rnd.bank_seat, dealer_round)
