"""What one round recorded about its money, read once for every settlement check.

The banking mode and the banker's position, each position's stakes (placed less
withdrawn), each stake's first settlement in the order recorded, and the settlements
that match no stake (``stray``), all in cents. Reads only the record.

A stake is what was legally in action: a wager made or increased after "no more
bets" (PA 621a.5(c), NJ 19:47-10.5(c)) is PG-WAGER-PAST-POST, and its amount is
kept apart (``late``), so a dealer who settles only the legal amount is not also
found to have settled wrongly. A withdrawal after the call still reduces the stake:
that money left the layout, and the past-post finding carries it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from audit.events.paigow.settlement import WagerSettled
from audit.events.paigow.wagers import WagerKind
from audit.games.money import Cents, decimal_cents
from audit.games.paigow.layout import Position, settlement_order
from audit.games.paigow.rulesets import RuleSet
from audit.games.paigow.settlement import BankingMode
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.readings import banking, button
from audit.verification.paigow.round_view import RoundView

CENTRE_MODES = (BankingMode.PLAYER_BANK, BankingMode.CO_BANK)
"""The modes that settle through a centre the bank pays into or out of (PA 621a.9(o), (r))."""


_MODE_RULES = {
    BankingMode.PLAYER_BANK: "bank-settlement",  # PA 621a.9(o)
    BankingMode.CO_BANK: "co-bank-settlement",  # PA 621a.9(r)
}
_OUTCOME_RULES = {
    "lose": "wager-lose",
    "push": "wager-push",
    "win": "wager-win",
    "surrendered": "surrender",
}
_MONEY_RULES = {**_OUTCOME_RULES, "win": "win-payout"}


def settlement_rule(mode: BankingMode, end: str, *, money: bool) -> str | None:
    """Return the citation key of the paragraph a wager's settlement is judged under.

    A banked round settles under its own paragraph (PA 621a.9(o), (r)). Otherwise the
    paragraph that gives the wager's end (``label``: "lose", "push", "win", ...): for its
    outcome, PA 621a.8(g), (h), (i) or (e) (a surrender); for its money, the same, except
    that a win is paid under the payout paragraph (PA 621a.8(k) in 2012).
    ``None``: the finding kind's own key.

    >>> settlement_rule(BankingMode.DEALER, "win", money=False)
    'wager-win'
    >>> settlement_rule(BankingMode.DEALER, "win", money=True)
    'win-payout'
    """
    mode_rule = _MODE_RULES.get(mode)
    if mode_rule is not None:
        return mode_rule
    return (_MONEY_RULES if money else _OUTCOME_RULES).get(end)


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
    late: dict[Position, Cents] = field(default_factory=dict)
    """Pai Gow wagers made or raised after "no more bets": never legally in action."""
    settled: dict[Position, WagerSettled] = field(default_factory=dict)
    """Each position's (first) Pai Gow settlement."""
    side_settled: dict[Position, WagerSettled] = field(default_factory=dict)
    stray: list[WagerSettled] = field(default_factory=list)
    """Pai Gow settlements of no placed wager, or of one already settled."""
    stray_side: list[WagerSettled] = field(default_factory=list)
    settled_order: list[Position] = field(default_factory=list)
    """Positions in the order their Pai Gow wagers were settled."""


def _stakes(
    view: RoundView,
) -> tuple[dict[Position, Cents], dict[Position, Cents], dict[Position, Cents]]:
    """Return each position's Pai Gow and Pair Fortunes wagers legally in action (placed
    before "no more bets", less withdrawn), and the Pai Gow wagers placed after the call.

    One walk over the wagers for both kinds (a wager is one or the other). A position can
    be left with nothing, or less (withdrawn beyond its wager): the caller drops it.
    """
    pai_gow: dict[Position, Cents] = {}
    side: dict[Position, Cents] = {}
    late: dict[Position, Cents] = {}
    pai_gow_kind = WagerKind.PAI_GOW
    called = view.no_more_bets
    for index, placed in view.placed:
        position = placed.position
        if called is not None and index > called:  # PA 621a.5(c): never in action
            if placed.kind is pai_gow_kind:
                late[position] = late.get(position, 0) + decimal_cents(placed.amount)
            continue
        amounts = pai_gow if placed.kind is pai_gow_kind else side
        amounts[position] = amounts.get(position, 0) + decimal_cents(placed.amount)
    for _, withdrawn in view.withdrawn:
        amounts = pai_gow if withdrawn.kind is pai_gow_kind else side
        position = withdrawn.position
        if position in amounts:
            amounts[position] -= decimal_cents(withdrawn.amount)
    return pai_gow, side, late


def read_settlement(view: RoundView, ruleset: RuleSet) -> SettlementFacts:
    """Return what one round recorded about its money, in cents, as the settlement checks read it.

    The banking mode and the banker's position, each position's Pai Gow and Pair Fortunes
    stakes (placed less withdrawn), each stake's first settlement in the order recorded,
    and the settlements that match no stake (``stray``). Reads only the record.
    """
    who = banking(view, ruleset)
    mode, banker, dealer = who.mode, who.banker, ruleset.layout.dealer
    net_pai_gow, net_side, late = _stakes(view)
    facts = SettlementFacts(
        mode=mode,
        banker=banker,
        stakes={p: a for p, a in net_pai_gow.items() if a > 0 and p != banker},
        side={p: a for p, a in net_side.items() if a > 0},
        player_dealer=max(net_pai_gow.get(dealer, 0), 0) if mode is BankingMode.CALIFORNIA else 0,
        late={p: a for p, a in late.items() if p != banker},
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
        elif not _returns_late(event, facts.late.get(position)):
            facts.stray.append(event)
    return facts


def _returns_late(event: WagerSettled, late: Cents | None) -> bool:
    """Return whether ``event`` only hands back a wager made after the call: what it should do."""
    return late is not None and recorded_money(event) == (0, 0, late, 0)


def late_returned(event: WagerSettled, facts: SettlementFacts) -> Cents:
    """Return the late part of a position's wager that its settlement handed back.

    A dealer may return the late part with the settlement of the legal stake, or apart
    from it; either way, none of it is paid or collected.
    """
    late = facts.late.get(event.position, 0)
    return late if late and decimal_cents(event.returned) >= late else 0


def expected_order(
    view: RoundView, ruleset: RuleSet, facts: SettlementFacts
) -> list[Position] | None:
    """Return the positions with wagers in the order the rules settle them, if known."""
    if facts.mode is BankingMode.CALIFORNIA:
        at = button(view, ruleset)
        if at is None:
            return None
        ring = settlement_order(ruleset.layout, at)  # CA: clockwise from the button
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
