"""Dealing checks: the call, the dice, the count, the delivery, exposed tiles, tile integrity.

PA 621a.6, 621a.7, 621a.9(g)-(l), 621a.10(a)-(e); NJ 19:47-10.6, 10.8, 10.9;
the California count. Every rule comes from the engine (``audit.games.paigow``):
these checks only compare what was recorded with what it says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from audit.events.envelope import Event
from audit.events.paigow import play, wagers
from audit.findings.finding import ZERO
from audit.games.errors import RulesError
from audit.games.paigow.dealing import Cut, apply_cut
from audit.games.paigow.delivery import (
    STACK_COUNT,
    STACK_HEIGHT,
    DeliveryStyle,
    Stacks,
    check_stacks,
    deliver,
    form_stacks,
)
from audit.games.paigow.layout import (
    HAND_COUNT,
    Position,
    deal_order,
    dice_total,
    position_name,
    starting_position,
)
from audit.games.paigow.tiles import TILE_BY_NAME, TILE_NAMES, TILES, parse_tile
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.readings import banking, deal_count, dealt_stacks, live_wagers
from audit.verification.paigow.round_view import RoundView

MIN_SHAKES = 3
"""PA 621a.6(a)(2), 621a.9(i); NJ 19:47-10.6(a), 10.8(i): "at least three times"."""


def _action(view: RoundView) -> Decimal:
    """Return the round's Pai Gow wagers: what a wrong count or deal puts at stake."""
    return sum(live_wagers(view, wagers.WagerKind.PAI_GOW).values(), ZERO)


def _stakes(view: RoundView, positions: Iterable[Position]) -> Decimal:
    """Return every wager on the given positions."""
    live = live_wagers(view)
    return sum((live.get(p, ZERO) for p in set(positions)), ZERO)


def _used_throw(view: RoundView) -> tuple[int, play.DiceRevealed] | None:
    """Return the dice that were read (the last revealed), with their index."""
    return view.dice[-1] if view.dice else None


# --- The call and the dice ---------------------------------------------------------------------


def check_dealt_before_call(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag dice, an RNG number or a stack before "no more bets" (PA 621a.6(a), 621a.5(c))."""
    dealing: list[tuple[int, Event]] = sorted(
        [*view.dice, *view.rng, *view.delivered], key=lambda item: item[0]
    )
    call = view.no_more_bets
    early = [(i, e) for i, e in dealing if call is None or i < call]
    if not early:
        return
    first_index, first = early[0]
    late_wagers = [e for i, e in view.placed if i > first_index]
    emit(
        "PG-DEAL-BEFORE-NO-MORE-BETS",
        recorded=f'{first.type_name()} before "no more bets"'
        + ("" if call is not None else " (never called)"),
        expected='"no more bets" announced before the count and the deal',
        exposure=sum((e.amount for e in late_wagers), ZERO),
        events=[first, *late_wagers],
    )


def check_shakes(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a throw read after fewer than three shakes (PA 621a.6(a)(2), 621a.9(i)).

    Only the shakes of the throw that was read count: those after the last no
    roll (or earlier reveal) and before the lid came off. The single shake
    after the deal (621a.6(f), 9(m)) comes later and is not counted.
    """
    throw = _used_throw(view)
    if throw is None:
        return
    read_at, dice = throw
    since = max(
        [i for i, _ in view.no_rolls if i < read_at] + [i for i, _ in view.dice if i < read_at],
        default=-1,
    )
    shakes = [e for i, e in view.shakes if since < i < read_at]
    count = sum(e.count for e in shakes)
    if count >= MIN_SHAKES:
        return
    emit(
        "PG-DEAL-SHAKES",
        recorded=f"dice read after {count} shake{'s' if count != 1 else ''}",
        expected=f"at least {MIN_SHAKES} shakes before the lid comes off",
        exposure=_action(view),
        events=[dice, *shakes],
        rule_key="shake",
    )


def check_dice_total(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a dice total announced other than the faces add up to (PA 621a.6(b))."""
    throw = _used_throw(view)
    if throw is None or throw[1].announced_total is None:
        return
    dice = throw[1]
    total = dice_total(dice.faces)
    if dice.announced_total == total:
        return
    emit(
        "PG-DEAL-DICE-TOTAL",
        recorded=f"dice {list(dice.faces)} announced as {dice.announced_total}",
        expected=f"announced as {total}",
        exposure=_action(view),
        events=[dice],
    )


def check_no_roll(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag dice not all flat, or out of the shaker, read without a no roll (PA 621a.10(a), (b))."""
    throw = _used_throw(view)
    if throw is None:
        return
    read_at, dice = throw
    if dice.all_flat and dice.all_in_shaker:
        return
    if any(i > read_at for i, _ in view.no_rolls):
        return  # called: this throw was not used
    faults = [
        text
        for text, fault in (
            ("not all flat", not dice.all_flat),
            ("a die out of the shaker", not dice.all_in_shaker),
        )
        if fault
    ]
    emit(
        "PG-DEAL-NO-ROLL",
        recorded=f"dice {list(dice.faces)} {' and '.join(faults)}, and the round went on",
        expected="a no roll called and the dice reshaken",
        exposure=_action(view),
        events=[dice],
    )


# --- The count and the delivery ----------------------------------------------------------------


def _first_delivery(view: RoundView) -> play.StackDelivered | None:
    return next((e for _, e in view.delivered if e.order == 0), None)


def check_starting_position(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a first stack dealt elsewhere than the count gives, and a wrong deal settled.

    PA 621a.6(c), 621a.9(j); NJ 10.6(c), 10.8(j); California's clockwise count.
    A wrong deal must be voided and every wager returned (PA 621a.10(c)).
    """
    layout = context.ruleset.layout
    counted = deal_count(view)
    first = _first_delivery(view)
    if counted is None or first is None:
        return
    total, source, shown = counted
    who = banking(view, context.ruleset)
    try:
        expected = starting_position(total, layout, first=who.bank, source=source)
    except RulesError:
        return  # a count the rules cannot apply: nothing to compare
    if first.position == expected:
        return
    counted_from = layout.dealer if who.bank is None else who.bank
    emit(
        "PG-DEAL-START",
        recorded=f"first stack to {position_name(layout, first.position)} on a count of {total}",
        expected=(
            f"first stack to {position_name(layout, expected)} "
            f"(counting {total} from {position_name(layout, counted_from)})"
        ),
        position=first.position,
        exposure=_action(view),
        events=[first, shown],
        rule_key="bank-starting-position" if who.bank is not None else None,
    )
    if view.voided is not None:
        return
    moved = [e for _, e in view.settled if e.paid > ZERO or e.collected > ZERO or e.vigorish > ZERO]
    if moved:
        emit(
            "PG-DEAL-SETTLED-AFTER-WRONG-DEAL",
            recorded=f"{len(moved)} wager(s) paid or collected after a wrong deal",
            expected="all hands void and every wager returned",
            at_stake=sum((e.paid + e.collected + e.vigorish for e in moved), ZERO),
            events=[first, *moved],
        )


def _full_set(stacks: Sequence[Sequence[str]]) -> Stacks | None:
    """Return the stacks as tiles if they hold the full set once each, else ``None``."""
    try:
        try:  # events carry canonical names: looked up in C; parse_tile for any other
            tiles = [[*map(TILE_BY_NAME.__getitem__, stack)] for stack in stacks]
        except KeyError:
            tiles = [[parse_tile(name) for name in stack] for stack in stacks]
        return check_stacks(tiles)
    except RulesError:
        return None


def _style(view: RoundView, context: TableContext) -> DeliveryStyle:
    # PA 621a.9(i), NJ 10.8(i): no style named means the standard delivery.
    return view.style.style if view.style is not None else context.ruleset.default_delivery_style


_NAME_SET = frozenset(TILE_NAMES)
_PLAIN = frozenset({list, tuple})
_IDENTITY = form_stacks(TILES)
"""The stacks holding tile ``i`` at place ``i`` of the row: what the engine's cut and delivery
do to them is where each place of any row goes."""
_DELIVERY_ORDERS: dict[
    tuple[tuple[int, ...] | None, DeliveryStyle], Callable[[Sequence[str]], tuple[str, ...]]
] = {}
_DELIVERY_ORDERS_KEPT = 4096


def _canonical_row(stacks: Sequence[Sequence[str]]) -> tuple[str, ...] | None:
    """Return the stacks' 32 names in a row if they are 8 stacks of 4, each canonical name once.

    Then ``_full_set`` would accept them (a canonical name is one tile, and each tile once is
    the full set). ``None`` says only that this quick reading does not apply.
    """
    if type(stacks) not in _PLAIN or len(stacks) != STACK_COUNT:
        return None
    # Every stack a list or tuple of four (not a set, say: _full_set takes sequences only).
    if not _PLAIN.issuperset(map(type, stacks)) or {*map(len, stacks)} != {STACK_HEIGHT}:
        return None
    row = tuple(chain.from_iterable(stacks))
    return row if _NAME_SET.issubset(row) else None  # 32 names holding all 32: each once


def _delivery_order(
    cut: Cut | None, style: DeliveryStyle
) -> Callable[[Sequence[str]], tuple[str, ...]]:
    """Return a getter of an uncut row's 32 tiles in the order the engine delivers them.

    The engine's cut and delivery of ``_IDENTITY`` give each delivered tile's place in the
    uncut row: they only rearrange, moving tiles by place whatever the tiles.
    """
    key = (cut.order if cut is not None else None, style)
    getter = _DELIVERY_ORDERS.get(key)
    if getter is None:
        places = chain.from_iterable(deliver(apply_cut(_IDENTITY, cut), style))
        getter = itemgetter(*places)
        if len(_DELIVERY_ORDERS) < _DELIVERY_ORDERS_KEPT:
            _DELIVERY_ORDERS[key] = getter
    return getter


class _Tiles(NamedTuple):
    """The round's tiles as recorded: the stacks dealt, the deliveries and the hands set.

    Read once per round (``view.once(_read_tiles)``) for the checks that compare them.
    """

    formed: play.StacksFormed | None
    """The stacks the deal used (:func:`_dealt_stacks`)."""
    row: tuple[str, ...] | None
    """Their 32 names in a row where they hold each tile once (:func:`_canonical_row`): then
    no tile is twice in the stacks and none is missing."""
    orders: tuple[int, ...]
    """Each delivery's ``order``, in the order recorded; ``positions`` and ``delivered`` too."""
    positions: tuple[Position, ...]
    delivered: tuple[Sequence[str], ...]
    dealt: tuple[str, ...]
    """Every tile delivered, delivery after delivery."""
    misdealt: list[Position]
    """The positions whose hand was set with other tiles than the four delivered there."""


def _read_tiles(view: RoundView) -> _Tiles:
    """Return the round's tiles as recorded (:class:`_Tiles`)."""
    formed = dealt_stacks(view)
    stacks = formed.stacks if formed is not None else None
    row = _canonical_row(stacks) if stacks is not None else None
    deliveries = [(e.order, e.position, e.tiles) for _, e in view.delivered]
    given = {position: tiles for _, position, tiles in deliveries}  # the last one wins
    # The deliveries' columns: orders, positions and tiles.
    orders, positions, delivered = zip(*deliveries, strict=False) if deliveries else ((), (), ())
    dealt = tuple(chain.from_iterable(delivered))
    return _Tiles(formed, row, orders, positions, delivered, dealt, _misdealt(view, given))


def _misdealt(view: RoundView, given: Mapping[Position, Sequence[str]]) -> list[Position]:
    """Return the positions whose hand holds other tiles than those given it, in order."""
    misdealt = []
    for position, hand in view.hands.items():
        tiles = given.get(position)
        if tiles is None or sorted(hand.high + hand.low) != sorted(tiles):  # in any order
            misdealt.append(position)
    return sorted(misdealt)


def _expected_delivery(
    view: RoundView, tiles: _Tiles, style: DeliveryStyle
) -> tuple[Cut | None, tuple[str, ...]] | None:
    """Return the cut and the 32 tiles' names in the order the engine delivers them.

    Group ``k``, for the ``k``-th position dealt, is the names ``4k`` to ``4k + 3``.
    ``None`` where ``check_delivery`` has nothing to compare: stacks without the full set
    once each, or a cut 9(g) does not allow.
    """
    row, formed, stacks = tiles.row, tiles.formed, None
    if row is None:
        if formed is not None and formed.stacks is not None:
            stacks = _full_set(formed.stacks)
        if stacks is None:
            return None  # PG-TILE-DUPLICATE / PG-TILE-MISSING say why
    try:
        cut = view.cut.cut() if view.cut is not None else None
    except RulesError:
        return None  # a cut 9(g) does not allow: what the dealer did cannot be reconstructed
    if row is not None:
        return cut, _delivery_order(cut, style)(row)
    if stacks is None:
        return None  # returned above: says so to the type checker
    groups = deliver(apply_cut(stacks, cut), style)  # PA 621a.9(g), 621a.6(d) / 621a.7
    return cut, tuple(TILE_NAMES[t] for t in chain.from_iterable(groups))


_IN_TURN = tuple(range(HAND_COUNT))
_FOUR_EACH = (STACK_HEIGHT,) * HAND_COUNT


def _delivered_as_expected(
    tiles: _Tiles, walk: tuple[Position, ...] | None, expected: tuple[str, ...]
) -> bool:
    """Return whether the stacks went in turn, each to the walk's next position, with the
    engine's tiles listed as the engine lists them: the usual round, recorded as dealt.

    Then every delivery's position and tiles are its group's, and the comparison delivery
    by delivery finds nothing. A deal recorded otherwise (a hand's tiles in another order,
    say) is compared delivery by delivery.
    """
    return (
        tiles.orders == _IN_TURN
        and tiles.positions == walk
        and tiles.dealt == expected
        and tuple(map(len, tiles.delivered)) == _FOUR_EACH
    )


def check_delivery(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a stack whose tiles or position differ from the stacks, cut and style (PA 621a.6(d)).

    Each delivery is compared by its ``order`` with the group the engine's
    delivery gives (as a set: order within a hand means nothing), and its
    position with the counterclockwise walk from the recorded first stack.
    """
    tiles = view.once(_read_tiles)
    if tiles.formed is None or tiles.formed.stacks is None or not view.delivered:
        return
    style = _style(view, context)
    found = _expected_delivery(view, tiles, style)
    if found is None:
        return
    cut, expected = found
    ruleset = context.ruleset
    layout = ruleset.layout
    first = _first_delivery(view)
    # PA 621a.6(d), 621a.9(k): then "moving counterclockwise around the table".
    walk = deal_order(first.position, layout) if first is not None else None
    if _delivered_as_expected(tiles, walk, expected):
        return
    groups = [expected[i : i + STACK_HEIGHT] for i in range(0, len(expected), STACK_HEIGHT)]
    cited = "alternative-delivery" in ruleset.citations
    alternative = style is not ruleset.default_delivery_style and cited
    how = f"{style.value}{', cut' if cut is not None else ''}"
    wrong: list[tuple[play.StackDelivered, Position, list[str]]] = []
    for _, event in view.delivered:
        order, position = event.order, event.position
        where = walk[order] if walk is not None else position
        if where != position or set(event.tiles) != set(groups[order]):
            wrong.append((event, where, list(groups[order])))
    if not wrong:
        return
    # One misdelivery is one finding: every stack it touched is listed, each wager at a
    # touched position counted once.
    touched = [event.position for event, _, _ in wrong]
    emit(
        "PG-DEAL-STACK-ORDER",
        recorded="; ".join(
            f"stack {e.order + 1} to {position_name(layout, e.position)}: {' '.join(e.tiles)}"
            for e, _, _ in wrong
        ),
        expected="; ".join(
            f"stack {e.order + 1} to {position_name(layout, where)}: {' '.join(group)}"
            for e, where, group in wrong
        )
        + f" ({how})",
        position=touched[0] if len(set(touched)) == 1 else None,
        at_stake=_stakes(view, touched),
        events=[e for e, _, _ in wrong],
        rule_key="alternative-delivery" if alternative else None,
    )


def check_style(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a style the casino does not offer, or one the dealer may not choose.

    PA 621a.7, 621a.9(i); NJ 19:47-10.8(i), (k): the styles offered are the
    rule set's; NJ 10.6(d) holds the dealer to house way from the right.
    """
    if view.style is None:
        return
    ruleset = context.ruleset
    style = view.style.style
    offered = "alternative-delivery" if "alternative-delivery" in ruleset.citations else "delivery"
    if style not in ruleset.delivery_styles:  # PA 621a.7: styles "specified in" the submission
        allowed, rule_key = ruleset.delivery_styles, offered
    elif banking(view, ruleset).taken is None and style not in ruleset.styles_when_dealer_banks:
        # NJ 19:47-10.6(d): the dealer delivers from the right; the ten styles are the bank's.
        allowed, rule_key = ruleset.styles_when_dealer_banks, "delivery"
    else:
        return
    who = "the bank" if banking(view, ruleset).taken is not None else "the dealer"
    emit(
        "PG-DEAL-STYLE",
        recorded=f"{style.value} chosen by {view.style.chosen_by}, {who} banking",
        expected="one of " + ", ".join(sorted(s.value for s in allowed)),
        exposure=_action(view),
        events=[view.style],
        rule_key=rule_key,
    )


# --- After the deal: unwagered stacks and exposed tiles ----------------------------------------


def check_unwagered_collected(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a stack dealt to a position without a wager and not collected (PA 621a.6(e), 9(l)).

    A voided round's tiles are all gathered and remixed, so it is not judged.
    """
    if view.voided is not None or not view.delivered:
        return  # PA 621a.10(c), (e): a void gathers every tile anyway
    layout = context.ruleset.layout
    unwagered = banking(view, context.ruleset).unwagered
    collected = set(view.collected.positions) if view.collected is not None else set()
    if collected.issuperset(unwagered):
        return  # the usual round: every unwagered stack collected
    dealt = {e.position: e for _, e in view.delivered}
    for position in unwagered:
        if position in dealt and position not in collected:
            name = position_name(layout, position)
            emit(
                "PG-DEAL-UNWAGERED",
                recorded=f"{name} had no wager; its stack was not collected",
                expected="the stack collected unseen to the Dead Hand",
                position=position,  # no money: no wager rides on it, the harm is tiles left in play
                events=[dealt[position], *([view.collected] if view.collected else [])],
            )


def check_exposed_tiles(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a banker's, dead or unwagered tile exposed in a round not voided (PA 621a.10(e)).

    A tile exposed at a wagering player's position is the player's choice to
    play or void (PA 621a.10(d)), never a finding here.
    """
    if view.voided is not None or not view.exposed:
        return
    layout = context.ruleset.layout
    who = banking(view, context.ruleset)
    # PA 621a.10(e): "the dealer's hand, the bank's hand, ... the Dead Hand or any position
    # where there is no wager".
    must_void = {layout.dealer, *who.unwagered}
    if layout.dead_hand is not None:
        must_void.add(layout.dead_hand)
    if who.bank is not None:
        must_void.add(who.bank)
    for _, event in view.exposed:
        if event.position not in must_void:
            continue
        shown = f"{position_name(layout, event.position)}" + (
            f" ({event.tile})" if event.tile else ""
        )
        emit(
            "PG-DEAL-EXPOSED-NOT-VOIDED",
            recorded=f"tile exposed at {shown}; round played on",
            expected="all hands void, every wager returned, the tiles remixed",
            position=event.position,
            at_stake=_action(view),
            events=[event],
        )


# --- The tiles' integrity: each a possible switch ----------------------------------------------


def _duplicates(names: Sequence[str]) -> set[str]:
    """Return the names that occur more than once."""
    if len(set(names)) == len(names):
        return set()  # the usual case, found without counting
    return {name for name, seen in Counter(names).items() if seen > 1}


def check_duplicate_tiles(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a tile seen twice in the stacks, the deliveries or the set hands (PA 621a.3(a)).

    One finding per tile name, wherever it shows twice; the position is the
    later holder, and every holder's wagers are at stake (either may be the switch).
    """
    layout = context.ruleset.layout
    tiles = view.once(_read_tiles)
    formed = tiles.formed
    if tiles.row is not None:
        in_stacks: set[str] = set()  # each tile once
    else:
        in_stacks = _duplicates(
            [*chain.from_iterable(formed.stacks)] if formed and formed.stacks else []
        )
    in_dealt = _duplicates(tiles.dealt)
    if not in_dealt and not tiles.misdealt:
        in_hands: set[str] = set()  # each hand the four of one delivery, none delivered twice
    else:
        in_hands = _duplicates([*chain.from_iterable(e.high + e.low for e in view.hands.values())])
    if not (in_stacks or in_dealt or in_hands):
        return  # the usual case: no tile twice anywhere
    dealt = [(e.position, name, e) for _, e in view.delivered for name in e.tiles]
    hands = sorted(view.hands.values(), key=lambda e: e.seq)
    held = [(e.position, name, e) for e in hands for name in [*e.high, *e.low]]
    for name in sorted(in_stacks | in_dealt | in_hands):
        holders = [p for p, n, _ in (held if name in in_hands else dealt) if n == name]
        places = [
            label
            for label, found in (
                ("the stacks", name in in_stacks),
                ("the deliveries", name in in_dealt),
                ("the set hands", name in in_hands),
            )
            if found
        ]
        evidence: list[Event] = [formed] if formed is not None and name in in_stacks else []
        evidence += {e.event_id: e for _, n, e in [*dealt, *held] if n == name}.values()
        at = ", ".join(position_name(layout, p) for p in holders)
        emit(
            "PG-TILE-DUPLICATE",
            recorded=f"{name} twice in {', '.join(places)}" + (f" (at {at})" if holders else ""),
            expected="each of the 32 tiles once",
            position=holders[-1] if holders else None,
            at_stake=_stakes(view, holders),
            events=evidence,
        )


def check_missing_tiles(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag recorded stacks that do not hold all 32 tiles (PA 621a.3(a), 621a.4(d))."""
    tiles = view.once(_read_tiles)
    formed = tiles.formed
    if formed is None or formed.stacks is None:
        return
    if tiles.row is not None:
        return  # the usual case: each tile once
    stacked = {name for stack in formed.stacks for name in stack}
    if stacked.issuperset(TILE_NAMES):
        return  # the usual case, found without listing the missing
    missing = [name for name in TILE_NAMES if name not in stacked]
    if missing:
        emit(
            "PG-TILE-MISSING",
            recorded=f"stacks without {' '.join(missing)}",
            expected="the full set of 32 tiles",
            at_stake=_action(view),
            events=[formed],
        )


def check_hands_dealt(view: RoundView, context: TableContext, emit: Emit) -> None:
    """Flag a hand set with tiles other than the four delivered to it (PA 621a.8(a))."""
    if not view.delivered:
        return  # no deal recorded: nothing to compare the hands with
    misdealt = view.once(_read_tiles).misdealt
    if not misdealt:
        return  # the usual round
    layout = context.ruleset.layout
    dealt = view.delivered_to()
    for position in misdealt:
        hand = view.hands[position]
        tiles = [*hand.high, *hand.low]
        given = dealt.get(position)
        emit(
            "PG-TILE-HAND-MISMATCH",
            recorded=f"{position_name(layout, position)} set {' '.join(tiles)}",
            expected="the four tiles delivered: "
            + (" ".join(given) if given is not None else "none were"),
            position=position,
            at_stake=_stakes(view, [position]),
            events=[hand, *(e for _, e in view.delivered if e.position == position)],
        )


CHECKS: tuple[Check, ...] = (
    check_dealt_before_call,
    check_shakes,
    check_dice_total,
    check_no_roll,
    check_starting_position,
    check_delivery,
    check_style,
    check_unwagered_collected,
    check_exposed_tiles,
    check_duplicate_tiles,
    check_missing_tiles,
    check_hands_dealt,
)
