"""What verification knows about a table when a round is judged: rules, equipment, banking history.

A :class:`TableContext` is built from the table's own events in order
(``table_opened``, tile sets, dice, dealer changes) and from each judged round
(banking rotation), so offline replay and the projections judge alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from audit.events.envelope import Event
from audit.games.errors import RulesError
from audit.games.paigow.house_way import HOUSE_WAYS
from audit.games.paigow.rulesets import RuleSet, get_rule_set
from audit.games.paigow.vigorish import VigRounding

_PARSERS: dict[str, Any] = {
    "vig_rounding": VigRounding,
    "house_way": lambda name: HOUSE_WAYS[name],
    "adjacent_spots": lambda text: text.lower() in ("true", "yes", "1"),
    "player_banking": lambda text: text.lower() in ("true", "yes", "1"),
    "co_banking": lambda text: text.lower() in ("true", "yes", "1"),
}


def rule_set_for(name: str, options: dict[str, str]) -> RuleSet:
    """Return the named rule set with a table's options applied.

    An option the rule set does not know, or does not allow (vigorish rounding on a
    California table), is left out: a recorded option never stops the judging.
    """
    ruleset = get_rule_set(name)
    for key, value in options.items():
        if key not in _PARSERS:
            continue
        try:
            ruleset = ruleset.with_options(**{key: _PARSERS[key](value)})
        except (RulesError, ValueError, KeyError):
            continue
    return ruleset


@dataclass
class TableContext:
    """One table's state as its events told it, for judging its next round."""

    table_id: str
    ruleset: RuleSet = field(default_factory=lambda: get_rule_set("pa-2019"))
    opened: bool = False
    dealer_id: str | None = None
    tile_set_id: str | None = None
    tiles_since: datetime | None = None
    tiles_inspected: bool = False
    inspected_sets: set[str] = field(default_factory=set)
    """Sets inspected and found suitable: a replacement is often inspected before it goes in."""
    dice_since: datetime | None = None
    rounds_in_game: int = 0
    """Rounds played since the game (re)started: PA 621a.9(b) forbids a bank in the first."""
    bank_streak: tuple[int | None, int] = (None, 0)
    """The position that banked the last rounds, and how many in a row."""
    last_dealer_banked_wagers: dict[int, Decimal] = field(default_factory=dict)
    """Pai Gow wagers by position in the last round the dealer banked (PA 621a.9(d)(1))."""
    next_first_offer: int | None = None
    inspection_reported: bool = False
    tiles_overdue_reported: bool = False
    dice_overdue_reported: bool = False

    def snapshot(self) -> TableContext:
        """Return a copy as of now, for judging a round later against the table as it then was."""
        # Taken at every round's start: a shallow copy with its own mutable containers is
        # several times cheaper than dataclasses.replace, which re-runs __init__.
        copied = object.__new__(TableContext)
        copied.__dict__.update(self.__dict__)
        copied.inspected_sets = set(self.inspected_sets)
        copied.last_dealer_banked_wagers = dict(self.last_dealer_banked_wagers)
        return copied

    def observe(self, event: Event) -> None:
        """Update the context with one table-level event."""
        kind = event.type_name()
        if kind == "table_opened":
            self.ruleset = rule_set_for(event.rule_set, dict(event.options))  # type: ignore[attr-defined]
            self.opened = True
            self.dealer_id = event.dealer_id  # type: ignore[attr-defined]
            self.rounds_in_game = 0
        elif kind == "dealer_changed":
            self.dealer_id = event.incoming_dealer_id  # type: ignore[attr-defined]
        elif kind == "tile_set_received":
            if not self.opened or self.tile_set_id is None:  # the first set goes straight in
                self.tile_set_id = event.tile_set_id  # type: ignore[attr-defined]
                self.tiles_since = event.occurred_at
                self.tiles_inspected = self.tile_set_id in self.inspected_sets
        elif kind == "tile_set_inspected":
            if event.suitable:  # type: ignore[attr-defined]
                self.inspected_sets.add(event.tile_set_id)  # type: ignore[attr-defined]
            self.tiles_inspected = self.tile_set_id in self.inspected_sets
            self.inspection_reported = False
        elif kind == "tile_set_replaced":
            self.tile_set_id = event.new_tile_set_id  # type: ignore[attr-defined]
            self.tiles_since = event.occurred_at
            self.tiles_inspected = self.tile_set_id in self.inspected_sets
            self.inspection_reported = self.tiles_overdue_reported = False
            self.rounds_in_game = 0  # the dealer restacks and mixes: a new game (9(b))
        elif kind == "dice_placed_in_shaker":
            self.dice_since = event.occurred_at
            self.dice_overdue_reported = False
