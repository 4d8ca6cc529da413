"""Findings: what verification reports, each with a stable code, its rule and its money.

A :class:`FindingKind` is catalogue data: a stable code, a default severity, a
title, the rule key it enforces (each table's rule set turns it into its own
jurisdiction's citation, ``PA 621a.6(c)`` or ``NJ 19:47-10.6(c)``) and which kind
of money it carries. A :class:`Finding` is one occurrence, with the evidence that
shows it.

Two kinds of money (issue #22.2), never summed together:

- **at stake**: the amount that moved wrongly, or would have: an overpayment, a
  shortfall, uncollected vigorish, a wrong outcome's difference;
- **exposure**: the action in a round touched by a procedure breach whose money
  was correct. Such a finding has nothing at stake.

Severity follows the same line (#22.3, docs/severities.md): critical means money
moved wrongly, or a round that should have been voided was not; a procedure
breach with correct money is a warning, unless the rule set's table says otherwise.
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


class Money(Enum):
    """Which money a kind of finding carries (issue #22.2)."""

    AT_STAKE = "at stake"
    """Money moved wrongly, or would have: the finding's amount is at stake."""
    EXPOSURE = "exposure"
    """A procedure breach with correct money: the finding's amount is the action it touched."""
    EITHER = "at stake or exposure"
    """At stake where the breach moved money (then critical), else exposure: PG-CA-ORDER."""
    NONE = "none"
    """No money: the record, the table's options, a statistical prompt."""

    def carries(self, *, at_stake: bool, exposure: bool) -> bool:
        """Return whether a finding of this money kind may carry these amounts."""
        if at_stake and self not in (Money.AT_STAKE, Money.EITHER):
            return False
        return not (exposure and self not in (Money.EXPOSURE, Money.EITHER))


@dataclass(frozen=True)
class FindingKind:
    """One kind of irregularity, declared in one row: its code, default severity, title, rule,
    money kind, the replay step that shows it and whether the simulator injects it.

    docs/findings.md is generated from these rows (``tablewatch schema --findings``).
    """

    code: str
    severity: Severity
    title: str
    rule_key: str
    """A key of the rule set's citations (audit/games/paigow/rulesets.py)."""
    money: Money = Money.NONE
    step: str | None = None
    """The kind of the round replay's step it is shown under (``'count'``, ``'cards'``);
    ``None`` for a finding of no one round (the books, a statistical screen)."""
    injectable: bool = False
    """Whether the simulator injects it (a careless dealer, the books' mishaps, loaded dice):
    every code a simulator's label names is an injectable kind's, and every such kind is
    named by some label."""


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
    """Dollars moved wrongly, or that would have been: never a procedure breach's action."""
    event_ids: tuple[str, ...] = field(default_factory=tuple)
    occurred_at: str | None = None
    exposure: Decimal = ZERO
    """Dollars of action a procedure breach touched, its money correct; never summed with
    ``at_stake``."""
    gaming_day: str | None = None
    """The casino gaming day of the round (or table event), as the MGR reckons it."""
    player_id: str | None = None
    """The player at ``position``, where one is recorded (the bank's or a wager's)."""

    @property
    def finding_id(self) -> str:
        """Return a stable id: the same finding found again has the same id (alerts dedupe).

        Money, gaming day and player are left out of the key, so ids stay those of
        findings stored before they existed.
        """
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
            "exposure": str(self.exposure),
            "gaming_day": self.gaming_day,
            "player_id": self.player_id,
            "event_ids": list(self.event_ids),
            "occurred_at": self.occurred_at,
        }
