"""The accounts' retirement (issue #16): the findings and reconciliation projections hold a
window of gaming days, not the history, and judge a history as before but for what
audit/accounting/reconcile.py documents ("Retirement")."""

from collections import Counter
from datetime import date

import pytest

from audit.accounting.reconcile import Reconciler
from audit.events.accounting import total
from audit.floor.verify import FloorVerifier
from audit.store.application import StoreConfig
from audit.verification.collusion import screens as collusion_screens
from audit.verification.stream import as_stored
from projections.checkpoint import dumps
from projections.equipment_stats import EquipmentStatsProjection
from projections.fact_projection import FactProjection
from projections.findings import FindingsProjection
from projections.hand_history import HandHistoryProjection
from projections.read_models import READ_MODELS
from projections.reconciliation import ReconciliationProjection
from projections.round_index import RoundIndexProjection
from projections.table_state import TableStateProjection
from projections.win_rates import WinRatesProjection
from tests.builders.floor_history import history, store_days

WINDOW = 2
"""Gaming days held after a later one opens: a short window, so 3 days against 12 shows it."""


@pytest.fixture
def window(monkeypatch):
    """Both projections retire days WINDOW after later ones open, the collusion screens keep
    WINDOW days for their recurrence test, and every write is checkpointed."""
    for projection in (FindingsProjection, ReconciliationProjection):
        monkeypatch.setattr(projection, "retire_after_days", WINDOW)
    monkeypatch.setattr(collusion_screens, "RECURRENCE_DAYS", WINDOW)
    monkeypatch.setattr(FactProjection, "checkpoint_every", 1)


STATEFUL = (
    FindingsProjection, ReconciliationProjection, EquipmentStatsProjection,
    HandHistoryProjection, RoundIndexProjection, TableStateProjection, WinRatesProjection,
)  # fmt: skip
"""Every read model that keeps state between facts, and so checkpoints it."""


def _stored_checkpoints(store):
    """Return each projection's stored checkpoint size in bytes, and the ledgers it holds."""
    sizes = {}
    for kind in STATEFUL:
        projection = kind(store)
        stored = projection.view.checkpoint(projection.tracking_name)
        assert stored is not None
        assert stored.position == store.last_notification_id()
        sizes[kind.__name__] = len(stored.state)
    held = ReconciliationProjection(store)
    held.warm_up()
    return sizes, len(held.reconciler.ledgers)


def test_the_checkpoints_hold_a_window_of_days_however_many_are_stored(tmp_path, window):
    """Every read model's state, the memory a service holds for it and what a restart loads,
    is as large after 12 gaming days as after 3: it depends on the tables, not the history."""
    assert set(STATEFUL) == {kind for kind in READ_MODELS if kind.state_names}  # none left out
    sizes, ledgers = {}, {}
    for days in (3, 12):
        store = store_days(
            StoreConfig.sqlite(tmp_path / f"{days}.sqlite"), range(days), projections=STATEFUL
        )
        sizes[days], ledgers[days] = _stored_checkpoints(store)
    assert ledgers[12] == ledgers[3] == 8 * (WINDOW + 1)  # 4 tables, 2 shifts, the window's days
    for name, at_n in sizes[3].items():
        assert sizes[12][name] < 1.2 * at_n, (name, sizes)
    # The same days without retirement: the judge's state grows with the history.
    unbounded = {}
    for days in (3, 12):
        verifier = FloorVerifier()
        verifier.collusion.recurrence_days = 10_000  # nothing retired there either
        for event in as_stored(history(range(days))):
            verifier.feed(event)
        unbounded[days] = len(dumps({"verifier": verifier}))
    assert unbounded[12] > 2.5 * unbounded[3]


def _judged(events, window_days):
    verifier = FloorVerifier(window_days)
    return [finding for event in events for finding in verifier.feed(event)]


def test_a_history_is_judged_as_without_retirement_but_old_slip_reuse(window):
    events = list(as_stored(history(range(8))))
    kept, retired = _judged(events, None), _judged(events, WINDOW)
    reused = {True: {}, False: {}}
    for found, within in ((kept, False), (retired, True)):
        reused[within] = {f.event_ids[1]: f for f in found if f.code == "ACC-SLIP-REUSED"}
    others = [[f for f in found if f.code != "ACC-SLIP-REUSED"] for found in (kept, retired)]
    assert others[0] == others[1]
    assert not [f for f in retired if f.code == "ACC-LATE-RECORD"]  # nothing came late
    # The simulation numbers each day's slips afresh: every day reuses the day before's.
    assert reused[True]
    assert set(reused[True]) < set(reused[False])
    day_of = {str(e.event_id): e.gaming_day for e in events if hasattr(e, "gaming_day")}
    for reuse, finding in reused[False].items():
        if reuse not in reused[True]:  # its first use was let go with its day
            first = day_of[finding.event_ids[0]]
            assert (day_of[reuse] - first).days > WINDOW


def _ledger_rows(events, window_days, batch=500):
    """Return the ledgers as the reconciliation projection writes them: at each batch's end."""
    reconciler, rows = Reconciler(window_days), {}
    for at, event in enumerate(events, start=1):
        reconciler.feed(event)
        if at % batch == 0 or at == len(events):
            rows.update((ledger.key, ledger.as_dict()) for ledger in reconciler.drain_changed())
    return rows, reconciler


def _but_reuse(row):
    """Return a ledger row without its slip-reuse codes (old reuse is not judged: documented)."""
    return {**row, "variance_codes": [c for c in row["variance_codes"] if c != "ACC-SLIP-REUSED"]}


def test_the_reconciliation_writes_the_same_ledgers_with_retirement():
    events = list(as_stored(history(range(8))))
    kept, _ = _ledger_rows(events, None)
    retired, reconciler = _ledger_rows(events, WINDOW)
    assert retired.keys() == kept.keys()
    assert {k: _but_reuse(row) for k, row in retired.items()} == {
        k: _but_reuse(row) for k, row in kept.items()
    }
    assert len(reconciler.ledgers) < len(kept) / 2


def test_a_count_after_the_window_is_a_late_record_not_folded_into_its_closed_day():
    events = list(as_stored(history(range(4))))
    first_day = date(2026, 11, 21)
    exchanged = Counter(e.removed_box_id for e in events if e.type_name() == "drop_box_exchanged")
    late = [
        e
        for e in events
        if e.type_name() == "drop_counted"
        and e.gaming_day == first_day
        and exchanged[e.box_id] == 1  # the simulation numbers boxes by table: some come again
    ]
    assert len(late) >= 8
    on_time = [e for e in events if e not in late]
    kept_rows, _ = _ledger_rows([*on_time, *late], None)
    retired_rows, _ = _ledger_rows([*on_time, *late], WINDOW)
    verifier = FloorVerifier(WINDOW)
    for event in on_time:
        verifier.feed(event)
    found = [f for event in late for f in verifier.feed(event)]
    assert [f.code for f in found] == ["ACC-LATE-RECORD"] * len(late)
    for count, finding in zip(late, found, strict=True):
        assert finding.exposure == total(count.cash) + count.coupons + count.markers + count.chips
        assert finding.at_stake == 0  # late, not wrong (docs/severities.md)
        assert finding.gaming_day == first_day.isoformat()
        assert f"drop_counted for {first_day.isoformat()} {count.shift}" in finding.recorded
    assert any(f.exposure > 0 for f in found)
    assert {f.event_ids[0] for f in found} == {str(e.event_id) for e in late}
    late_boxes = {e.box_id for e in late}
    for key, row in retired_rows.items():
        if row["box_id"] in late_boxes:
            assert not row["counts"]  # as written when the day was retired: no count
            assert kept_rows[key]["counts"]  # without retirement, the late counts reconcile
        else:
            assert _but_reuse(row) == _but_reuse(kept_rows[key])
