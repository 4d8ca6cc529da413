"""One simulated Pai Gow round, built step by step in the order the regulations play it.

A round is a :class:`RoundState` passed through :data:`ROUND_STEPS`. Each step
makes one part of the round's decisions with the table's random generator,
records them on the state, and emits what a table's recording device would
see. Later steps read what earlier ones recorded and never work it out again,
so a careless dealer's change carries through the rest of the round. Each step
asks the round's :class:`~audit.simulation.paigow.dealer.Dealer` what to do or
record with its draws: a careless dealer overrides a hook, never a draw, and a
step it must do differently it replaces or wraps. Every rule comes from the
engine (``audit.games.paigow``); the steps only decide what people do.

The order (PA 621a.4-621a.9; NJ 19:47-10.4-10.8; the California text):
the round starts, the tiles are mixed and stacked, the bank is offered, the
bank may cut, wagers go down, "no more bets", a bank names its delivery
style, the dice (or the RNG) give the count, the dealer names the style on a
dealer-banked round, the stacks are delivered, unwagered stacks collected,
the shaker shaken once, hands are set (players, then the bank, then the
dealer), surrenders are taken, and each position is revealed and settled in
settlement order before the bank's flows, California's fees and the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.simulation.paigow.betting import (
    call_no_more_bets,
    cut_stacks,
    mix_tiles,
    place_dealer_wager,
    place_wagers,
    plan_wagers,
    select_bank,
    stack_tiles,
    start_round,
)
from audit.simulation.paigow.dealer import RULES, Dealer
from audit.simulation.paigow.dealing import (
    bank_names_style,
    collect_unwagered_stacks,
    count_positions,
    dealer_names_style,
    deliver_stacks,
    set_banker_hands,
    set_player_hands,
    shake_after_deal,
    take_surrenders,
)
from audit.simulation.paigow.settlement import (
    close_books,
    complete_round,
    return_wagers,
    reveal_and_settle,
    settle_bank,
    settle_round,
    take_collection_fees,
)
from audit.simulation.paigow.state import RoundState, Step
from audit.simulation.paigow.table import SimTable

ROUND_STEPS: tuple[Step, ...] = (
    start_round,
    mix_tiles,
    stack_tiles,
    plan_wagers,
    select_bank,
    cut_stacks,
    place_wagers,
    place_dealer_wager,
    call_no_more_bets,
    bank_names_style,
    count_positions,
    dealer_names_style,
    deliver_stacks,
    collect_unwagered_stacks,
    shake_after_deal,
    set_player_hands,
    set_banker_hands,
    take_surrenders,
    settle_round,
    reveal_and_settle,
    settle_bank,
    take_collection_fees,
    complete_round,
    close_books,
)
"""A clean round, step by step; a voided round leaves at the void for :data:`VOID_STEPS`."""

VOID_STEPS: tuple[Step, ...] = (return_wagers, complete_round, close_books)
"""How a voided round ends: wagers returned, the round closed, the books kept."""


def play_round(
    table: SimTable,
    steps: Sequence[Step] = ROUND_STEPS,
    void_steps: Sequence[Step] = VOID_STEPS,
    dealer: Dealer = RULES,
) -> RoundState:
    """Play the table's next round through ``steps`` as ``dealer`` deals it; the events go to
    the table's recorder."""
    table.rounds += 1
    round_id = f"{table.table_id}-{table.gaming_day:%Y%m%d}-{table.rounds:04d}"
    rnd = RoundState(table, round_id, table.rounds, dealer=dealer)
    for step in steps:
        step(rnd)
        if rnd.voided:
            for void_step in void_steps:
                void_step(rnd)
            break
    return rnd
