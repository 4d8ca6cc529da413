"""The round from the count to the surrenders: dice or RNG, delivery, and setting the hands.

PA 621a.6, 621a.7, 621a.8(a)-(e), 621a.9(i)-(n), 621a.10; NJ 19:47-10.6-10.8;
California's action button.
"""

from __future__ import annotations

from audit.events.paigow.play import (
    DeliveryStyleChosen,
    DiceRevealed,
    HandSet,
    NoRollCalled,
    RngNumberShown,
    RoundVoided,
    ShakerShaken,
    StackDelivered,
    Surrendered,
    TileExposed,
    UnwageredStacksCollected,
)
from audit.games.paigow.dealing import apply_cut, deal
from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.layout import (
    Position,
    action_button,
    dice_total,
    starting_position,
    unwagered_positions,
)
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.tiles import TILE_NAMES
from audit.games.wagering import Outcome
from audit.simulation.paigow.loaded_dice import throw
from audit.simulation.paigow.players import choose_setting
from audit.simulation.paigow.state import BANKED_MODES, RoundState, tile_names

# --- The count and the deal --------------------------------------------------------------------


def _name_style(rnd: RoundState, allowed: frozenset[DeliveryStyle], rate: float, by: str) -> None:
    alternatives = sorted(allowed - {rnd.rule_set.default_delivery_style}, key=lambda s: s.value)
    if alternatives and rnd.rng.random() < rate:
        rnd.style = rnd.rng.choice(alternatives)
    else:
        rnd.style = rnd.rule_set.default_delivery_style
    rnd.style_named = True
    rnd.emit(DeliveryStyleChosen, (1, 3), style=rnd.style, chosen_by=by)


def bank_names_style(rnd: RoundState) -> None:
    """Let a bank name the delivery style once "no more bets" is called (PA 621a.9(i))."""
    if rnd.mode in BANKED_MODES:
        rate = rnd.freq.bank_alternative_style
        _name_style(rnd, rnd.rule_set.delivery_styles, rate, "bank")


def _throw(rnd: RoundState, shaken_by: str) -> int:
    """Shake and read the dice until a valid throw; return the total (PA 621a.6(a), 621a.10)."""
    dealer = rnd.dealer
    while True:
        drawn = rnd.rng.randint(3, 6)
        rnd.emit(ShakerShaken, (2, 5), count=dealer.shakes(drawn), shaken_by=shaken_by)
        faces = throw(rnd.rng, rnd.table.loaded_dice)
        if rnd.rng.random() < rnd.freq.no_roll:
            not_flat = rnd.rng.random() < 0.5
            rnd.emit(
                DiceRevealed, (2, 4), faces=faces, all_flat=not not_flat, all_in_shaker=not_flat
            )
            rnd.emit(NoRollCalled, (2, 5), reason="not_flat" if not_flat else "fell_out")
            continue
        total = dice_total(faces)
        announced, fault = dealer.announced(total), dealer.misread()
        rnd.emit(
            DiceRevealed,
            (2, 4),
            faces=faces,
            announced_total=announced,
            all_flat=fault != "not_flat",
            all_in_shaker=fault != "fell_out",
        )
        return dealer.counts_from(total, announced)


def count_positions(rnd: RoundState) -> None:
    """Get the count from the dice or the RNG and find the starting position (PA 621a.6(a)-(c)).

    The count starts at the dealer, at the bank when a player banks (9(j)), and
    at California's player-dealer position, where it also places the action button.
    """
    layout = rnd.layout
    if rnd.mode is BankingMode.DEALER and rnd.table.uses_rng:
        rnd.source = "rng"
        rnd.count = rnd.rng.randint(1, 8)
        rnd.emit(RngNumberShown, (3, 6), number=rnd.count)
    else:
        by = "dealer" if rnd.mode is BankingMode.DEALER else "bank"
        rnd.count = _throw(rnd, by)
    first = rnd.bank_seat if rnd.mode in BANKED_MODES else None
    rnd.start = starting_position(rnd.count, layout, first=first, source=rnd.source)
    if layout.button_on_dealer is not None:
        rnd.button = action_button(rnd.count, layout)


def dealer_names_style(rnd: RoundState) -> None:
    """Name the dealer's delivery style where no bank named one (PA 621a.6(d), 621a.7)."""
    if not rnd.style_named:
        rate = rnd.freq.dealer_alternative_style
        _name_style(rnd, rnd.rule_set.styles_when_dealer_banks, rate, "dealer")


def deliver_stacks(rnd: RoundState) -> None:
    """Deliver the (cut) stacks from the starting position counterclockwise (PA 621a.6(d)).

    Rarely a dealer's tile shows in a dealer-banked deal: every hand is void
    (PA 621a.10(e)) and the deal stops there.
    """
    layout, dealer = rnd.layout, rnd.dealer
    first = dealer.first_stack(rnd.start)
    dealt = deal(apply_cut(rnd.stacks, rnd.cut), rnd.style, first, layout)
    exposed = rnd.mode is BankingMode.DEALER and rnd.rng.random() < rnd.freq.dealer_tile_exposed
    for order, (position, tiles) in enumerate(dealer.delivered(list(dealt.items()))):
        rnd.hands[position] = tiles
        shown = tile_names(dealer.shown_stack(position, tiles))
        rnd.emit(StackDelivered, (0.8, 1.6), position=position, order=order, tiles=shown)
        if dealer.exposes(position):  # a careless dealer's: turned over, and play goes on
            tile = rnd.rng.choice(tiles)
            rnd.emit(TileExposed, (1, 2), position=position, tile=TILE_NAMES[tile])
        elif exposed and position == layout.dealer:
            tile = rnd.rng.choice(tiles)
            rnd.emit(TileExposed, (1, 2), position=position, tile=TILE_NAMES[tile])
            rnd.emit(
                RoundVoided,
                (5, 15),
                reason="banker_tile_exposed",
                detail=f"dealer's {TILE_NAMES[tile]} turned over during the deal",
            )
            rnd.voided = True
            return


def collect_unwagered_stacks(rnd: RoundState) -> None:
    """Collect, unseen, the stacks of positions without a wager (PA 621a.6(e), 621a.9(l))."""
    wagered = set(rnd.wagers)
    if rnd.mode in BANKED_MODES and rnd.bank_seat is not None:
        wagered.add(rnd.bank_seat)
    positions = unwagered_positions(rnd.layout, wagered, dealer_plays=rnd.dealer_plays)
    rnd.emit(UnwageredStacksCollected, (2, 5), positions=list(rnd.dealer.collected(positions)))


def shake_after_deal(rnd: RoundState) -> None:
    """Cover the shaker and shake it once after the deal (PA 621a.6(f), 621a.9(m))."""
    if rnd.source == "dice" and "shake-after-deal" in rnd.rule_set.citations:
        rnd.emit(ShakerShaken, (1, 3), count=1, shaken_by="dealer")


# --- Setting and surrender --------------------------------------------------------------------


def _set(
    rnd: RoundState,
    position: Position,
    setting: Setting,
    by: str,
    seconds: float,
    shown: Setting | None = None,
) -> None:
    """Set a hand (the round keeps ``setting``) and record it (as ``shown``, if given)."""
    rnd.settings[position] = setting
    record = shown or setting
    rnd.emit(
        HandSet,
        (seconds / 2, seconds),
        position=position,
        high=tile_names(record.high),
        low=tile_names(record.low),
        set_by=by,
    )


def set_player_hands(rnd: RoundState) -> None:
    """Let each player set their hands (PA 621a.8(a), (b)).

    A player on two areas sets the larger wager first, or on equal wagers the
    first counterclockwise (PA 621a.5(d)).
    """
    order = rnd.order()
    seen: set[str] = set()
    seconds = 16.0
    for position in order:
        player = rnd.player(position)
        if player.player_id in seen:
            continue
        seen.add(player.player_id)
        spots = [s for s in order if s in player.spots]
        for spot in sorted(spots, key=lambda s: (-rnd.wagers[s], order.index(s))):
            tiles = rnd.dealer.tiles_for(spot, rnd.hands[spot])
            setting, by = choose_setting(tiles, rnd.rule_set, rnd.freq, rnd.rng)
            _set(rnd, spot, setting, by, seconds, rnd.dealer.shown_setting(spot, setting))
            seconds = 4.0


def set_banker_hands(rnd: RoundState) -> None:
    """Set the bank's hand, then the dealer's, the house way (PA 621a.8(c), (d), 9(e), (n)).

    A player bank and California's player-dealer set their own hands (here the
    house way, as most do); the dealer sets a co-bank's.
    """
    way, ranking = rnd.rule_set.house_way, rnd.rule_set.ranking

    def set_banker(position: Position, by: str) -> None:
        house_way = way.setting(rnd.hands[position], ranking)
        _set(rnd, position, rnd.dealer.banker_setting(position, house_way), by, 8.0)

    if rnd.mode in BANKED_MODES and rnd.bank_seat is not None:
        set_banker(rnd.bank_seat, "player" if rnd.mode is BankingMode.PLAYER_BANK else "dealer")
    if rnd.dealer_plays:
        set_banker(rnd.layout.dealer, "player" if rnd.mode is BankingMode.CALIFORNIA else "dealer")


def take_surrenders(rnd: RoundState) -> None:
    """Let players give up a losing hand's wager before it is revealed (PA 621a.8(e))."""
    if "surrender" not in rnd.rule_set.citations:
        return
    for position in rnd.order():
        losing = rnd.outcome(position) is Outcome.LOSE
        if losing and rnd.rng.random() < rnd.freq.surrender_losing_hand:
            rnd.surrendered.append(position)
            rnd.emit(Surrendered, (2, 5), position=position)
