"""Pair Fortunes: paid by the paytable on the four tiles delivered, however they were set
(PA 621a.8(j), 2019)."""

from __future__ import annotations

from collections.abc import Sequence

from audit.games.errors import RulesError
from audit.games.money import Cents, to_dollars
from audit.games.paigow.layout import Position
from audit.games.paigow.pair_fortunes import (
    PairFortunesCategory,
    Paytable,
    classify_distinct,
    pair_fortunes_payout,
)
from audit.games.paigow.tiles import TILE_BY_NAME, Tile, parse_tile
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Emit
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.settlement.facts import SettlementFacts, recorded_money
from audit.verification.paigow.settlement.wagers import money_at_stake, report_stray, shown


def _tiles(names: Sequence[str]) -> list[Tile]:
    """Return the named tiles: canonical names (as events carry them) looked up, others parsed."""
    try:
        return [TILE_BY_NAME[name] for name in names]
    except KeyError:  # another spelling
        return [parse_tile(name) for name in names]


def category_of(names: Sequence[str] | None) -> PairFortunesCategory | None:
    """Return the Pair Fortunes category of four named tiles; ``None`` without usable tiles."""
    if names is None:
        return None
    try:
        tiles = _tiles(names)
    except RulesError:  # an unknown tile: PG-TILE-* report it
        return None
    # Four distinct tiles, as classify_pairs would check: a repeated one is PG-TILE-*'s.
    return classify_distinct(tiles) if len(set(tiles)) == 4 == len(tiles) else None


def _delivered(view: RoundView, position: Position) -> list[str] | None:
    """Return the tiles last delivered to a position, if any were."""
    for _, event in reversed(view.delivered):
        if event.position == position:
            return event.tiles
    return None


def _pair_fortunes_owed(
    view: RoundView, position: Position, amount: Cents, paytable: Paytable
) -> tuple[Cents, Cents] | None:
    """Return what a Pair Fortunes wager is paid and collected on the four tiles delivered (or,
    lacking those, set); ``None`` without usable tiles.

    ``settle_pair_fortunes`` in its two steps, category then payout: its checks of the
    amount and the paytable cannot fail here (a stake is positive, the paytable the rules').
    """
    category = category_of(_delivered(view, position))
    if category is None:
        hand = view.hands.get(position)
        category = category_of([*hand.high, *hand.low] if hand else None)
    return None if category is None else pair_fortunes_payout(category, amount, paytable)


def judge_pair_fortunes(
    view: RoundView, context: TableContext, emit: Emit, facts: SettlementFacts
) -> None:
    """PA 621a.8(j) (2019): paid by the paytable on the four tiles, however they were set."""
    paytable = context.ruleset.pair_fortunes
    if paytable is None or not (facts.side_settled or facts.stray_side):
        return  # no Pair Fortunes wager settled: nothing to judge
    voids = {v.position for v in view.player_voids}
    for position, event in facts.side_settled.items():
        amount = facts.side[position]
        if view.voided is not None or position in voids:  # PA 621a.10(c)-(e): returned
            outcome, want = "returned", (0, 0, amount)
        else:
            owed = _pair_fortunes_owed(view, position, amount, paytable)
            if owed is None:
                continue
            outcome = "win" if owed[0] else "lose"
            want = (*owed, 0)
        paid, collected, returned, taken = recorded_money(event)
        if event.outcome == outcome and (paid, collected, returned) == want and not taken:
            continue
        stake = money_at_stake((paid, collected, returned), want) + taken
        emit("PG-PF-PAYOUT", position=position,
             recorded=shown(event.outcome, paid, collected, returned, taken),
             expected=shown(outcome, *want), at_stake=to_dollars(stake),
             events=[event])  # fmt: skip
    report_stray(emit, facts.stray_side, "PG-PF-PAYOUT", "Pair Fortunes")
