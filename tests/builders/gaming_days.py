"""Build gaming days of simulated facts, feed them into a store batch by batch, and read a
projection's rows as compared across rebuilds."""

import random
from datetime import UTC, datetime, timedelta

from audit.simulation.shift import ShiftConfig, simulate_shift
from audit.store.ingest import Accepted, Ingestor
from projections.equipment_stats import EquipmentStatsProjection
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.reconciliation import ReconciliationProjection
from projections.table_state import TableStateProjection
from projections.win_rates import WinRatesProjection

VIEWS = {
    # projection: (its table, its rows' columns as compared, their order)
    FindingsProjection: ("findings", "finding_id, code, severity, recorded, expected, "
                         "at_stake, table_id, event_ids, notification_id", "row_number"),
    HandHistoryProjection: ("hand_history", "*", "table_id, round_id, position"),
    TableStateProjection: ("table_state", "*", "table_id"),
    WinRatesProjection: ("win_rate_tallies", "*", "grouped_by, grp"),
    ReconciliationProjection: ("shift_ledgers", "*", "table_id, gaming_day, shift"),
    EquipmentStatsProjection: ("equipment_windows", "*", "screen, first_event"),
}  # fmt: skip


"""The findings' row_number is the order rows were inserted in, not what they say: the
order is compared, the number is not (a rebuild continues the old numbering)."""


def gaming_day(day, seed):
    """Three tables, Pai Gow and 21 Baccarat, two shifts: one gaming day's facts."""
    config = ShiftConfig(
        3, 8, start=datetime(2026, 11, 21, 20, tzinfo=UTC) + timedelta(days=day),
        games=(("paigow", 0.6), ("baccarat21", 0.4)), shifts=2,
    )  # fmt: skip
    return list(simulate_shift(config, random.Random(seed)))


class Feed:
    """Ingests days and parts of days into one store, each batch under a source of its own."""

    def __init__(self, store):
        self.store, self.batches = store, 0

    def __call__(self, events):
        self.batches += 1
        accepted = [Accepted(e, "t") for e in events]
        Ingestor(self.store).record_batch(accepted, f"batch-{self.batches}", len(events) - 1)


def view_rows(projection):
    table, columns, order = VIEWS[type(projection)]
    with projection.view.datastore.transaction(commit=False) as cursor:
        cursor.execute(f"SELECT {columns} FROM {table} ORDER BY {order}")
        rows = cursor.fetchall()
    return [tuple(row.values()) if isinstance(row, dict) else tuple(row) for row in rows]
