"""A pass split across two processes (projections/split.py): the rows one process writes, a stop
that reaches both, and a second process that fails, loses its database or is killed."""

import os
import signal
import time

import pytest
from eventsourcing.persistence import OperationalError

from audit.store.application import FactStore, StoreConfig
from consumers.serve import KEPT_HERE, READ_MODELS, Service
from projections.hand_history import HandHistoryProjection
from projections.round_index import RoundIndexProjection
from projections.split import (
    DATABASE_FAULTS,
    SecondProcessFailedError,
    SecondProcessLostError,
    ViewMovedError,
    catch_up_split,
)
from projections.table_state import TableStateProjection
from projections.together import ReadModelDefect, catch_up_together
from projections.win_rates import WinRatesProjection
from tests.builders.gaming_days import Feed, gaming_day, view_rows

THERE = tuple(kind for kind in READ_MODELS if kind not in KEPT_HERE)


def _plain(rows):
    """Rows as text: the two databases hand back money and flags as different types."""
    return [tuple("" if v is None else str(int(v) if isinstance(v, bool) else v) for v in row)
            for row in rows]  # fmt: skip


def _stored(config: StoreConfig, days: int = 2) -> FactStore:
    store = FactStore(config)
    feed = Feed(store)
    for day in range(days):
        feed(gaming_day(day, seed=3 + day))
    return store


def _here(store: FactStore):
    return [kind(store) for kind in KEPT_HERE]


def _rows(store: FactStore) -> dict[str, list[tuple]]:
    return {kind.__name__: _plain(view_rows(kind(store)))
            for kind in READ_MODELS if kind is not RoundIndexProjection}  # fmt: skip


@pytest.fixture
def rebuilt(tmp_path):
    """Every view's rows from one process catching the same floor up alone."""
    store = _stored(StoreConfig.sqlite(tmp_path / "one.sqlite"))
    catch_up_together([kind(store) for kind in READ_MODELS])
    return _rows(store)


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_split_pass_writes_what_one_process_writes_and_leaves_nothing_to_replay(
    store_config, rebuilt
):
    store = _stored(store_config)
    last = store.last_notification_id()
    seconds: dict[str, float] = {}
    started = time.monotonic()
    assert catch_up_split(_here(store), THERE, store, batch=500, seconds=seconds) > 0
    taken = time.monotonic() - started
    assert _rows(store) == rebuilt
    assert set(seconds) == {"here", "second"}  # each group's wall time, neither past the pass's
    assert all(0 < s <= taken + 0.5 for s in seconds.values()), (seconds, taken)
    for kind in READ_MODELS:
        reopened = kind(store)
        reopened.warm_up()
        assert reopened.position == last, kind.__name__
        if kind not in KEPT_HERE:  # the second process stored its state at its end
            assert reopened.facts_read == 0, kind.__name__


def test_a_stop_reaches_the_second_process_at_its_next_batch(tmp_path, rebuilt):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    last = store.last_notification_id()
    catch_up_split(_here(store), THERE, store, batch=200, stopped=lambda: True)
    positions = {kind.__name__: kind(store).position for kind in READ_MODELS}
    assert all(0 < p < last for p in positions.values()), positions  # a batch each, then stopped
    catch_up_split(_here(store), THERE, store, batch=200)  # the next pass goes on
    assert _rows(store) == rebuilt


class BrokenHandHistory(HandHistoryProjection):
    """A read model with a defect: fails on its 1,000th fact."""

    def apply(self, fact, notification_id):
        if notification_id == 1_000:
            raise ZeroDivisionError("a defect in a read model")
        return super().apply(fact, notification_id)


class CutOffTableState(TableStateProjection):
    """A read model whose database goes away on its 1,000th fact."""

    def apply(self, fact, notification_id):
        if notification_id == 1_000:
            raise OperationalError("server closed the connection unexpectedly")
        return super().apply(fact, notification_id)


class KilledTableState(TableStateProjection):
    """A read model whose process is killed (as by the kernel's OOM killer) on its 1,000th fact."""

    def apply(self, fact, notification_id):
        if notification_id == 1_000:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().apply(fact, notification_id)


class OvertakenTableState(TableStateProjection):
    """A read model whose view another process writes, past it, while its pass runs."""

    def apply(self, fact, notification_id):
        if notification_id == 1_000:
            TableStateProjection(self.store).catch_up()  # a writer that took no lease
        return super().apply(fact, notification_id)


def test_a_view_another_process_wrote_under_the_second_is_raised_here_as_moved(tmp_path, rebuilt):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    with pytest.raises(ViewMovedError) as raised:
        catch_up_split(_here(store), [OvertakenTableState], store, batch=500)
    assert "the second read-model process" in str(raised.value)
    assert TableStateProjection(store).position == store.last_notification_id()  # it stands
    catch_up_split(_here(store), THERE, store, batch=500)  # what the service's next pass does
    assert _rows(store) == rebuilt


class UnwritableHandHistory(HandHistoryProjection):
    """A read model with a defect outside what it makes of a fact: its write fails."""

    def write_batch(self, rows, position):
        raise ZeroDivisionError("a defect in a read model's write")


def test_a_read_model_s_defect_there_stops_it_alone_and_is_raised_here_by_name(tmp_path):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    here = _here(store)
    with pytest.raises(ReadModelDefect) as raised:
        catch_up_split(here, [BrokenHandHistory, WinRatesProjection], store, batch=500)
    [(name, error)] = raised.value.errors.items()
    assert name == HandHistoryProjection.tracking_name
    assert str(error) == "ZeroDivisionError: a defect in a read model"
    last = store.last_notification_id()
    assert [m.position for m in here] == [last] * len(here)
    assert WinRatesProjection(store).position == last  # beside it there, it went on
    assert HandHistoryProjection(store).position < 1_000  # where its last write put it


def test_a_defect_in_the_second_process_is_raised_here_with_its_traceback(tmp_path):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    here = _here(store)
    with pytest.raises(SecondProcessFailedError) as raised:
        catch_up_split(here, [UnwritableHandHistory], store, batch=500)
    assert "ZeroDivisionError: a defect in a read model's write" in str(raised.value)
    assert "write_batch" in str(raised.value)
    assert not isinstance(raised.value, DATABASE_FAULTS)  # the service names it a defect
    assert [m.position for m in here] == [store.last_notification_id()] * len(here)


@pytest.mark.parametrize("kind", [CutOffTableState, KilledTableState])
def test_a_second_process_that_loses_its_database_or_is_killed_is_a_fault_retried(
    tmp_path, kind, rebuilt
):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    with pytest.raises(SecondProcessLostError) as raised:
        catch_up_split(_here(store), [kind], store, batch=500)
    assert isinstance(raised.value, DATABASE_FAULTS)  # the service backs off and tries again
    if kind is KilledTableState:
        assert "exit code -9" in str(raised.value)
    else:
        assert "server closed the connection" in str(raised.value)
    assert 0 < TableStateProjection(store).position < 1_000  # what it wrote before stays
    catch_up_split(_here(store), THERE, store, batch=500)  # the retry
    assert _rows(store) == rebuilt


def test_the_service_splits_only_a_long_pass(tmp_path, rebuilt):
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    feed = Feed(store)
    feed(gaming_day(0, seed=3))
    long_enough = store.last_notification_id()
    feed(gaming_day(1, seed=4))
    service = Service(store, processes=2, split_backlog=long_enough)

    def splits() -> float | None:
        return service.registry.get_sample_value("tablewatch_serve_split_passes_total")

    assert service.run_pass() > 0
    assert splits() == 1  # two days behind, a day's worth is enough: split
    for process in ("here", "second"):  # what bounds the pass, for an operator to see
        assert service.registry.get_sample_value(
            "tablewatch_serve_split_seconds", {"process": process}) > 0  # fmt: skip
    assert _rows(store) == rebuilt
    before = store.last_notification_id()
    feed(gaming_day(2, seed=5))
    service.split_backlog = store.last_notification_id() - before + 1  # one short: stays here
    assert service.run_pass() > 0
    assert splits() == 1
    assert all(m.position == store.last_notification_id() for m in service.read_models)
    assert Service(store, processes=1, split_backlog=1)._split_due() is False


@pytest.mark.parametrize("processes", [1, 2])
def test_the_service_writes_a_pass_in_batches_of_its_own_size(tmp_path, processes):
    store = _stored(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    service = Service(store, processes=processes, split_backlog=1, batch=300)
    service.run_pass(stopped=lambda: True)  # stopped after the first write, split or not
    positions = {kind.__name__: kind(store).position for kind in READ_MODELS}
    assert positions == {kind.__name__: 1 + 300 for kind in READ_MODELS}  # from id 1, one batch
