"""A replay reads a few rounds of its table, not its gaming day or the store's history, and
judges as the findings projection judged (issue #16).

The history is several gaming days of the same tables (Pai Gow and 21 Baccarat), played
by careless dealers, so a table's context (its tile set, dice, bank rotation, shoe)
carries from one day into the next, where the replay must take it up.
"""

import pytest

from audit.store.application import FactStore, StoreConfig
from consumers.replay_cli import load_replay
from projections import replay_points
from projections.findings import FindingsProjection
from projections.findings_view import FindingFilter
from tests.builders.floor_history import store_days

TABLE_RECORD_CODES = {"DATA-SEQ-GAP", "DATA-ID-REUSED"}
"""The record's findings a replay shows beside a round's own, filed under its table."""


def _rounds(store):
    rounds = set()
    for stored in store.facts():
        fact = stored.fact
        if fact.get("round_id"):
            rounds.add((fact["table_id"], fact["round_id"]))
    return sorted(rounds)


@pytest.mark.parametrize("rounds_between", [None, 3], ids=["points-as-built", "points-every-3"])
def test_every_round_s_replay_finds_what_the_findings_view_holds(
    store_config, rounds_between, monkeypatch
):
    # Every 3 rounds: a table's day (6 rounds) has a point after its opening, and rounds
    # straddle it, as a long day's do at the points as built (projections/replay_points.py).
    if rounds_between:
        monkeypatch.setattr(replay_points, "ROUNDS_BETWEEN", rounds_between)
    store = store_days(store_config, range(3))
    by_round: dict[tuple[str, str], set[str]] = {}
    at_table: dict[str, set[str]] = {}
    for row in FindingsProjection(store).view.select(FindingFilter()):
        if row["code"].startswith("ACC-"):  # the money's: judged by shift, not in a replay
            continue
        at_table.setdefault(row["table_id"], set()).add(row["finding_id"])
        if row["round_id"]:
            by_round.setdefault((row["table_id"], row["round_id"]), set()).add(row["finding_id"])
    rounds = _rounds(store)
    assert len({table for table, _ in rounds}) == 4
    assert len(by_round) > 10  # careless dealers: many rounds with findings
    later_days: set[str] = set()
    for table, round_id in rounds:
        replay = load_replay(store, round_id, table)
        found = {f.finding_id for f in replay.findings if not f.code.startswith("ACC-")}
        if "-20261121-" not in round_id:
            later_days |= {f.code for f in replay.findings}
        # Every finding of the round, and beside them only the table's own findings about it
        # (a sequence gap before one of its facts is filed under the table, not the round).
        assert by_round.get((table, round_id), set()) <= found, (table, round_id)
        assert found <= at_table.get(table, set()), (table, round_id)
        beside = found - by_round.get((table, round_id), set())
        others = [f for f in replay.findings if f.finding_id in beside]
        assert all(f.code in TABLE_RECORD_CODES and f.round_id is None for f in others), [
            (f.code, f.round_id) for f in others
        ]
    # A set received the day before and never replaced: only the earlier day's context says so.
    assert "PG-EQ-TILES-OVERDUE" in later_days


@pytest.fixture
def facts_read(monkeypatch):
    """Count every stored event a replay reads: by the log, by aggregate, and by scan."""
    read = []
    for name in ("facts", "facts_of"):
        original = getattr(FactStore, name)

        def counted(self, *args, _original=original, **kwargs):
            for fact in _original(self, *args, **kwargs):
                read.append(fact)
                yield fact

        monkeypatch.setattr(FactStore, name, counted)
    original_select = FactStore.round

    def round_counted(self, table_id, round_id):
        found = original_select(self, table_id, round_id)
        read.extend(found.fact_jsons)
        return found

    monkeypatch.setattr(FactStore, "round", round_counted)
    return read


def test_a_replay_reads_as_many_facts_at_four_times_the_history(tmp_path, facts_read):
    # The same last day (same seed, same date) after no earlier day, and after three.
    short = store_days(StoreConfig.sqlite(tmp_path / "n.sqlite"), [3])
    long = store_days(StoreConfig.sqlite(tmp_path / "4n.sqlite"), [0, 1, 2, 3])
    assert long.last_notification_id() > 3.5 * short.last_notification_id()
    last_day = [r for r in _rounds(short) if "20261124" in r[1]]
    assert len(last_day) >= 20
    for table, round_id in last_day:
        counts = []
        for store in (short, long):
            facts_read.clear()
            replay = load_replay(store, round_id, table)
            counts.append(len(facts_read))
            assert replay.round_id == round_id
        assert counts[0] == counts[1], (table, round_id, counts)
        assert counts[1] < short.last_notification_id() / 2  # its table's day, not the floor's


def test_a_replay_late_in_a_long_day_reads_about_the_rounds_between_points(tmp_path, facts_read):
    # 64 rounds at each table in the day: several points after its opening (every 8 rounds).
    store = store_days(StoreConfig.sqlite(tmp_path / "long.sqlite"), [0], rounds=64)
    per_round: dict[tuple[str, str], int] = {}
    started: dict[str, list[str]] = {}
    for stored in store.facts():
        fact = stored.fact
        if fact.get("round_id"):
            key = (fact["table_id"], fact["round_id"])
            per_round[key] = per_round.get(key, 0) + 1
            if fact["type"] == "round_started":
                started.setdefault(key[0], []).append(key[1])
    most = max(per_round.values())
    late = [(table, r) for table, rounds in started.items() for r in rounds[40:]]
    assert len(late) == 4 * 24
    bound = (replay_points.ROUNDS_BETWEEN + 2) * most  # the rounds since the point, and margin
    for table, round_id in late:
        facts_read.clear()
        replay = load_replay(store, round_id, table)
        points = len(facts_read)
        facts_read.clear()
        opening = load_replay(store, round_id, table, from_opening=True)
        assert points <= bound, (table, round_id, points, bound)
        assert len(facts_read) > 2 * points, (table, round_id, len(facts_read), points)
        assert replay.findings == opening.findings, (table, round_id)


def test_a_round_at_a_table_never_opened_is_read_by_its_table_not_by_scanning(
    tmp_path, facts_read, monkeypatch
):
    """A table whose ``table_opened`` never arrived (the round index's context 0): its round is
    replayed from the table's own facts, as the scan of every stored fact replayed it."""
    from audit.store.ingest import Accepted, Ingestor
    from consumers import replay_cli
    from projections.round_index import RoundIndexProjection
    from tests.builders.floor_history import _with, history

    store = store_days(StoreConfig.sqlite(tmp_path / "s.sqlite"), [0, 1, 2])
    unopened = [
        _with(e, table_id="PG-ORPHAN")
        for e in history([3])
        if e.table_id == "PG-T0" and e.type_name() not in ("table_opened", "table_closed")
    ]
    Ingestor(store).record_batch([Accepted(e, "t") for e in unopened], "orphan", len(unopened) - 1)
    RoundIndexProjection(store).catch_up()
    rounds = [e.round_id for e in unopened if e.type_name() == "round_completed"]
    assert len(rounds) >= 4
    for round_id in (rounds[0], rounds[len(rounds) // 2], rounds[-1]):
        assert RoundIndexProjection(store).view.contexts_of("PG-ORPHAN", round_id) == [0]
        facts_read.clear()
        bounded = replay_cli.render(load_replay(store, round_id, "PG-ORPHAN"))
        read = len(facts_read)
        with monkeypatch.context() as scan:  # the read this replaced: every stored fact
            scan.setattr(replay_cli, "_before_any_opening", lambda *args: None)
            facts_read.clear()
            scanned = replay_cli.render(load_replay(store, round_id, "PG-ORPHAN"))
        assert bounded == scanned
        assert len(facts_read) > store.last_notification_id() / 2
        assert read <= 2 * len(unopened) + 50, (read, len(unopened))  # the table's, not the floor's
