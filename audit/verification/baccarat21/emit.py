"""Collect a table's findings, each citing its rule in the table's rule set.

A check names its money, ``at_stake`` (money moved wrongly) or ``exposure`` (the
action a procedure breach touched), in cents; the kind's catalogue entry says which
it carries (issue #22.2), and passing the other is a programming error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from audit.events.baccarat21.wagers import B21WagerPlaced, B21WagerRemoved
from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.findings.severities import severity_of
from audit.games.baccarat21.rulesets import RuleSet
from audit.games.money import Cents, to_dollars
from audit.verification.baccarat21.kinds import KINDS


@dataclass
class Emit:
    """Collects findings about one table (and one round, when ``round_id`` is given)."""

    table_id: str
    ruleset: RuleSet
    round_id: str | None = None
    dealer_id: str | None = None
    gaming_day: str | None = None
    round_events: Sequence[Event] = ()
    """The round's facts, read for the player at a finding's position."""
    findings: list[Finding] = field(default_factory=list)

    def __call__(
        self,
        code: str,
        *,
        recorded: str,
        expected: str,
        position: int | None = None,
        at_stake: Cents = 0,
        exposure: Cents = 0,
        events: Iterable[Event] = (),
        rule_key: str | None = None,
    ) -> None:
        """Record one finding of kind ``code``; ``at_stake`` and ``exposure`` are in cents."""
        kind = KINDS[code]
        if not kind.money.carries(at_stake=at_stake != 0, exposure=exposure != 0):
            raise ValueError(f"{code} carries money {kind.money.value!r}, not what was given")
        shown = list(events)
        first = shown[0] if shown else None
        occurred = first.occurred_at if first is not None else None
        staked = to_dollars(abs(at_stake))
        self.findings.append(
            Finding(
                code=code,
                severity=severity_of(kind, self.ruleset.name, staked),
                rule=self.ruleset.cite(rule_key or kind.rule_key),
                title=kind.title,
                table_id=self.table_id,
                round_id=self.round_id,
                position=position,
                dealer_id=self.dealer_id,
                recorded=recorded,
                expected=expected,
                at_stake=staked,
                event_ids=tuple(str(e.event_id) for e in shown),
                occurred_at=occurred.isoformat() if occurred is not None else None,
                exposure=to_dollars(abs(exposure)),
                # As the MGR files a round: the day the table opened for, else the fact's date.
                gaming_day=self.gaming_day
                or (occurred.date().isoformat() if occurred is not None else None),
                player_id=self._player(position),
            )
        )

    def _player(self, position: int | None) -> str | None:
        """Return the first player named on a wager at ``position`` in the round."""
        if position is None:
            return None
        return next(
            (
                e.player_id
                for e in self.round_events
                if isinstance(e, B21WagerPlaced | B21WagerRemoved)
                and e.position == position
                and e.player_id
            ),
            None,
        )
