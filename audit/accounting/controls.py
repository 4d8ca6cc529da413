# ruff: noqa: E501  (a catalogue reads best one row per line, as paigow/kinds.py)
"""The accounting controls a drop reconciliation enforces: finding kinds, citations, thresholds.

The internal-control texts are not among the rule texts in ``shared/rules``; the
sections cited were read from the public codes (PA 58 Pa. Code ch. 465a, N.J.A.C.
13:69D). Where a section is not known, the citation says so instead of inventing
one.

Money variances are judged against two table options, ``variance_report_over``
and ``variance_escalate_at`` (dollars), defaulting to the NJ 13:69D-1.21(e) pair:
a discrepancy over $25 is reported, one of $100 or more goes further.

>>> thresholds = Thresholds.from_options({"variance_report_over": "10"})
>>> thresholds.severity(1000), thresholds.severity(1001), thresholds.severity(10_000)
(None, <Severity.WARNING: 'warning'>, <Severity.CRITICAL: 'critical'>)
>>> cite("NJ", "opener")
'NJ 13:69D-1.21(e)'
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from audit.findings.finding import FindingKind, Money, Severity
from audit.games.money import Cents, to_cents

_W, _I = Severity.WARNING, Severity.INFO
_S, _E, _N = Money.AT_STAKE, Money.EXPOSURE, Money.NONE

# A day's books, not a round: no replay step shows them (``step`` None).
_KINDS = (
    # Severity of the money kinds follows the thresholds; these are the floors shown.
    FindingKind("ACC-OPENER-MISMATCH", _W, "opener does not agree with the prior closer", "opener", _S, injectable=True),
    FindingKind("ACC-COUNT-DISAGREE", _W, "first and blind second count of a drop box disagree", "count", _S, injectable=True),
    FindingKind("ACC-DROP-BUYINS", _W, "counted drop differs from the buy-ins recorded at the table", "drop", _S, injectable=True),
    FindingKind("ACC-WIN-VARIANCE", _W, "win by accounting differs from the win replayed", "win", _S, injectable=True),
    FindingKind("ACC-SLIP-REUSED", _W, "a slip number used twice in its series", "serials", _N, injectable=False),
    FindingKind("ACC-SLIP-SEQUENCE", _W, "a slip number lower than one the table already used", "serials", _N, injectable=False),
    FindingKind("ACC-SLIP-GAP", _W, "a slip number missing from its series for the gaming day", "serials", _N, injectable=True),
    # A statistical prompt: no money went wrong, so none is at stake (#22.2).
    FindingKind("ACC-HOLD-BAND", _I, "replayed hold outside the band the game's variance allows", "hold", _N, injectable=False),
    # Money recorded late is not money moved wrongly: the amount recorded is its exposure.
    FindingKind("ACC-LATE-RECORD", _W, "money recorded for a gaming day already closed and reconciled", "late", _E, injectable=False),
)  # fmt: skip
ACCOUNTING_KINDS: dict[str, FindingKind] = {kind.code: kind for kind in _KINDS}
STATISTICAL_CODES = frozenset({"ACC-HOLD-BAND"})
"""Flags for review by chance alone now and then: never scored as irregularities."""

_NO_TEXT = "section not held"
CITATIONS: dict[str, dict[str, str]] = {
    "PA": {
        "opener": "PA 465a.37(f)",
        "count": "PA 465a.25",
        "drop": "PA 465a.36(b)",
        "win": "PA 465a.36(b)",
        "serials": "PA 465a.3(c)",
        "hold": "tablewatch statistical review (no regulation)",
        "late": "tablewatch reconciliation window (no regulation)",
    },
    "NJ": {
        "opener": "NJ 13:69D-1.21(e)",
        "count": f"NJ 13:69D ({_NO_TEXT})",
        "drop": "NJ 13:69D-1.20(a)",
        "win": "NJ 13:69D-1.20(a)",
        "serials": "NJ 13:69D-1.23(d)",
        "hold": "tablewatch statistical review (no regulation)",
        "late": "tablewatch reconciliation window (no regulation)",
    },
    "CA": {
        "opener": f"CA cardroom internal controls ({_NO_TEXT})",
        "count": f"CA cardroom internal controls ({_NO_TEXT})",
        "drop": "CA collection schedule: fees dropped by the house dealer",
        "win": f"CA cardroom internal controls ({_NO_TEXT})",
        "serials": f"CA cardroom internal controls ({_NO_TEXT})",
        "hold": "tablewatch statistical review (no regulation)",
        "late": "tablewatch reconciliation window (no regulation)",
    },
}
"""Jurisdiction -> rule key -> citation."""


def cite(jurisdiction: str, rule_key: str) -> str:
    """Return the citation of an accounting rule in a jurisdiction."""
    return CITATIONS.get(jurisdiction, CITATIONS["PA"])[rule_key]


@dataclass(frozen=True)
class Thresholds:
    """When a money variance becomes a finding, and when it is escalated (in cents)."""

    report_over: Cents = 2_500
    escalate_at: Cents = 10_000

    @classmethod
    def from_options(cls, options: dict[str, str]) -> Thresholds:
        """Read the table options; an unreadable value keeps the default (never stops judging)."""
        found = {}
        for field, key in (("report_over", "variance_report_over"),
                           ("escalate_at", "variance_escalate_at")):  # fmt: skip
            try:
                found[field] = to_cents(Decimal(options[key]))
            except (KeyError, InvalidOperation, ValueError):
                continue
        return cls(**found)

    def severity(self, variance: Cents) -> Severity | None:
        """Return the severity of a variance of ``variance`` cents, None when not reportable."""
        size = abs(variance)
        if size >= self.escalate_at:
            return Severity.CRITICAL
        if size > self.report_over:
            return Severity.WARNING
        return None
