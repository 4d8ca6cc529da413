"""Each game's reading of its own rounds for the win by replay, registered by game name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from audit.accounting.baccarat21 import Baccarat21Money
from audit.accounting.ledger import HoldBand, ReplayedWin
from audit.accounting.paigow import PaiGowMoney
from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME


class GameMoney(Protocol):
    """A game's reading of its own round events for the win by replay."""

    @property
    def jurisdiction(self) -> str:
        """Return the table's jurisdiction, for citations."""
        ...

    def observe(self, event: Event, replay: ReplayedWin, band: HoldBand) -> bool:
        """Add what ``event`` moved to the house; return whether it completed a round."""
        ...


class Unread:
    """A game with no money reader yet: its slips and drop are kept, its rounds read as 0."""

    jurisdiction = "PA"

    def observe(self, event: Event, replay: ReplayedWin, band: HoldBand) -> bool:
        return event.type_name() == "round_completed"


GAMES: dict[str, Callable[[], GameMoney]] = {"paigow": PaiGowMoney, "baccarat21": Baccarat21Money}
"""Game name (as ``table_opened`` records it) -> its money reader."""

UNSEEN_JURISDICTION = GAMES[DEFAULT_GAME]().jurisdiction
"""The jurisdiction cited for a table no fact has shown: the default game's before its opening
(Pai Gow's PA 2019 rule set, so 'PA')."""
