"""The whole floor judged as one stream: every game's rounds, and every table's money.

Each stored fact goes to the game verifier (Pai Gow's today) and to the drop
reconciliation; the findings of both come back in the order they complete. A
finite stream's end also judges what only the end can: rounds left open, and gaps
in the day's slip series.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from audit.accounting.reconcile import Reconciler
from audit.events.envelope import Event
from audit.verification.findings import Finding
from audit.verification.paigow.verify import StreamVerifier


class FloorVerifier:
    """Judges a floor's stream one fact at a time."""

    def __init__(self) -> None:
        self.games = StreamVerifier()
        self.accounts = Reconciler()

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the findings it completes (often none)."""
        return self.games.feed(event) + self.accounts.feed(event)

    def finish(self) -> list[Finding]:
        """Judge what the end of a finite stream completes."""
        return self.games.finish() + self.accounts.slip_gaps()


def verify_floor(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a finite stream of facts in order, then what its end completes."""
    verifier = FloorVerifier()
    for event in events:
        yield from verifier.feed(event)
    yield from verifier.finish()
