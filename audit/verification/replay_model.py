"""What an analyst's replay of one round is, whatever the game: titled steps of text, with each
finding placed under the step it concerns. Each game builds its own steps
(``audit/verification/<game>/replay.py``); ``tablewatch replay`` prints any of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from audit.games.money import Cents, to_dollars
from audit.verification.findings import Finding

OK = "ok"
MISMATCH = "MISMATCH"


class RoundNotInEventsError(ValueError):
    """Raised when the events given hold no round of that id (or hold it at several tables)."""


@dataclass(frozen=True)
class Step:
    """One step of a replay: its kind (a game's own name), title, lines and findings."""

    kind: str
    title: str
    lines: tuple[str, ...]
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class RoundReplay:
    """One round, step by step, with every finding placed under the step it concerns."""

    table_id: str
    round_id: str
    steps: tuple[Step, ...]
    position_names: tuple[str, ...] = ()
    """The layout's name for each position, to say where a finding is."""

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Return every finding of the round, step by step."""
        return tuple(f for step in self.steps for f in step.findings)

    def step(self, kind: str) -> Step:
        """Return the step of one kind."""
        return next(step for step in self.steps if step.kind == kind)


def mark(same: bool) -> str:
    """Return the mark for a recorded value beside the expected one."""
    return OK if same else MISMATCH


def dollars(amount: Decimal | Cents) -> str:
    """Return an amount as dollars: a ``Decimal`` of dollars or an ``int`` of cents.

    >>> dollars(Decimal("1234.5")), dollars(125), dollars(-250)
    ('$1,234.50', '$1.25', '-$2.50')
    """
    value = to_dollars(amount) if isinstance(amount, int) else Decimal(amount)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"
