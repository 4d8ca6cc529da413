"""Every read model from one read of the store: the same rows as each catching up alone, with
each fact read once."""

import pytest
from eventsourcing.sqlite import SQLiteProcessRecorder

from audit.store.application import FactStore, StoreConfig
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.read_models import READ_MODELS
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.together import ReadModelDefect, catch_up_together
from tests.builders.floor_history import history
from tests.builders.gaming_days import Feed, gaming_day, view_rows

KINDS = READ_MODELS


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


def _tables(store: FactStore) -> dict[str, list[tuple]]:
    """Return every table of a SQLite store but the facts and their chains (stored at other
    times, so hashed differently), each row in full, in a stable order: every view, the
    positions and the checkpoints."""
    recorder = store.process_recorder
    assert isinstance(recorder, SQLiteProcessRecorder)
    with recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        names = [row[0] for row in cursor.fetchall()
                 if row[0] != "stored_events" and not row[0].startswith("tablewatch_")]  # fmt: skip
        found = {}
        for name in names:
            cursor.execute(f"SELECT * FROM {name}")
            found[name] = sorted((tuple(row) for row in cursor.fetchall()), key=repr)
    return found


def test_sharing_the_drop_reconciliation_leaves_every_table_as_each_alone_writes_it(
    tmp_path, monkeypatch
):
    # A careless floor over days that retire (a window of 2), fed in parts, and checkpoints at
    # every write: passes start mid-history, each from its checkpoint, borrowing or not.
    monkeypatch.setattr(FindingsProjection, "retire_after_days", 2)
    monkeypatch.setattr(ReconciliationProjection, "retire_after_days", 2)
    monkeypatch.setattr(FactProjection, "checkpoint_every", 1)
    borrowed, borrow = [], ReconciliationProjection.borrow

    def recorded(self, others):
        borrowed.append(borrow(self, others))
        return borrowed[-1]

    monkeypatch.setattr(ReconciliationProjection, "borrow", recorded)
    events = history(range(6))
    parts = [events[i : i + len(events) // 5] for i in range(0, len(events), len(events) // 5)]
    stores = {}
    for way in ("alone", "together"):
        store = FactStore(StoreConfig.sqlite(tmp_path / f"{way}.sqlite"))
        feed = Feed(store)
        for i, part in enumerate(parts):
            feed(part)
            if way == "alone":
                for kind in KINDS:
                    kind(store).catch_up(batch=300)
                continue
            projections = [kind(store) for kind in KINDS]
            if i == 2:  # as after a crash between two writes: the findings a part ahead
                projections[0].catch_up(batch=300)
            catch_up_together(projections, batch=300)
        stores[way] = _tables(store)
    assert stores["together"] == stores["alone"]
    assert borrowed == [i != 2 for i in range(len(parts))]  # borrowed, but when it stood behind
    assert len(stores["alone"]["shift_ledgers"]) > 20
    assert len(stores["alone"]["equipment_windows"]) > 20
    assert {"findings", "replay_contexts", "tracking", "projection_checkpoints"} <= set(
        stores["alone"]
    )


class BrokenTableState(TableStateProjection):
    """A read model a newcomer added with a defect: it raises on its 500th fact."""

    def apply(self, fact, notification_id):
        if notification_id == 500:
            raise ZeroDivisionError("a defect in a read model")
        return super().apply(fact, notification_id)


class BrokenReconciliation(ReconciliationProjection):
    """The reconciliation raising midway through a fact, on the reconciler it borrowed."""

    def apply(self, fact, notification_id):
        if notification_id == 500:
            raise ZeroDivisionError("a defect in the reconciliation")
        return super().apply(fact, notification_id)


def test_a_read_model_s_defect_stops_it_alone_and_the_others_write_the_whole_pass(tmp_path):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    kinds = [FindingsProjection, HandHistoryProjection, BrokenTableState, RoundIndexProjection]
    with pytest.raises(ReadModelDefect) as raised:
        catch_up_together([kind(store) for kind in kinds], batch=200)
    assert list(raised.value.errors) == [TableStateProjection.tracking_name]
    assert isinstance(raised.value.__cause__, ZeroDivisionError)
    last = store.last_notification_id()
    positions = [kind(store).position for kind in kinds]
    assert positions[:2] + positions[3:] == [last, last, last]
    assert 0 < positions[2] < 500  # where its last write before the defect put it
    mended = [kind(store) for kind in (FindingsProjection, TableStateProjection)]
    catch_up_together(mended)
    alone = _stored(StoreConfig.sqlite(tmp_path / "alone.sqlite"))
    for kind in (FindingsProjection, HandHistoryProjection, TableStateProjection):
        mine, theirs = kind(store), kind(alone)
        theirs.catch_up()
        assert _plain(view_rows(mine)) == _plain(view_rows(theirs)), kind.tracking_name


def test_a_defect_in_a_read_model_sharing_state_stops_the_one_it_shares_with(tmp_path):
    """The reconciliation borrows the judge's reconciler: half a fact applied to it leaves both
    with that state, so both stop, and both are judged again from their last write."""
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    models = [FindingsProjection(store), BrokenReconciliation(store), HandHistoryProjection(store)]
    with pytest.raises(ReadModelDefect) as raised:
        catch_up_together(models, batch=200)
    assert set(raised.value.errors) == {
        FindingsProjection.tracking_name,
        ReconciliationProjection.tracking_name,
    }
    last = store.last_notification_id()
    assert HandHistoryProjection(store).position == last
    assert FindingsProjection(store).position == ReconciliationProjection(store).position < 500
