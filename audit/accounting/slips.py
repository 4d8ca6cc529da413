"""Numbered forms: each slip series, and the numbers missing from a gaming day's series.

Fill, credit and table-inventory slips are preprinted, sequentially numbered forms
whose every number must be accounted for (PA 465a.3(c), NJ 13:69D-1.23(d)). The
series are casino-wide, so a gap belongs to the cage, not to one table.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from audit.accounting.controls import ACCOUNTING_KINDS, cite
from audit.findings.finding import Finding, Severity

CAGE = "CAGE"
"""The table id of a finding about a casino-wide slip series rather than one table."""
SERIES = {"closer_recorded": "inventory", "fill_recorded": "fill", "credit_recorded": "credit"}
"""Each numbered form's series; an opener is the duplicate of a closer, not a new number."""

Used = dict[str, dict[int, tuple[str, str, str]]]
"""Series -> number -> (table, gaming day, event id) of its first use."""


def series_gaps(
    used: Used, jurisdiction_of: Callable[[str], str], gaming_day: str | None = None
) -> list[Finding]:
    """Return a finding for each number missing between the lowest and highest used in a
    series (on ``gaming_day``, or on any day); PA 465a.3(c): serial numbers accounted for."""
    findings: list[Finding] = []
    for series, numbers_used in used.items():
        numbers = sorted(n for n, (_, day, _) in numbers_used.items() if gaming_day in (None, day))
        for low, high in pairwise(numbers):
            before, after = numbers_used[low], numbers_used[high]
            for missing in range(low + 1, high):
                findings.append(Finding(
                    code="ACC-SLIP-GAP", severity=Severity.WARNING,
                    rule=cite(jurisdiction_of(before[0]), "serials"),
                    title=ACCOUNTING_KINDS["ACC-SLIP-GAP"].title,
                    table_id=CAGE, round_id=None, position=None, dealer_id=None,
                    recorded=f"{series} slip {missing} never recorded "
                             f"({low} at {before[0]}, {high} at {after[0]})",
                    expected=f"every {series} slip from {numbers[0]} to {numbers[-1]} "
                             "recorded or voided",
                    event_ids=(before[2], after[2]),
                    gaming_day=before[1] if before[1] == after[1] else None,
                ))  # fmt: skip
    return findings
