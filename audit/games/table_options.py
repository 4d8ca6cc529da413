"""Table options read outside a game's rules, which every game's tables may set.

A game's rule set reads its own options from ``table_opened.options``; these are
read by another part, so each game knows them and never reports them as unknown.
"""

from __future__ import annotations

READ_ELSEWHERE = frozenset({"variance_report_over", "variance_escalate_at"})
"""The drop reconciliation's variance thresholds (audit/accounting/controls.py)."""
