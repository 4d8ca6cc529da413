"""Table-level events any game shares: opening, dealers, closing."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from audit.events.envelope import PersonId, TableEvent, event
from audit.events.games import DEFAULT_GAME, GameName


@event
class TableOpened(TableEvent):
    """The table opened for gaming under a rule set, for one gaming day."""

    type: Literal["table_opened"] = "table_opened"
    game: GameName = DEFAULT_GAME
    rule_set: str = Field(
        description="A rule-set name of the game's, e.g. 'pa-2019' or 'pa-681a' "
        "(audit/games/*/rulesets)."
    )
    options: dict[str, str] = Field(
        default_factory=dict,
        description="Table options overriding the rule set's, e.g. {'vig_rounding': 'quarter'}.",
    )
    gaming_day: date
    dealer_id: PersonId


@event
class DealerChanged(TableEvent):
    """A dealer took over the table."""

    type: Literal["dealer_changed"] = "dealer_changed"
    outgoing_dealer_id: PersonId | None = None
    incoming_dealer_id: PersonId


@event
class TableClosed(TableEvent):
    """The table closed for the gaming day."""

    type: Literal["table_closed"] = "table_closed"
