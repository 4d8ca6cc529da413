"""The read models the web answers from, opened once per app and shared by every request.

Requests only read these views; ``tablewatch serve``'s projection loop writes them. No
request replays the store or catches a projection up: two writers of one view would
race for the same positions.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from audit.store.application import FactStore
from projections.findings import open_findings_view
from projections.findings_view import FindingsView
from projections.hand_history import HandHistoryView, open_hand_history_view
from projections.reconciliation import ReconciliationView, open_reconciliation_view
from projections.round_index import RoundIndexView, open_round_index_view
from projections.table_state import TableStateView, open_table_state_view
from projections.win_rates import WinRatesView, open_win_rates_view


@dataclass(frozen=True)
class Views:
    """The views one store's web reads."""

    findings: FindingsView
    table_state: TableStateView
    win_rates: WinRatesView
    reconciliation: ReconciliationView
    round_index: RoundIndexView
    hand_history: HandHistoryView

    @classmethod
    def open(cls, store: FactStore) -> Views:
        """Open every view in the store's database."""
        return cls(
            findings=open_findings_view(store),
            table_state=open_table_state_view(store),
            win_rates=open_win_rates_view(store),
            reconciliation=open_reconciliation_view(store),
            round_index=open_round_index_view(store),
            hand_history=open_hand_history_view(store),
        )


def views_of(request: Request) -> Views:
    """Return the app's views (a FastAPI dependency)."""
    views: Views = request.app.state.views
    return views
