"""What verification knows about a 21 Baccarat table: its rules, its dealer, and its shoe.

A :class:`B21TableContext` is built from the table's own events in order, so offline
replay and the projections judge alike. The shoe's state spans rounds (a burn owed,
a reshuffle due), so it follows every fact of the table, table-level and round alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from audit.events.envelope import Event
from audit.games.baccarat21.drawing import DrawRule
from audit.games.baccarat21.rulesets import PA_681A, RuleSet, get_rule_set
from audit.games.baccarat21.shoe import ShoeEvent, ShoeProcedure
from audit.games.errors import RulesError

_PARSERS: dict[str, Any] = {
    "decks": int,
    "paytable": str,
    "batches": lambda text: text.lower() in ("true", "yes", "1"),
    "draw_rule": DrawRule,
}


def rule_set_for(name: str, options: dict[str, str]) -> RuleSet:
    """Return the named rule set with a table's options applied.

    Decks are applied before the paytable, which must suit them (PA 681a.8(c)). An
    option the rule set does not know or allow is left out: a recorded option never
    stops the judging.

    >>> rules = rule_set_for("pa-681a", {"paytable": "B", "decks": "4", "batches": "true"})
    >>> rules.decks, rules.paytable.letter, rules.batches
    (4, 'B', True)
    """
    try:
        ruleset = get_rule_set(name)
    except RulesError:
        ruleset = PA_681A
    for key in sorted(options, key=lambda k: k != "decks"):
        if key not in _PARSERS:
            continue
        try:
            ruleset = ruleset.with_options(**{key: _PARSERS[key](options[key])})
        except (RulesError, ValueError, KeyError):
            continue
    return ruleset


_SHOE_EVENTS = {
    "dealer_changed": ShoeEvent.DEALER_CHANGED,
    "card_burned": ShoeEvent.BURNED,
    "b21_card_dealt": ShoeEvent.DEALT,
    "cover_card_appeared": ShoeEvent.COVER_CARD,
    "round_completed": ShoeEvent.ROUND_ENDED,
}


@dataclass
class B21TableContext:
    """One table's state as its events told it."""

    table_id: str
    ruleset: RuleSet = PA_681A
    dealer_id: str | None = None
    shoe: ShoeProcedure = field(default_factory=ShoeProcedure)

    def observe(self, event: Event) -> tuple[str, ...]:
        """Update the context with one event; return the shoe rules it breaks (rule keys)."""
        kind = event.type_name()
        if kind == "table_opened":
            self.ruleset = rule_set_for(event.rule_set, dict(event.options))  # type: ignore[attr-defined]
            self.dealer_id = event.dealer_id  # type: ignore[attr-defined]
            self.shoe = ShoeProcedure(batches=self.ruleset.batches)
            return ()
        if kind == "dealer_changed":
            self.dealer_id = event.incoming_dealer_id  # type: ignore[attr-defined]
        if kind == "shoe_loaded":
            self.shoe, breaches = self.shoe.apply(ShoeEvent.LOADED, batch=event.batch)  # type: ignore[attr-defined]
            return breaches
        if kind == "card_found_face_up":
            used = event.disposition == "dealt"  # type: ignore[attr-defined]
            shoe_event = ShoeEvent.FACE_UP_DEALT if used else ShoeEvent.FACE_UP_DISCARDED
        else:
            shoe_event = _SHOE_EVENTS.get(kind)  # type: ignore[assignment]
        if shoe_event is None:
            return ()
        self.shoe, breaches = self.shoe.apply(shoe_event)
        return breaches
