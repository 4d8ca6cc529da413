"""Checkpointed read models: a restart reads only the facts stored since its position, however
long the history, and gives the rows a rebuild from zero gives."""

import pickle

import pytest

from audit.store.application import FactStore, StoreConfig
from projections.checkpoint import CheckpointError, loads
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from tests.builders.gaming_days import (
    VIEWS,
    Feed,
    gaming_day,
    view_rows,
)


@pytest.fixture
def every_write(monkeypatch):
    """Checkpoint at every write: a restart then reads exactly the facts since its position."""
    monkeypatch.setattr(FactProjection, "checkpoint_every", 1)


def forget_view(projection):
    """Drop the view's rows, position and checkpoint; keep the facts."""
    tracking = getattr(projection.view, "tracking_table_name", "tracking")
    p = "%s" if projection.store.is_postgres else "?"
    with projection.view.datastore.transaction(commit=True) as cursor:
        for table, _, _ in VIEWS[type(projection)]:
            cursor.execute(f"DELETE FROM {table}")
        for name in (tracking, "projection_checkpoints"):
            where = "application_name" if name == tracking else "tracking_name"
            cursor.execute(f"DELETE FROM {name} WHERE {where} = {p}", (projection.tracking_name,))


@pytest.mark.parametrize("projection_class", list(VIEWS), ids=lambda c: c.__name__)
def test_a_restart_reads_the_facts_since_its_position_however_long_the_history(
    store_config, projection_class, every_write
):
    store = FactStore(store_config)
    feed = Feed(store)
    read_on_restart = []
    for day in range(4):
        events = gaming_day(day, seed=7)  # each day as long as the others
        half = len(events) // 2
        feed(events[:half])
        projection_class(store).catch_up(batch=400)  # caught up in the middle of the day
        restarted = projection_class(FactStore(store_config))
        assert restarted.catch_up() == 0
        assert restarted.facts_read == 0  # caught up: no fact read, no state loaded
        position = restarted.position
        feed(events[half:])
        restarted = projection_class(FactStore(store_config))
        restarted.catch_up(batch=400)
        assert restarted.facts_read == store.last_notification_id() - position
        read_on_restart.append(restarted.facts_read)
    # The same half day read on each restart after one, two and three days of history (the
    # first day's half is a little longer: the store's first facts create streams).
    assert len(set(read_on_restart[1:])) == 1


@pytest.mark.parametrize("every", [1, 300])
@pytest.mark.parametrize("projection_class", list(VIEWS), ids=lambda c: c.__name__)
def test_a_restart_mid_day_gives_the_rows_of_a_rebuild_from_zero(
    store_config, projection_class, every, monkeypatch
):
    monkeypatch.setattr(FactProjection, "checkpoint_every", every)
    store = FactStore(store_config)
    feed = Feed(store)
    days = [gaming_day(day, seed=10 + day) for day in range(3)]
    feed(days[0])
    feed(days[1])
    feed(days[2][:100])
    projection_class(store).catch_up(batch=250)
    feed(days[2][100:300])
    projection_class(FactStore(store_config)).catch_up(batch=250)  # restarted mid-day
    feed(days[2][300:])
    position = projection_class(FactStore(store_config)).position
    restarted = projection_class(FactStore(store_config))
    restarted.catch_up(batch=250)
    # The facts since its position, and fewer than ``every`` replayed up to it.
    since = store.last_notification_id() - position
    assert since <= restarted.facts_read < since + every
    by_restarts = view_rows(restarted)

    forget_view(restarted)
    rebuilt = projection_class(FactStore(store_config))
    rebuilt.catch_up(batch=250)
    assert view_rows(rebuilt) == by_restarts
    assert by_restarts


@pytest.mark.parametrize("projection_class", list(VIEWS), ids=lambda c: c.__name__)
def test_warming_up_a_caught_up_view_reads_no_fact(tmp_path, projection_class, every_write):
    config = StoreConfig.sqlite(tmp_path / "store.sqlite")
    Feed(FactStore(config))(gaming_day(0, seed=5))
    projection_class(FactStore(config)).catch_up()
    restarted = projection_class(FactStore(config))
    restarted.warm_up()  # as a restart that has a fact to apply does first
    restarted.warm_up()  # once is enough
    assert restarted.facts_read == 0


def test_a_checkpoint_of_other_code_is_replayed_past_not_loaded(store_config, every_write):
    store = FactStore(store_config)
    feed = Feed(store)
    events = gaming_day(0, seed=3)
    feed(events[: len(events) // 2])
    FindingsProjection(store).catch_up()
    p = "%s" if store.is_postgres else "?"
    with FindingsProjection(store).view.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"UPDATE projection_checkpoints SET code = {p}", ("other code",))
    feed(events[len(events) // 2 :])
    restarted = FindingsProjection(FactStore(store_config))
    restarted.catch_up()
    assert restarted.facts_read == store.last_notification_id()  # replayed from the first
    by_replay = view_rows(restarted)
    with FindingsProjection(store).view.datastore.transaction(commit=True) as cursor:
        cursor.execute(f"UPDATE projection_checkpoints SET code = {p}", ("other code",))
    replayed = FindingsProjection(FactStore(store_config))
    replayed.warm_up()  # nothing new to write: the warm-up stores its own checkpoint
    assert replayed.facts_read == store.last_notification_id()
    again = FindingsProjection(FactStore(store_config))
    again.warm_up()
    assert again.facts_read == 0
    forget_view(restarted)
    rebuilt = FindingsProjection(FactStore(store_config))
    rebuilt.catch_up()
    assert view_rows(rebuilt) == by_replay


class _Runs:
    def __reduce__(self):
        return (print, ("ran",))


def test_a_checkpoint_naming_anything_but_state_is_refused(capsys):
    with pytest.raises(CheckpointError, match=r"builtins\.print"):
        loads(pickle.dumps({"state": _Runs()}))
    assert capsys.readouterr().out == ""
    with pytest.raises(CheckpointError, match="not a state"):
        loads(pickle.dumps([1, 2]))


def test_a_graceful_stop_stores_every_state_so_a_restart_reads_no_fact(store_config):
    """The service's stop (projections/together.py ``rest_together``): each read model's state
    stored at its position, the reconciliation's from the judge's reconciler it borrowed, and
    the next start's rows those of a rebuild from zero."""
    from projections.read_models import READ_MODELS
    from projections.together import catch_up_together, rest_together

    store = FactStore(store_config)
    feed = Feed(store)
    feed(gaming_day(0, seed=3))
    feed(gaming_day(1, seed=4))
    models = [kind(store) for kind in READ_MODELS]
    catch_up_together(models)  # a day is far shorter than checkpoint_every: no checkpoint yet
    stateful = [m for m in models if m.state_names]
    for model in stateful:  # without a rest, a start replays the facts since its checkpoint
        started = type(model)(FactStore(store_config))
        started.warm_up()
        assert started.facts_read > 0, type(model).__name__

    assert rest_together(models) == len(stateful)
    assert rest_together(models) == 0  # stored there already: nothing again

    restarted = [kind(FactStore(store_config)) for kind in READ_MODELS]
    for model in restarted:
        model.warm_up()
        assert model.facts_read == 0, type(model).__name__
    assert rest_together(restarted) == 0  # unchanged since: no state loaded to store it again

    feed(gaming_day(2, seed=5))
    catch_up_together(restarted)
    rebuilt_store = FactStore(store_config)
    for model in restarted:
        rows = view_rows(model)
        forget_view(model)
        rebuilt = type(model)(rebuilt_store)  # from zero: no rows, position or checkpoint
        rebuilt.catch_up()
        assert view_rows(rebuilt) == rows, type(model).__name__
