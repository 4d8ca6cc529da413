"""The whole floor judged as one stream: every table's rounds by its own game, and every
table's money.

Each stored fact goes to its table's game verifier, chosen by the game its
``table_opened`` named, and to the drop reconciliation; the findings of both come
back in the order they complete. The ingest's own observations about a table's
stream (a sequence gap, a reused event id) go to that table's game, which reports
them under its own codes; a station that plays no game (the count room) goes to the
Pai Gow verifier's stream checks, which read no game rule there. A finite stream's
end also judges what only the end can: rounds left open, and gaps in the day's slip
series.

The equipment screens (audit/verification/equipment.py) read the same stream: the dice,
the starting positions and the 21 Baccarat shoes, judged over windows of play (a dice
set, a table's gaming day, a dealer's gaming day, a shoe), each window once when it
closes. A window that strays beyond chance is a warning finding; they live here, in
the one judge the findings view checkpoints, because their state is small and flat in
history (only the open windows' counts) and their findings belong with the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from audit.accounting.reconcile import Reconciler
from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.events.table import TableOpened
from audit.findings.finding import Finding
from audit.verification.baccarat21.verify import StreamVerifier as Baccarat21Verifier
from audit.verification.collusion.screens import CollusionScreens
from audit.verification.equipment import EquipmentScreens, screen_finding
from audit.verification.paigow.verify import StreamVerifier as PaiGowVerifier


class GameVerifier(Protocol):
    """A game's verifier: judges its tables' facts one at a time."""

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the findings it completes."""
        ...

    def finish(self) -> list[Finding]:
        """Judge what the end of a finite stream completes."""
        ...

    def table_state(self, table_id: str) -> Any:
        """Return all the verifier holds of one table."""
        ...

    def restore_table(self, table_id: str, state: Any) -> None:
        """Take up a table as :meth:`table_state` returned it."""
        ...


VERIFIERS: dict[str, Callable[[], GameVerifier]] = {
    "paigow": PaiGowVerifier,
    "baccarat21": Baccarat21Verifier,
}
"""Game name (as ``table_opened`` records it) -> its stream verifier."""


class FloorVerifier:
    """Judges a floor's stream one fact at a time."""

    def __init__(self, retire_after_days: int | None = None) -> None:
        """``retire_after_days``: the accounts' retirement window (None, offline: never)."""
        self.verifiers: dict[str, GameVerifier] = {}
        self.games: dict[str, str] = {}
        """Table -> the game it opened for."""
        self.accounts = Reconciler(retire_after_days, track_changes=False)
        self.screens = EquipmentScreens()
        self.collusion = CollusionScreens()  # audit/verification/collusion/screens.py

    def _verifier(self, game: str) -> GameVerifier:
        verifier = self.verifiers.get(game)
        if verifier is None:
            verifier = self.verifiers[game] = VERIFIERS[game]()
        return verifier

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the findings it completes (often none)."""
        # By exact class, not isinstance: the catalogue's classes are never subclassed
        # (tests/unit/verification/paigow/test_round_view.py holds it).
        if type(event) is TableOpened and event.game in VERIFIERS:
            self.games[event.table_id] = event.game
        game = self.games.get(event.table_id, DEFAULT_GAME)
        windows, _ = self.screens.feed(event)
        verifier = self.verifiers.get(game) or self._verifier(game)
        found = verifier.feed(event) + self.accounts.feed(event)
        collusion = self.collusion.feed(event, found)
        if windows:
            return found + [screen_finding(w) for w in windows if w.alarm] + collusion
        return found + collusion if collusion else found  # most facts: no window closes

    def game_after(self, event: Event) -> str:
        """Return the game whose verifier judges the event's table once it is fed."""
        if isinstance(event, TableOpened) and event.game in VERIFIERS:
            return event.game
        return self.games.get(event.table_id, DEFAULT_GAME)

    def table_state(self, table_id: str, game: str) -> Any:
        """Return what a game's verifier holds of a table (``table_state`` of that verifier)."""
        return self._verifier(game).table_state(table_id)

    def finish(self) -> list[Finding]:
        """Judge what the end of a finite stream completes."""
        found = [f for verifier in self.verifiers.values() for f in verifier.finish()]
        return found + self.accounts.slip_gaps() + self.collusion.finish()


def verify_floor(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a finite stream of facts in order, then what its end completes."""
    verifier = FloorVerifier()
    for event in events:
        yield from verifier.feed(event)
    yield from verifier.finish()
