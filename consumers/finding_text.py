"""Findings as a person reads them on a terminal: one finding, its money, and a summary.

Shared by the commands that print findings (``verify``, ``findings``, ``report``, ``run``),
so each stays the one module its command imports (``consumers/cli.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, TextIO

from audit.findings.finding import Finding, Severity


def print_findings(findings: Iterable[Finding], out: TextIO) -> Counter[Severity]:
    """Print findings as a readable table; return the count by severity."""
    counts: Counter[Severity] = Counter()
    for f in findings:
        counts[f.severity] += 1
        where = f"{f.table_id} {f.round_id or '-'} pos {'-' if f.position is None else f.position}"
        print(f"{f.severity.value.upper():8} {f.code:32} {where}", file=out)
        print(f"         {f.title} ({f.rule})", file=out)
        print(f"         recorded {f.recorded}; expected {f.expected}; {money_shown(f.as_dict())}",
              file=out)  # fmt: skip
    return counts


def money_shown(row: dict[str, Any]) -> str:
    """Return a finding's money as a person reads it: at stake, exposure, or neither."""
    at_stake, exposure = Decimal(row["at_stake"]), Decimal(row.get("exposure") or 0)
    parts = [f"at stake ${at_stake}"] if at_stake else []
    parts += [f"exposure ${exposure}"] if exposure else []
    return "; ".join(parts) or "no money"


def money_totals(rows: Iterable[dict[str, Any]]) -> tuple[Decimal, Decimal]:
    """Return the money at stake and the exposure of finding rows, each summed on its own."""
    at_stake = exposure = Decimal("0.00")
    for row in rows:
        at_stake += Decimal(row["at_stake"])
        exposure += Decimal(row.get("exposure") or 0)
    return at_stake, exposure


def summarise(findings: list[Finding], out: TextIO) -> None:
    """Print a findings summary: counts by severity and by code, and the two kinds of money."""
    summarise_rows([f.as_dict() for f in findings], out)


def summarise_rows(findings: list[dict[str, Any]], out: TextIO) -> None:
    """Print a findings summary from finding rows: counts by severity and by code, with money
    at stake and exposure totalled apart (issue #22.2: never added together)."""
    by_severity = Counter(f["severity"] for f in findings)
    shares = ", ".join(f"{by_severity[s.value]} {s.value}" for s in reversed(Severity))
    print(f"findings: {len(findings)} ({shares})", file=out)
    at_stake, exposure = money_totals(findings)
    print(f"  money at stake ${at_stake:,}; exposure (procedure breaches) ${exposure:,}", file=out)
    by_code: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for f in findings:
        by_code.setdefault((f["code"], f["severity"]), []).append(f)
    for (code, severity), rows in sorted(by_code.items()):
        staked, touched = money_totals(rows)
        money = "; ".join(
            [f"at stake ${staked:,}"] * bool(staked) + [f"exposure ${touched:,}"] * bool(touched)
        )
        print(f"  {len(rows):>6}  {code} ({severity})" + (f"  {money}" if money else ""), file=out)
