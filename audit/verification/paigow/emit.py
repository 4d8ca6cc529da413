"""How a check reports: :class:`Emit` collects one round's findings, cited in the table's rules.

Kept apart from ``verify.py`` so that the check modules can import it while
``verify.py`` imports the checks at its top (no import inside the hot path).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from audit.events.envelope import Event
from audit.verification.findings import ZERO, Finding
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.kinds import KINDS
from audit.verification.paigow.round_view import RoundView

_CENT = Decimal("0.01")


@dataclass
class Emit:
    """Collects findings for one round, citing each in the table's jurisdiction."""

    view: RoundView | None
    context: TableContext
    findings: list[Finding] = field(default_factory=list)

    def __call__(
        self,
        code: str,
        *,
        recorded: str,
        expected: str,
        position: int | None = None,
        at_stake: Decimal = ZERO,
        events: Iterable[Event] = (),
        rule_key: str | None = None,
    ) -> None:
        """Record one finding of kind ``code``; a rule the jurisdiction lacks yields none."""
        kind = KINDS[code]
        citations = self.context.ruleset.citations
        rule = citations.get(rule_key or kind.rule_key)
        if rule is None:
            return  # this table's rules have no such rule: nothing to break
        shown = list(events)
        evidence = tuple(str(e.event_id) for e in shown)
        first = shown[0] if shown else None
        self.findings.append(
            Finding(
                code=code,
                severity=kind.severity,
                rule=rule,
                title=kind.title,
                table_id=self.context.table_id,
                round_id=self.view.round_id if self.view else None,
                position=position,
                dealer_id=(self.view.dealer_id if self.view else None) or self.context.dealer_id,
                recorded=recorded,
                expected=expected,
                at_stake=at_stake.quantize(_CENT),
                event_ids=evidence,
                occurred_at=first.occurred_at.isoformat() if first is not None else None,
            )
        )


Check = Callable[[RoundView, TableContext, Emit], None]
