"""The round events every game shares: a round begins, and a round is over.

The store closes a round's record, and the projections count a round, on these two
names whatever the game; each game's own round events lie between them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from audit.events.envelope import MAX_SEQ, Event, PersonId, event


@event
class RoundStarted(Event):
    """A round began at the table."""

    type: Literal["round_started"] = "round_started"
    round_number: int = Field(
        ge=1, le=MAX_SEQ, description="The round's number within the gaming day."
    )
    dealer_id: PersonId


@event
class RoundCompleted(Event):
    """The round is over: its cards or tiles collected and the round closed."""

    type: Literal["round_completed"] = "round_completed"
