"""What one Pai Gow round's record says, read once: who banks, the wagers still down, the hands.

Every reader of a round takes these from here: the dealing, wager, setting and
settlement checks, the replay, and the projections. What several read alike is
derived once per :class:`RoundView` (:meth:`RoundView.once`), however many ask.
The count the deal rests on, the stacks it used, California's action button and when
two settings are one are read here too, so the replay's marks are the checks' own.

**Who banks** (:func:`banking`) is the rule set's (:meth:`RuleSet.banking_mode`): a
California player-dealer banks every round and the count starts at its spot,
wherever it took the bank; elsewhere a bank is a player's, at that player's betting
position (PA 621a.9(c), NJ 19:47-10.8(c)), the count starts there (PA 621a.9(j)), and
the dealer plays only a wager against it (9(h), (n)). A ``bank_accepted`` at a position
no player sits at is no player bank: the round is the dealer's, for the deal, the
settlement and the replay alike (docs/readings.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import partial

from audit.events.envelope import Event
from audit.events.paigow import wagers
from audit.events.paigow.play import BankAccepted, HandSet, StacksFormed
from audit.findings.finding import ZERO
from audit.games.errors import RulesError
from audit.games.paigow.hands import HandRanking
from audit.games.paigow.layout import (
    NumberSource,
    Position,
    TableLayout,
    action_button,
    dice_total,
    unwagered_positions,
)
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.setting import Setting
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.tiles import TILE_BY_NAME, parse_tile
from audit.verification.paigow.round_view import RoundView

# --- Wagers still down ---------------------------------------------------------------------------


def live_wagers(view: RoundView, kind: wagers.WagerKind | None = None) -> dict[Position, Decimal]:
    """Return each position's wagers still down: placed less withdrawn, of one kind or all."""
    # Several checks ask this of each round: summed once per view and kind, copied out.
    return dict(view.once(_LIVE[kind]))


def _live(view: RoundView, kind: wagers.WagerKind | None) -> dict[Position, Decimal]:
    net: dict[Position, Decimal] = defaultdict(lambda: ZERO)
    for _, placed in view.placed:
        if kind is None or placed.kind is kind:
            net[placed.position] += placed.amount
    for _, withdrawn in view.withdrawn:
        if kind is None or withdrawn.kind is kind:
            net[withdrawn.position] -= withdrawn.amount
    return {position: amount for position, amount in net.items() if amount > ZERO}


_LIVE = {kind: partial(_live, kind=kind) for kind in (None, *wagers.WagerKind)}
"""One derivation per kind of wager (``None``: every kind), for :meth:`RoundView.once`."""


def _pai_gow_positions(view: RoundView) -> set[Position]:
    """Return the positions with a Pai Gow wager still down: the keys of ``live_wagers``.

    Without a withdrawal, a position's net is the sum of the wagers placed there, and no
    amount is negative (``Money``): the net is positive exactly when one of those wagers
    is, so the usual round needs no sums.
    """
    pai_gow = wagers.WagerKind.PAI_GOW
    if view.withdrawn:
        return set(live_wagers(view, pai_gow))
    return {e.position for _, e in view.placed if e.kind is pai_gow and e.amount > ZERO}


# --- Who banks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Banking:
    """Who banks the round, where the deal's count starts, and which positions play a hand."""

    mode: BankingMode
    taken: BankAccepted | None
    """The bank as taken: by a PA/NJ player at a betting position, or by a California
    player-dealer at its seat (the rotation's); ``None`` when the dealer banks."""
    bank: Position | None
    """A PA/NJ player bank's (or co-bank's) position: the count starts there (PA 621a.9(j)).
    ``None`` when the dealer or a California player-dealer banks."""
    banker: Position
    """The position whose hand the players play against: the bank's, else the dealer's."""
    dealer_plays: bool
    """Whether the dealer's hand is played: always, unless it only wagers against a bank."""
    wagered: frozenset[Position]
    """Betting positions with a Pai Gow wager still down, the bank's included."""
    unwagered: tuple[Position, ...]
    """The positions whose stacks go unseen to the Dead Hand (:func:`unwagered_positions`)."""


def banking(view: RoundView, ruleset: RuleSet) -> Banking:
    """Return who banks and who plays, read once per round however many readers ask.

    It reads only the table's layout from ``ruleset`` (who may bank is the layout's), so
    rule sets that share a layout share the one derivation.
    """
    layout = ruleset.layout
    entry = _BANKING_BY_LAYOUT.get(id(layout))
    if entry is None or entry[0] is not layout:  # the layout is kept: its id is not reused
        if len(_BANKING_BY_LAYOUT) >= 64:
            return _read_banking(view, ruleset)  # layouts made afresh: read, not kept
        entry = _BANKING_BY_LAYOUT[id(layout)] = (layout, partial(_read_banking, ruleset=ruleset))
    return view.once(entry[1])


_BANKING_BY_LAYOUT: dict[int, tuple[TableLayout, Callable[[RoundView], Banking]]] = {}
"""One derivation per layout, for :meth:`RoundView.once` (rule sets share their layouts)."""


def _read_banking(view: RoundView, ruleset: RuleSet) -> Banking:
    layout = ruleset.layout
    bank_at = view.bank.position if view.bank is not None else None
    mode = ruleset.banking_mode(bank_at, co_bank=view.co_bank is not None)
    wagered = frozenset(p for p in _pai_gow_positions(view) if p in layout.betting)
    if mode in (BankingMode.PLAYER_BANK, BankingMode.CO_BANK) and bank_at is not None:
        dealer_plays = view.dealer_wager is not None and view.dealer_wager.amount > ZERO
        wagered |= {bank_at}
        bank, banker = bank_at, bank_at
    else:
        bank, banker, dealer_plays = None, layout.dealer, True
    unwagered = unwagered_positions(layout, wagered, dealer_plays=dealer_plays)
    taken = view.bank if mode is not BankingMode.DEALER else None
    return Banking(mode, taken, bank, banker, dealer_plays, wagered, unwagered)


# --- The count, the stacks dealt, the action button -------------------------------------------


def deal_count(view: RoundView) -> tuple[int, NumberSource, Event] | None:
    """Return the count the deal rests on: the last throw's total, or the RNG's number shown
    after it, with the event that shows it; ``None`` when neither was recorded."""
    throw = view.dice[-1] if view.dice else None
    shown = view.rng[-1] if view.rng else None
    if throw is not None and (shown is None or throw[0] > shown[0]):
        try:
            return dice_total(throw[1].faces), "dice", throw[1]
        except RulesError:
            return None  # faces no die shows: nothing to count
    if shown is not None:
        return shown[1].number, "rng", shown[1]
    return None


def dealt_stacks(view: RoundView) -> StacksFormed | None:
    """Return the stacks the deal used: the last formed before the first delivery.

    A tile exposed while stacking means a remix and new stacks (PA 621a.4(e)),
    so the round's first ``stacks_formed`` is not always the one dealt.
    """
    dealt_at = view.delivered[0][0] if view.delivered else len(view.events)
    formed = [e for i, e in view.formed if i < dealt_at]
    return formed[-1] if formed else view.stacks


def button(view: RoundView, ruleset: RuleSet) -> Position | None:
    """Return the California action button from the round's valid throw, if one was read."""
    if not view.dice:
        return None
    index, dice = view.dice[-1]
    if any(no_roll_index > index for no_roll_index, _ in view.no_rolls):
        return None  # the last throw was a no roll, and no valid one followed
    try:
        return action_button(dice_total(dice.faces), ruleset.layout)
    except RulesError:
        return None


# --- Hands as set --------------------------------------------------------------------------------


def hand_setting(hand: HandSet | None) -> Setting | None:
    """Return a recorded hand as the engine's setting, or ``None`` if its tiles are unusable."""
    if hand is None:
        return None
    tile = TILE_BY_NAME.get  # events carry canonical names: parse_tile is for any other
    a, b, c, d = tile(hand.high[0]), tile(hand.high[1]), tile(hand.low[0]), tile(hand.low[1])
    if a is None or b is None or c is None or d is None:
        try:
            a, b = parse_tile(hand.high[0]), parse_tile(hand.high[1])
            c, d = parse_tile(hand.low[0]), parse_tile(hand.low[1])
        except RulesError:  # an unknown tile: PG-TILE-* report it
            return None
    if len({a, b, c, d}) != 4:  # a repeated tile: PG-TILE-* report it
        return None
    return Setting.of_distinct((a, b), (c, d))  # parsed and compared: no need to check again


def _parse_hands(view: RoundView) -> dict[int, Setting | None]:
    return {position: hand_setting(hand) for position, hand in view.hands.items()}


def hand_settings(view: RoundView) -> dict[int, Setting | None]:
    """Return each position's hand as finally set, as the engine's setting (``None`` where its
    tiles are unusable), parsed once per round however many checks ask."""
    return view.once(_parse_hands)


def same_setting(recorded: Setting, expected: Setting, ranking: HandRanking) -> bool:
    """Return whether two settings are one: two hands of equal rank may be called high either
    way round (as ``dealer_rule.permitted_settings`` allows)."""
    # Setting compares hands order-free within each hand.
    if recorded == expected:
        return True
    tied = ranking.key(*recorded.high) == ranking.key(*recorded.low)
    return tied and Setting(recorded.low, recorded.high) == expected
