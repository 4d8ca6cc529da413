"""What one round recorded about its money, read once for every settlement check.

The banking mode and the banker's position, each position's stakes (placed less
withdrawn), each stake's first settlement in the order recorded, and the settlements
that match no stake (``stray``), all in cents. Reads only the record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind
from audit.games.errors import RulesError
from audit.games.money import Cents, decimal_cents
from audit.games.paigow.layout import Position, action_button, dice_total, settlement_order
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.round_view import RoundView
from audit.verification.paigow.setting_checks import is_player_dealer_table

CENTRE_MODES = (BankingMode.PLAYER_BANK, BankingMode.CO_BANK)
"""The modes that settle through a centre the bank pays into or out of (PA 621a.9(o), (r))."""


def cited(context: TableContext, key: str | None) -> str | None:
    """Return ``key`` if the table's rules cite it, else ``None`` (the kind's own rule)."""
    return key if key is not None and key in context.ruleset.citations else None


@dataclass
class SettlementFacts:
    """What the settlement checks read from one round's record, in cents (``read_settlement``)."""

    mode: BankingMode
    banker: Position
    """The position whose hand the players play against."""
    stakes: dict[Position, Cents]
    """Players' Pai Gow wagers (placed less withdrawn), the banker's own excluded."""
    side: dict[Position, Cents]
    """Pair Fortunes wagers."""
    player_dealer: Cents
    """A California player-dealer's wager: what it covers."""
    settled: dict[Position, WagerSettled] = field(default_factory=dict)
    """Each position's (first) Pai Gow settlement."""
    side_settled: dict[Position, WagerSettled] = field(default_factory=dict)
    stray: list[WagerSettled] = field(default_factory=list)
    """Pai Gow settlements of no placed wager, or of one already settled."""
    stray_side: list[WagerSettled] = field(default_factory=list)
    settled_order: list[Position] = field(default_factory=list)
    """Positions in the order their Pai Gow wagers were settled."""


def _mode(view: RoundView, ruleset: RuleSet) -> BankingMode:
    if is_player_dealer_table(ruleset):
        return BankingMode.CALIFORNIA
    if view.bank is None:
        return BankingMode.DEALER
    return BankingMode.CO_BANK if view.co_bank is not None else BankingMode.PLAYER_BANK


def _stakes(view: RoundView) -> tuple[dict[Position, Cents], dict[Position, Cents]]:
    """Return each position's Pai Gow and Pair Fortunes wagers: placed less withdrawn.

    One walk over the wagers for both kinds (a wager is one or the other). A position can
    be left with nothing, or less (withdrawn beyond its wager): the caller drops it.
    """
    pai_gow: dict[Position, Cents] = {}
    side: dict[Position, Cents] = {}
    pai_gow_kind = WagerKind.PAI_GOW
    for _, placed in view.placed:
        amounts = pai_gow if placed.kind is pai_gow_kind else side
        position = placed.position
        amounts[position] = amounts.get(position, 0) + decimal_cents(placed.amount)
    for _, withdrawn in view.withdrawn:
        amounts = pai_gow if withdrawn.kind is pai_gow_kind else side
        position = withdrawn.position
        if position in amounts:
            amounts[position] -= decimal_cents(withdrawn.amount)
    return pai_gow, side


def read_settlement(view: RoundView, ruleset: RuleSet) -> SettlementFacts:
    """Return what one round recorded about its money, in cents, as the settlement checks read it.

    The banking mode and the banker's position, each position's Pai Gow and Pair Fortunes
    stakes (placed less withdrawn), each stake's first settlement in the order recorded,
    and the settlements that match no stake (``stray``). Reads only the record.
    """
    mode = _mode(view, ruleset)
    dealer = ruleset.layout.dealer
    banker = view.bank.position if mode in CENTRE_MODES and view.bank else dealer
    net_pai_gow, net_side = _stakes(view)
    facts = SettlementFacts(
        mode=mode,
        banker=banker,
        stakes={p: a for p, a in net_pai_gow.items() if a > 0 and p != banker},
        side={p: a for p, a in net_side.items() if a > 0},
        player_dealer=max(net_pai_gow.get(dealer, 0), 0) if mode is BankingMode.CALIFORNIA else 0,
    )
    stakes, settled = facts.stakes, facts.settled
    side, side_settled, pair_fortunes = facts.side, facts.side_settled, WagerKind.PAIR_FORTUNES
    for _, event in view.settled:
        position = event.position
        if event.kind is pair_fortunes:
            if position in side and position not in side_settled:
                side_settled[position] = event
            else:
                facts.stray_side.append(event)
        elif position in stakes and position not in settled:
            settled[position] = event
            facts.settled_order.append(position)
        else:
            facts.stray.append(event)
    return facts


def _button(view: RoundView, ruleset: RuleSet) -> Position | None:
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


def expected_order(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts
) -> list[Position] | None:
    """Return the positions with wagers in the order the rules settle them, if known."""
    if facts.mode is BankingMode.CALIFORNIA:
        button = _button(view, ruleset)
        if button is None:
            return None
        ring = settlement_order(ruleset.layout, button)  # CA: clockwise from the button
    else:
        ring = settlement_order(ruleset.layout)  # PA 621a.8(f), 9(o): from the dealer's right
    ordered = [p for p in ring if p in facts.stakes]
    return ordered + sorted(p for p in facts.stakes if p not in ring)


def recorded_money(event: WagerSettled) -> tuple[Cents, Cents, Cents, Cents]:
    """Return a settlement's paid, collected, returned and vigorish in cents."""
    return (
        decimal_cents(event.paid),
        decimal_cents(event.collected),
        decimal_cents(event.returned),
        decimal_cents(event.vigorish),
    )
