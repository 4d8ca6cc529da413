"""Wager checks: past-posting, a player's spots, and the bank's one spot.

PA 621a.5(c), (d) and 621a.9(f); NJ 19:47-10.5(c), 10.10 and 10.8(f). Each
check reads one round's view and emits through the round's :class:`Emit`.
"""

from __future__ import annotations

from collections import defaultdict

from audit.events.envelope import Event
from audit.events.paigow import wagers
from audit.findings.finding import ZERO
from audit.games.paigow.layout import Position, TableLayout, position_name
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.readings import live_wagers
from audit.verification.paigow.round_view import RoundView


def _areas_line(layout: TableLayout) -> tuple[Position, ...]:
    """Return the betting areas side by side, from the dealer's one side round to the other.

    Two areas are adjacent when they are next to each other here: the dealer
    (and the Dead Hand) stand between the two ends, so the ends are not.
    """
    start = layout.ring.index(layout.dealer)
    walked = layout.ring[start:] + layout.ring[:start]
    return tuple(p for p in walked if p in layout.betting)


def _adjacent(layout: TableLayout, first: Position, second: Position) -> bool:
    line = _areas_line(layout)
    return abs(line.index(first) - line.index(second)) == 1


def _players_areas(
    view: RoundView, layout: TableLayout
) -> dict[str, list[tuple[Position, wagers.WagerPlaced]]]:
    """Return each recorded player's wagers on live betting areas, in the order placed."""
    live = live_wagers(view)
    found: dict[str, list[tuple[Position, wagers.WagerPlaced]]] = defaultdict(list)
    for _, placed in view.placed:
        if placed.player_id is None or placed.position not in layout.betting:
            continue  # California's player-dealer stakes position 0: not a betting area
        if placed.position in live:
            found[placed.player_id].append((placed.position, placed))
    return found


def _spots_in_order(placements: list[tuple[Position, wagers.WagerPlaced]]) -> list[Position]:
    return list(dict.fromkeys(position for position, _ in placements))


def _names(layout: TableLayout, positions: list[Position]) -> str:
    return ", ".join(position_name(layout, p) for p in positions)


def check_past_post(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a wager placed or withdrawn after the first "no more bets" (PA 621a.5(c))."""
    if view.no_more_bets is None:
        return  # dealing without the call is PG-DEAL-BEFORE-NO-MORE-BETS
    called_at = view.no_more_bets
    moves: list[tuple[int, wagers.WagerPlaced | wagers.WagerWithdrawn, str]] = [
        *((i, e, "placed") for i, e in view.placed if i > called_at),
        *((i, e, "withdrawn") for i, e in view.withdrawn if i > called_at),
    ]
    if not moves:
        return
    call = view.events[called_at]
    layout = context.ruleset.layout
    for _, event, verb in sorted(moves, key=lambda move: move[0]):
        # PA 621a.5(c) / NJ 10.5(c): no wager "made, increased or withdrawn" after the call.
        emit(
            "PG-WAGER-PAST-POST",
            recorded=(
                f"${event.amount} {event.kind.value} wager {verb} at "
                f'{position_name(layout, event.position)} after "no more bets"'
            ),
            expected='no wager made, increased or withdrawn after "no more bets"',
            position=event.position,
            at_stake=event.amount,
            events=[event, call],
        )


def check_player_spots(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a player on more than two areas, two not adjacent, or two where one is allowed.

    PA 621a.5(d), NJ 19:47-10.10(a): two adjacent areas at most, and only if the
    casino allows it (``adjacent_spots``). The bank is 621a.9(f)'s exception:
    :func:`check_bank_spots` judges it.
    """
    first_spot: dict[str | None, Position] = {}
    for _, placed in view.placed:
        if first_spot.setdefault(placed.player_id, placed.position) != placed.position:
            break  # someone wagered at two positions: judged below
    else:
        # The usual round: every player's wagers (Pai Gow and Pair Fortunes alike) at one
        # position, so each player's live betting areas below are one at most: no finding.
        return
    ruleset = context.ruleset
    layout = ruleset.layout
    bank_player = view.bank.player_id if view.bank else None
    for player_id, placements in _players_areas(view, layout).items():
        if player_id == bank_player or len(placements) == 1:
            continue  # one wager is one area: nothing to judge
        spots = _spots_in_order(placements)
        kept: list[Position] = []
        over: list[Position] = []
        for spot in spots:
            if not kept or (
                len(kept) == 1 and ruleset.adjacent_spots and _adjacent(layout, kept[0], spot)
            ):
                kept.append(spot)
            else:
                over.append(spot)
        if not over:
            continue
        allowed = (
            "one betting area, or two adjacent ones"
            if ruleset.adjacent_spots
            else ("one betting area (this table allows no second)")
        )
        emit(
            "PG-WAGER-SPOTS",
            recorded=f"player {player_id} wagered on {_names(layout, spots)}",
            expected=allowed,
            position=over[0],
            exposure=sum((live_wagers(view)[p] for p in over), ZERO),
            events=[event for _, event in placements],
        )


def check_bank_spots(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a bank wagering on any area but its own (PA 621a.9(f): "only one betting area").

    The bank's own area counts as its one area: a wager elsewhere makes two.
    """
    bank = view.bank
    if bank is None or bank.player_id is None:
        return
    layout = context.ruleset.layout
    live = live_wagers(view)
    placements = _players_areas(view, layout).get(bank.player_id, [])
    areas = [bank.position] if bank.position in layout.betting else []
    areas = list(dict.fromkeys([*areas, *_spots_in_order(placements)]))
    if len(areas) <= 1:
        return
    over = areas[1:]
    evidence: list[Event] = [bank, *(event for _, event in placements)]
    emit(
        "PG-WAGER-BANK-SPOTS",
        recorded=f"the bank, player {bank.player_id}, on {_names(layout, areas)}",
        expected=f"the bank on one betting area ({position_name(layout, areas[0])})",
        position=over[0],
        exposure=sum((live.get(p, ZERO) for p in over), ZERO),
        events=evidence,
    )


CHECKS: tuple[Check, ...] = (check_past_post, check_player_spots, check_bank_spots)
