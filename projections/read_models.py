"""Every read model ``tablewatch serve`` keeps, and how a split pass groups them.

One list for the service, the benches and the tests, so a read model added to the service
is in every figure and every test of all of them. Apart from ``consumers/serve.py`` so that
a process that only rebuilds (the split's second process, a bench) imports the read models
and not the service's web, alerts and Kafka clients.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from audit.store.application import FactStore
from projections.equipment_stats import EquipmentStatsProjection
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.win_rates import WinRatesProjection

READ_MODELS: tuple[Callable[[FactStore], FactProjection], ...] = (
    FindingsProjection,
    HandHistoryProjection,
    TableStateProjection,
    WinRatesProjection,
    ReconciliationProjection,
    RoundIndexProjection,
    EquipmentStatsProjection,
)
"""Every read model the service keeps caught up."""

KEPT_HERE = (FindingsProjection, ReconciliationProjection, RoundIndexProjection)
"""The read models a split pass keeps in the service's own process: the findings' judge and the
reconciliation that borrows its reconciler, which must stay together, and the round index, which
needs nothing from them and is here only to even the two processes out. The rest go to the second
process, whose start (its interpreter and imports) counts against it (docs/rebuild-speed.md, "The
equipment view goes back" and "Tenth session": the round index here evens the two groups out on
SQLite and PostgreSQL)."""


def stored_lags(store: FactStore, recorder: Any, names: Iterable[str]) -> dict[str, int]:
    """Return, for each tracking name, the stored events after its stored position: what that
    read model has yet to apply, whichever process writes it. Every view keeps its position in
    the store's one tracking table, so any view's ``recorder`` reads them all. A database
    fault is raised to the caller."""
    last = store.last_notification_id()
    return {name: max(0, last - (recorder.max_tracking_id(name) or 0)) for name in names}
