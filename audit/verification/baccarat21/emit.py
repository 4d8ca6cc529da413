"""Collect a table's findings, each citing its rule in the table's rule set."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from audit.events.envelope import Event
from audit.games.baccarat21.rulesets import RuleSet
from audit.games.money import Cents, to_dollars
from audit.verification.baccarat21.kinds import KINDS
from audit.verification.findings import Finding


@dataclass
class Emit:
    """Collects findings about one table (and one round, when ``round_id`` is given)."""

    table_id: str
    ruleset: RuleSet
    round_id: str | None = None
    dealer_id: str | None = None
    findings: list[Finding] = field(default_factory=list)

    def __call__(
        self,
        code: str,
        *,
        recorded: str,
        expected: str,
        position: int | None = None,
        at_stake: Cents = 0,
        events: Iterable[Event] = (),
        rule_key: str | None = None,
    ) -> None:
        """Record one finding of kind ``code``; ``at_stake`` is in cents."""
        kind = KINDS[code]
        shown = list(events)
        first = shown[0] if shown else None
        self.findings.append(
            Finding(
                code=code,
                severity=kind.severity,
                rule=self.ruleset.cite(rule_key or kind.rule_key),
                title=kind.title,
                table_id=self.table_id,
                round_id=self.round_id,
                position=position,
                dealer_id=self.dealer_id,
                recorded=recorded,
                expected=expected,
                at_stake=to_dollars(abs(at_stake)),
                event_ids=tuple(str(e.event_id) for e in shown),
                occurred_at=first.occurred_at.isoformat() if first is not None else None,
            )
        )
