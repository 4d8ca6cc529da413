"""Replay points leave with their gaming day (issue #16): the points between a table's
openings are dropped once the accounts retire the day, so they stay flat as days
accumulate, and a round of a pruned day is replayed from its table's first point of that
day, with the same result (docs/history.md, "Replay points")."""

import pytest

from audit.store.application import StoreConfig
from consumers.replay_cli import load_replay, render
from projections import replay_points
from projections.findings import FindingsProjection
from tests.builders.floor_history import store_days

WINDOW = 2
"""Gaming days held after a later one opens: 3 days against 12 shows what is let go."""


@pytest.fixture
def points_every_3(monkeypatch):
    """A point every 3 rounds: a table's day of 12 rounds has 3 points after its opening."""
    monkeypatch.setattr(replay_points, "ROUNDS_BETWEEN", 3)


def _points(store):
    """Return the stored replay points: (table, gaming day, position), in stored order."""
    view = FindingsProjection(store).view
    with view.datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT table_id, gaming_day, position FROM replay_contexts")
        rows = [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in cursor.fetchall()]
    return sorted(rows, key=lambda row: row[2])


def _between(points):
    """Return the points that are not a table's first of its gaming day."""
    first: dict[tuple[str, str], int] = {}
    for table, day, position in points:
        first.setdefault((table, day), position)
    return [p for p in points if first[(p[0], p[1])] != p[2]]


def test_the_points_between_openings_stay_flat_as_days_accumulate(
    store_config, points_every_3, monkeypatch, tmp_path
):
    monkeypatch.setattr(FindingsProjection, "retire_after_days", WINDOW)
    counts = {}
    for days in (3, 12):
        config = store_config if days == 12 else StoreConfig.sqlite(tmp_path / "3.sqlite")
        points = _points(store_days(config, range(days), rounds=12))
        openings = {(table, day) for table, day, _ in points}
        counts[days] = (len(openings), len(_between(points)))
        kept_days = sorted({day for _, day, _ in _between(points)})
        assert len(kept_days) == min(days, WINDOW + 1), kept_days  # the window's days only
    assert counts[12][0] == 4 * counts[3][0] == 4 * 3 * 4  # every table's first of every day
    assert counts[12][1] == counts[3][1] > 0  # the points between: the window's, not history's


def test_a_round_of_a_pruned_day_replays_from_its_day_s_opening_with_the_same_findings(
    store_config, points_every_3, monkeypatch, tmp_path
):
    kept = store_days(StoreConfig.sqlite(tmp_path / "kept.sqlite"), range(6), rounds=12)
    monkeypatch.setattr(FindingsProjection, "retire_after_days", WINDOW)
    pruned = store_days(store_config, range(6), rounds=12)
    gone = {(t, p) for t, _, p in _between(_points(kept))} - {
        (t, p) for t, _, p in _between(_points(pruned))
    }
    assert gone  # the first days' points between openings were dropped
    first_day = "20261121"
    rounds = sorted(
        {(f.fact["table_id"], f.fact["round_id"]) for f in pruned.facts() if f.fact.get("round_id")}
    )
    old = [(table, r) for table, r in rounds if first_day in r]
    assert len(old) >= 40
    for table, round_id in old:
        before, after = load_replay(kept, round_id, table), load_replay(pruned, round_id, table)
        assert after.findings == before.findings, (table, round_id)
        # Read from the day's opening: what a replay from the opening shows, header and all.
        opening = load_replay(kept, round_id, table, from_opening=True)
        assert render(after) == render(opening), (table, round_id)
