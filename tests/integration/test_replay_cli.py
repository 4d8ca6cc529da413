"""``tablewatch replay ROUND_ID``: a round from a SQLite store, step by step, with its findings.

One small simulated shift is written with ``tablewatch simulate --out``, given one
wrong payout and a round id recorded at two tables, and stored with ``tablewatch
ingest --from-file``; each test replays a round of it through the command line.
"""

import json
import uuid
from decimal import Decimal

import pytest

from consumers.cli import main

SHIFT = ["--tables", "5", "--rounds", "6", "--seed", "1"]  # five tables: one is Californian
TWIN_ROUND = "TWIN-r1"


def _read(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _twin_rounds():
    """Two tables, each with a round of the same id: the id alone is ambiguous."""
    events = []
    for table in ("TWIN-A", "TWIN-B"):
        envelope = {"table_id": table, "occurred_at": "2026-11-21T20:00:00Z", "recorded_by": "d"}
        opened = {"type": "table_opened", "rule_set": "pa-2019", "gaming_day": "2026-11-21",
                  "dealer_id": "dealer-1"}  # fmt: skip
        started = {"type": "round_started", "round_id": TWIN_ROUND, "round_number": 1,
                   "dealer_id": "dealer-1"}  # fmt: skip
        for seq, body in enumerate((opened, started)):
            events.append({**envelope, **body, "seq": seq, "event_id": str(uuid.uuid4())})
    return events


@pytest.fixture(scope="module")
def shift(tmp_path_factory):
    """Simulate, tamper with one settlement, add the twin rounds, ingest: once for the module."""
    root = tmp_path_factory.mktemp("replay")
    path = root / "shift.jsonl"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TABLEWATCH_DATA_DIR", str(root / "data"))
        env.delenv("DATABASE_URL", raising=False)
        assert main(["simulate", *SHIFT, "--out", str(path)]) == 0
        events = _read(path)
        rule_sets = {e["table_id"]: e["rule_set"] for e in events if e["type"] == "table_opened"}
        # The last Pai Gow win of the shift is paid $5 too much.
        wrong = next(
            e
            for e in reversed(events)
            if e["type"] == "wager_settled" and e["kind"] == "pai_gow" and e["outcome"] == "win"
        )
        wrong["paid"] = str(Decimal(wrong["paid"]) + 5)
        events += _twin_rounds()
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
        assert main(["ingest", "--from-file", str(path)]) == 0
    return {"data": root / "data", "events": events, "rule_sets": rule_sets, "wrong": wrong}


@pytest.fixture(autouse=True)
def store(shift, monkeypatch):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(shift["data"]))
    monkeypatch.delenv("DATABASE_URL", raising=False)


def _round(shift, *, california, banked, exclude=()):
    """Return the id of the first round at a (non-)California table, banked by a player or not."""
    rounds = {}
    for e in shift["events"]:
        if e.get("round_id") and e["table_id"] in shift["rule_sets"]:
            rounds.setdefault(e["round_id"], (e["table_id"], set()))[1].add(e["type"])
    for round_id, (table, types) in rounds.items():
        is_california = shift["rule_sets"][table] == "california"
        if (
            is_california == california
            and ("bank_accepted" in types) == banked
            and "co_bank_requested" not in types
            and round_id not in exclude
        ):
            return round_id
    raise AssertionError("the simulated shift has no such round: change SHIFT")


def replay(capsys, *args):
    status = main(["replay", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _steps(out):
    return [line for line in out.splitlines() if line[:2] in {f"{n}." for n in range(1, 8)}]


def test_a_dealer_banked_round_replays_in_seven_steps(shift, capsys):
    round_id = _round(shift, california=False, banked=False, exclude={shift["wrong"]["round_id"]})
    status, out, _ = replay(capsys, round_id)
    assert status == 0
    assert out.startswith(f"Replay of round {round_id} at table ")
    assert ": no findings" in out.splitlines()[0]
    assert _steps(out) == [
        "1. The round",
        "2. Wagers",
        "3. Dice and the count to the starting position",
        "4. Stacks and the deal",
        "5. Hands as set",
        "6. Settlement",
        "7. Other findings",
    ]
    assert "banking: the dealer banks for the house" in out
    assert "count " in out
    assert "MISMATCH" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_player_banked_round_counts_from_the_bank(shift, capsys):
    round_id = _round(shift, california=False, banked=True)
    table = next(e["table_id"] for e in shift["events"] if e.get("round_id") == round_id)
    bank = next(
        e["position"]
        for e in shift["events"]
        if e.get("round_id") == round_id and e["type"] == "bank_accepted"
    )
    status, out, _ = replay(capsys, round_id, "--table", table)
    assert status == 0
    assert f"banking: player bank at Position {bank}" in out
    assert f"from Position {bank} as 1, counterclockwise:" in out
    assert "expected nets:" in out
    assert "MISMATCH" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_california_round_shows_the_player_dealer_and_the_fees(shift, capsys):
    round_id = _round(shift, california=True, banked=True)
    status, out, _ = replay(capsys, round_id)
    assert status == 0
    assert "rule set california" in out
    assert "banking: California player-dealer" in out
    assert "from Player-Dealer as 1, clockwise:" in out
    assert "action button: Seat" in out
    assert "collection fees (schedule option 1):" in out
    assert "MISMATCH" not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_wrong_payout_is_shown_under_the_settlement(shift, capsys):
    wrong = shift["wrong"]
    status, out, _ = replay(capsys, wrong["round_id"])
    assert status == 0
    settlement = out[out.index("6. Settlement") : out.index("7. Other findings")]
    assert "[MISMATCH]" in settlement
    assert "  >> CRITICAL PG-SETTLE-PAYOUT at " in settlement
    assert "     at stake: $5.00" in settlement
    assert "PG-SETTLE-PAYOUT" not in out[: out.index("6. Settlement")]


def test_an_unknown_round_is_one_line_and_exit_2(capsys):
    status, out, err = replay(capsys, "no-such-round")
    assert status == 2
    assert out == ""
    assert err == "tablewatch: no round 'no-such-round' in the store\n"


def test_a_round_at_another_table_is_one_line_and_exit_2(shift, capsys):
    round_id = _round(shift, california=False, banked=False)
    status, _, err = replay(capsys, round_id, "--table", "TWIN-A")
    assert status == 2
    assert err == f"tablewatch: no round {round_id!r} at table 'TWIN-A'\n"


def test_a_round_id_at_two_tables_names_them(capsys):
    status, _, err = replay(capsys, TWIN_ROUND)
    assert status == 2
    assert err == (
        f"tablewatch: round {TWIN_ROUND!r} was recorded at 2 tables: TWIN-A, TWIN-B; "
        "name one with --table\n"
    )
    status, out, _ = replay(capsys, TWIN_ROUND, "--table", "TWIN-B")
    assert status == 0
    assert f"Replay of round {TWIN_ROUND} at table TWIN-B" in out
    assert "DATA-ROUND-INCOMPLETE" in out[out.index("7. Other findings") :]
