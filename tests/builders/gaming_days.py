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
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.win_rates import WinRatesProjection

_FINDING_COLUMNS = (
    "finding_id, code, severity, rule, title, table_id, round_id, position, dealer_id, recorded, "
    "expected, at_stake, occurred_at, event_ids, notification_id, exposure, gaming_day, player_id"
)
VIEWS = {
    # projection: the tables it writes, each as (table, its columns as compared, their order)
    FindingsProjection: (
        ("findings", _FINDING_COLUMNS, "row_number"),
        # A replay point's state is pickled: a process's hash seed orders its sets, so the
        # points are compared by where they are, not by their bytes.
        ("replay_contexts", "table_id, position, game, gaming_day", "table_id, position"),
    ),
    HandHistoryProjection: (("hand_history", "*", "table_id, round_id, position"),),
    TableStateProjection: (("table_state", "*", "table_id"),),
    WinRatesProjection: (("win_rate_tallies", "*", "grouped_by, grp"),),
    ReconciliationProjection: (("shift_ledgers", "*", "table_id, gaming_day, shift"),),
    EquipmentStatsProjection: (
        ("equipment_windows", "*", "screen, first_event"),
        ("equipment_tenure", "*", "equipment, table_id, item, since"),
    ),
    RoundIndexProjection: (("round_contexts", "*", "table_id, round_id, context"),),
}
"""Every row a read model writes. The findings' row_number is the order rows were inserted
in, not what they say: the order is compared, the number is not (a rebuild continues the old
numbering)."""


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
    """Return every row the projection's view holds, each table's in its order, tagged by table."""
    rows = []
    with projection.view.datastore.transaction(commit=False) as cursor:
        for table, columns, order in VIEWS[type(projection)]:
            cursor.execute(f"SELECT {columns} FROM {table} ORDER BY {order}")
            rows += [(table, *(row.values() if isinstance(row, dict) else row))
                     for row in cursor.fetchall()]  # fmt: skip
    return rows
