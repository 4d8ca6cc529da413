"""Where a replay may take a table up: its openings, and every few rounds since.

The findings projection stores a table's verification state at each of these points
(``replay_contexts``) and the round index files each round fact under the last point
before it (``round_contexts``), so a replay restores the state there and reads only
the facts since (``consumers/replay_cli.py``): a few rounds, not the table's day.
Both projections read the same facts in the same order and keep this clock in their
checkpointed state, so they agree on every point without asking each other.
"""

from __future__ import annotations

from audit.events.envelope import Event
from audit.events.rounds import RoundStarted
from audit.events.table import TableOpened

ROUNDS_BETWEEN = 8
"""A table's ``round_started`` facts from one point to the next after its opening: a
replay reads at most about this many rounds' facts (docs/history.md). Measured on 1.1M
facts (docs/console.md): 16 left the replay's p99 over HTTP at 108 ms; 8 halves what a
replay reads, for a point's row of 7 KB of state on average, twice as many rows."""


class ReplayPoints:
    """Counts each table's rounds since its last point; says which facts are points."""

    def __init__(self, rounds_between: int | None = None) -> None:
        """``rounds_between``: :data:`ROUNDS_BETWEEN` unless given (or patched, in tests)."""
        self.rounds_between = rounds_between or ROUNDS_BETWEEN
        self.days: dict[str, str] = {}
        """Table -> the gaming day of its last opening (a table never opened has no points)."""
        self.rounds: dict[str, int] = {}
        """Table -> its ``round_started`` facts since its last point."""

    def is_point(self, fact: Event) -> bool:
        """Take one fact; return whether the table's state just before it is a point."""
        table_id = fact.table_id
        if isinstance(fact, TableOpened):
            self.days[table_id] = fact.gaming_day.isoformat()
            self.rounds[table_id] = 0
            return True
        if not isinstance(fact, RoundStarted) or table_id not in self.days:
            return False
        self.rounds[table_id] += 1
        if self.rounds[table_id] <= self.rounds_between:
            return False
        self.rounds[table_id] = 1
        return True
