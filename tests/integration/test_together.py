"""Every read model from one read of the store: the same rows as each catching up alone, with
each fact read once."""

import pytest

from audit.store.application import FactStore, StoreConfig
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.together import catch_up_together
from projections.win_rates import WinRatesProjection
from tests.integration.test_checkpoints import Feed, gaming_day, view_rows

KINDS = (FindingsProjection, HandHistoryProjection, TableStateProjection, WinRatesProjection,
         ReconciliationProjection, RoundIndexProjection)  # fmt: skip


def _plain(rows):
    """Rows as text: the two databases hand back money and flags as different types."""
    return [tuple("" if v is None else str(int(v) if isinstance(v, bool) else v) for v in row)
            for row in rows]  # fmt: skip


def _stored(config: StoreConfig) -> FactStore:
    store = FactStore(config)
    feed = Feed(store)
    feed(gaming_day(0, seed=3))
    feed(gaming_day(1, seed=4))
    return store


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_together_gives_the_rows_each_alone_gives_reading_each_fact_once(store_config, tmp_path):
    alone = _stored(StoreConfig.sqlite(tmp_path / "alone.sqlite"))
    for kind in KINDS:
        kind(alone).catch_up()
    together = _stored(store_config)
    projections = [kind(together) for kind in KINDS]
    assert catch_up_together(projections, batch=500) > 0
    assert projections[0].facts_read == together.last_notification_id()
    assert sum(p.facts_read for p in projections[1:]) == 0
    for kind, projection in zip(KINDS, projections, strict=True):
        if kind is not RoundIndexProjection:
            assert _plain(view_rows(projection)) == _plain(view_rows(kind(alone))), kind.__name__
    assert catch_up_together([kind(together) for kind in KINDS]) == 0  # caught up: nothing


def test_a_projection_ahead_of_the_others_is_given_only_what_it_lacks(tmp_path):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    ahead = TableStateProjection(store)
    ahead.catch_up()
    before = view_rows(ahead)
    behind = HandHistoryProjection(store)
    catch_up_together([ahead, behind])
    assert view_rows(ahead) == before
    assert behind.position == ahead.position == store.last_notification_id()
