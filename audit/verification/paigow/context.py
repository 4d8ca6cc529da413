"""What verification knows about a table when a round is judged: rules, equipment, banking history.

A :class:`TableContext` is built from the table's own events in order
(``table_opened``, tile sets, dice, dealer changes) and from each judged round
(banking rotation), so offline replay and the projections judge alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from audit.events.envelope import Event
from audit.events.table import TableOpened
from audit.games.paigow.options import DEFAULT_RULE_SET, OptionProblem, apply_options
from audit.games.paigow.rulesets import RULE_SETS, RuleSet, get_rule_set


@dataclass(frozen=True)
class Opening:
    """The rules a ``table_opened`` puts the table under, and what of it could not be taken."""

    ruleset: RuleSet
    problems: tuple[OptionProblem, ...] = ()
    unknown_rule_set: bool = False


def opening(event: TableOpened) -> Opening:
    """Return the rules a table opened under: its rule set with its options applied.

    An unknown rule set is judged as :data:`DEFAULT_RULE_SET`, and an option that cannot
    be taken leaves the rule set's own value: either way the table is still judged, and
    the problem is reported (``PG-TABLE-OPTION``), never dropped.
    """
    unknown = event.rule_set not in RULE_SETS
    base = get_rule_set(DEFAULT_RULE_SET if unknown else event.rule_set)
    ruleset, problems = apply_options(base, event.options)
    return Opening(ruleset, tuple(problems), unknown)


@dataclass
class TableContext:
    """One table's state as its events told it, for judging its next round."""

    table_id: str
    ruleset: RuleSet = field(default_factory=lambda: get_rule_set(DEFAULT_RULE_SET))
    opened: bool = False
    dealer_id: str | None = None
    gaming_day: str | None = None
    """The gaming day the table last opened for (ISO date), as the MGR files its rounds."""
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
            self.ruleset = opening(event).ruleset  # type: ignore[arg-type]
            self.opened = True
            self.dealer_id = event.dealer_id  # type: ignore[attr-defined]
            self.gaming_day = event.gaming_day.isoformat()  # type: ignore[attr-defined]
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
