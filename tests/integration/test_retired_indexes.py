"""Indexes a newer one replaced are dropped from an older store, on SQLite and PostgreSQL: each
was kept up to date on every row written, for no read."""

import pytest

from audit.store.application import FactStore
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection

RETIRED = {
    FindingsProjection: {
        "findings_dealer": "findings (dealer_id)",
        "findings_code": "findings (code)",
        "findings_severity": "findings (severity)",
        "findings_player": "findings (player_id)",
    },
    HandHistoryProjection: {
        "hand_history_dealer": "hand_history (dealer_id)",
        "hand_history_player": "hand_history (player_id)",
    },
}


def _indexes(store, view) -> set[str]:
    with view.datastore.transaction(commit=False) as cursor:
        if store.is_postgres:
            cursor.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        rows = cursor.fetchall()
    return {row[0] if not isinstance(row, dict) else next(iter(row.values())) for row in rows}


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_an_older_stores_superseded_indexes_are_dropped_when_its_views_are_opened(store_config):
    store = FactStore(store_config)
    for kind, retired in RETIRED.items():
        view = kind(store).view
        with view.datastore.transaction(commit=True) as cursor:  # as an older store has them
            for name, target in retired.items():
                cursor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")
        assert set(retired) <= _indexes(store, view)
        view.create_table()  # what every open that creates tables (or `db migrate`) runs
        found = _indexes(store, view)
        assert not set(retired) & found, found
        assert {"findings_dealer_time", "hand_history_dealer_order"} & found
