"""The round up to "no more bets": tiles mixed and stacked, the bank, the cut and the wagers.

PA 621a.4(d), 621a.5, 621a.9(b)-(h); NJ 19:47-10.4, 10.5, 10.8(b)-(h); and
California's player-dealer, who banks every round.
"""

from __future__ import annotations

from audit.events.paigow.play import (
    BankAccepted,
    BankDeclined,
    BankOffered,
    CoBankRequested,
    NoMoreBets,
    StacksFormed,
    TilesCut,
    TilesMixed,
)
from audit.events.paigow.wagers import DealerWagerAgainstBank, WagerKind, WagerPlaced
from audit.events.rounds import RoundStarted
from audit.games.money import Cents, to_dollars
from audit.games.paigow.banking import dealer_wager_limit
from audit.games.paigow.dealing import all_cuts
from audit.games.paigow.delivery import form_stacks
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.tiles import TILES
from audit.simulation.paigow.bank_rotation import (
    Offer,
    next_first_offer,
    offer_bank,
    player_dealer_offers,
)
from audit.simulation.paigow.players import (
    DOLLAR,
    RESERVE,
    Player,
    pai_gow_wager,
    pair_fortunes_wager,
    whole_dollars,
)
from audit.simulation.paigow.state import BANKED_MODES, RoundState, tile_names

_COVER_FACTORS = (0.5, 0.75, 1.0, 1.0, 1.0, 1.5)
"""How much of the table a California player-dealer's wager covers, as often as each."""


# --- The tiles ---------------------------------------------------------------------------------


def start_round(rnd: RoundState) -> None:
    """Start the round."""
    rnd.emit(RoundStarted, (1, 4), round_number=rnd.number, dealer_id=rnd.table.dealer_id)


def mix_tiles(rnd: RoundState) -> None:
    """Mix the tiles face down, at least eight circular motions (PA 621a.4(d))."""
    rnd.emit(TilesMixed, (6, 12), motions=rnd.rng.randint(8, 14))


def stack_tiles(rnd: RoundState) -> None:
    """Form eight stacks of four from a random order of the 32 tiles (PA 621a.4(d))."""
    row = list(TILES)
    rnd.rng.shuffle(row)
    rnd.stacks = form_stacks(row)
    shown = rnd.dealer.shown_stacks(rnd.stacks)
    rnd.emit(StacksFormed, (4, 8), stacks=[tile_names(stack) for stack in shown])


# --- The bank ----------------------------------------------------------------------------------


def plan_wagers(rnd: RoundState) -> None:
    """Decide each occupied spot's Pai Gow wager (the bank's is dropped when it banks)."""
    table = rnd.table
    rnd.planned = {
        spot: pai_gow_wager(player, table.limits, rnd.rng)
        for spot, player in table.seating.spots().items()
    }


def _emit_offers(rnd: RoundState, offers: list[Offer]) -> Player | None:
    """Emit the offers; return the player who accepted, if one did."""
    for position, player, accepted in offers:
        rnd.emit(BankOffered, (1, 3), position=position)
        if accepted:
            rnd.emit(
                BankAccepted,
                (1, 3),
                position=position,
                player_id=player.player_id,
                chips_on_table=to_dollars(player.chips),
            )
            rnd.bank, rnd.bank_seat = player, position
            return player
        rnd.emit(BankDeclined, (1, 2), position=position)
    return None


def select_bank(rnd: RoundState) -> None:
    """Offer the bank (PA 621a.9(b)-(e)); at a California table, settle the player-dealer."""
    table, rule_set = rnd.table, rnd.rule_set
    rotation = table.rotation
    if table.has_player_dealer:
        offers = player_dealer_offers(
            table.seating,
            rnd.layout,
            rotation,
            rule_set.max_consecutive_banks,
            table.limits.minimum + RESERVE,
            rnd.freq,
            rnd.rng,
        )
        rnd.mode = BankingMode.CALIFORNIA
        if _emit_offers(rnd, offers) is None:
            holder = next(p for p in table.seating.players if p.player_id == rotation.last_bank)
            rnd.bank, rnd.bank_seat = holder, holder.spots[0]
        return
    if (
        not rule_set.player_banking
        or rotation.rounds_in_game == 0  # PA 621a.9(b): not at the start of the game
        or len(table.seating.players) < 2
    ):
        return
    offers = offer_bank(
        table.seating,
        rnd.layout,
        rotation,
        rule_set.max_consecutive_banks,
        rnd.planned,
        rnd.freq,
        rnd.rng,
    )
    bank = _emit_offers(rnd, offers)
    if bank is None or rnd.bank_seat is None:
        return
    rnd.mode = BankingMode.PLAYER_BANK
    rotation.first_offer = next_first_offer(rnd.layout, rnd.bank_seat)
    if rule_set.co_banking and rnd.rng.random() < rnd.freq.co_bank:
        rnd.mode = BankingMode.CO_BANK  # PA 621a.9(e)
        rnd.emit(CoBankRequested, (2, 4), position=rnd.bank_seat)


def cut_stacks(rnd: RoundState) -> None:
    """Let a bank cut the stacks once, or not at all (PA 621a.9(g))."""
    if rnd.mode not in BANKED_MODES or rnd.rng.random() >= rnd.freq.bank_cuts:
        return
    rnd.cut = rnd.rng.choice(all_cuts())
    rnd.emit(
        TilesCut,
        (3, 8),
        start=rnd.cut.start,
        stop=rnd.cut.stop,
        to_right=rnd.cut.to_right,
        crossed=rnd.cut.crossed,
    )


# --- Wagers ------------------------------------------------------------------------------------


def _player_dealer_wager(rnd: RoundState, bank: Player) -> Cents:
    """Return what a California player-dealer puts up: about the table's action, if affordable."""
    action = sum(amount for spot, amount in rnd.planned.items() if spot not in bank.spots)
    wanted = whole_dollars(int(action * rnd.rng.choice(_COVER_FACTORS)))
    affordable = whole_dollars(bank.chips - RESERVE)
    return max(DOLLAR, min(max(wanted, rnd.table.limits.minimum), affordable))


def place_wagers(rnd: RoundState) -> None:
    """Place each player's wagers in whole dollars; a bank wagers on no other area (9(f))."""
    table = rnd.table
    if rnd.mode is BankingMode.CALIFORNIA and rnd.bank is not None:
        rnd.player_dealer_wager = _player_dealer_wager(rnd, rnd.bank)
        rnd.emit(
            WagerPlaced,
            (0.5, 2.5),
            position=rnd.layout.dealer,
            amount=to_dollars(rnd.player_dealer_wager),
            kind=WagerKind.PAI_GOW,
            player_id=rnd.bank.player_id,
        )
    has_side_wager = rnd.rule_set.pair_fortunes is not None
    for spot, amount in rnd.planned.items():
        player = rnd.player(spot)
        if player is rnd.bank:
            continue
        rnd.wagers[spot] = amount
        rnd.emit(
            WagerPlaced,
            (0.5, 2.5),
            position=spot,
            amount=to_dollars(amount),
            kind=WagerKind.PAI_GOW,
            player_id=player.player_id,
        )
        side = pair_fortunes_wager(player, table.limits) if has_side_wager else 0
        staked = sum(rnd.planned[s] for s in player.spots) + side * len(player.spots)
        if side and player.chips >= staked + RESERVE:
            rnd.pair_fortunes[spot] = side
            rnd.emit(
                WagerPlaced,
                (0.5, 2),
                position=spot,
                amount=to_dollars(side),
                kind=WagerKind.PAIR_FORTUNES,
                player_id=player.player_id,
            )


def place_dealer_wager(rnd: RoundState) -> None:
    """Place the dealer's wager against a player bank, as much as the bank allows (9(h))."""
    if rnd.mode is not BankingMode.PLAYER_BANK or rnd.bank is None:
        return
    limit = dealer_wager_limit(rnd.table.rotation.last_dealer_round[rnd.bank.player_id])
    draw = rnd.rng.random()
    if draw < rnd.freq.dealer_wager_none:
        return
    amount = limit
    if draw >= rnd.freq.dealer_wager_none + rnd.freq.dealer_wager_full and limit > DOLLAR:
        amount = rnd.rng.randint(1, limit // DOLLAR - 1) * DOLLAR
    rnd.dealer_wager = amount
    rnd.emit(DealerWagerAgainstBank, (2, 4), amount=to_dollars(amount))


def call_no_more_bets(rnd: RoundState) -> None:
    """Announce "no more bets" (PA 621a.5(c), 621a.6(a))."""
    rnd.emit(NoMoreBets, (1, 3))
