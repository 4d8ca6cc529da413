"""Findings: what verification reports, each with a stable code, its rule and the money at stake.

A :class:`FindingKind` is catalogue data: a stable code, a severity, a title and
the rule key it enforces, which each table's rule set turns into its own
jurisdiction's citation (``PA 621a.6(c)`` or ``NJ 19:47-10.6(c)``). A
:class:`Finding` is one occurrence, with the evidence that shows it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from typing import Any


class Severity(Enum):
    """How urgently a finding needs a person: alerts go out at WARNING and above."""

    INFO = "info"
    WARNING = "warning"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """Return 0 for info, 1 for warning, 2 for critical."""
        return list(Severity).index(self)


@dataclass(frozen=True)
class FindingKind:
    """One kind of irregularity: its stable code, severity, title and the rule it breaks."""

    code: str
    severity: Severity
    title: str
    rule_key: str
    """A key of the rule set's citations (audit/games/paigow/rulesets.py)."""


_NAMESPACE = uuid.UUID("0b5e8f4c-4a1d-4f7a-9a3e-2d6c8b1f0e97")
ZERO = Decimal("0.00")


@dataclass(frozen=True)
class Finding:
    """One irregularity found in one round (or at the table), with its evidence."""

    code: str
    severity: Severity
    rule: str
    """The citation in the table's jurisdiction, e.g. ``'PA 621a.6(c)'``."""
    title: str
    table_id: str
    round_id: str | None
    position: int | None
    dealer_id: str | None
    recorded: str
    expected: str
    at_stake: Decimal = ZERO
    """Dollars the irregularity put at risk or moved wrongly."""
    event_ids: tuple[str, ...] = field(default_factory=tuple)
    occurred_at: str | None = None

    @property
    def finding_id(self) -> str:
        """Return a stable id: the same finding found again has the same id (alerts dedupe)."""
        key = "|".join(
            [self.code, self.table_id, self.round_id or "", str(self.position), *self.event_ids]
        )
        return str(uuid.uuid5(_NAMESPACE, key))

    def as_dict(self) -> dict[str, Any]:
        """Return the finding as a JSON-ready dict."""
        return {
            "finding_id": self.finding_id,
            "code": self.code,
            "severity": self.severity.value,
            "rule": self.rule,
            "title": self.title,
            "table_id": self.table_id,
            "round_id": self.round_id,
            "position": self.position,
            "dealer_id": self.dealer_id,
            "recorded": self.recorded,
            "expected": self.expected,
            "at_stake": str(self.at_stake),
            "event_ids": list(self.event_ids),
            "occurred_at": self.occurred_at,
        }
