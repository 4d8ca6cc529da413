"""Collusion injected with labels (audit/simulation/collusion.py), scored, and asked for from
``tablewatch simulate --collusion`` (issue #21.5)."""

import json
import random

import pytest

from audit.findings.finding import Finding, Severity
from audit.simulation.collusion import Collusion, InvalidCollusionError
from audit.simulation.irregularities import careless_shift
from audit.simulation.labels import Label
from audit.simulation.scoring import score, verify_for_scoring
from audit.simulation.shift import ShiftConfig, simulate_shift
from consumers.cli import main
from consumers.score_cli import read_labels


def by_table(events):
    tables = {}
    for event in events:
        tables.setdefault(event.table_id, []).append(event)
    return tables


def test_the_tables_outside_a_scheme_play_as_on_the_clean_floor():
    config = ShiftConfig(6, 8)
    events, labels = careless_shift(
        config, random.Random(4), 0.0, collusion=Collusion.parse(["pair_results=1", "bank_walk=1"])
    )
    injected, clean = by_table(events), by_table(simulate_shift(config, random.Random(4)))
    schemed = {label.table_id for label in labels}
    assert len(schemed) == 2
    for table, facts in clean.items():
        if table not in schemed and table != "COUNT-ROOM":
            assert injected[table] == facts
    assert any(injected[table] != clean[table] for table in schemed)  # 8 rounds: a stacked deal


def _alarm(code, table):
    return Finding(code, Severity.WARNING, "r", "t", table, None, None, None, "", "")


def test_score_counts_every_alarm_of_an_injected_pattern_and_none_of_another():
    labels = [Label("PG-01", None, "pair_results", ("COL-PAIR-RESULTS",))]
    found = [
        _alarm("COL-PAIR-RESULTS", "PG-01"),
        _alarm("COL-PAIR-RESULTS", "PG-02"),  # another table: a false alarm of the pattern
        _alarm("COL-BANK-WALK", "PG-03"),  # not injected: a chance alarm, measured apart
    ]
    report = score(found, labels)
    assert report.codes["COL-PAIR-RESULTS"].as_dict() == {
        "code": "COL-PAIR-RESULTS", "tp": 1, "fp": 1, "fn": 0, "precision": 0.5, "recall": 1.0,
    }  # fmt: skip
    assert "COL-BANK-WALK" not in report.codes
    assert score([], labels).codes["COL-PAIR-RESULTS"].recall == 0.0


def test_a_labelled_floor_scores_each_injected_pattern():
    events, labels = careless_shift(
        ShiftConfig(2, 120), random.Random(3), 0.0,
        collusion=Collusion.parse(["pair_results=1", "error_benefit=1"]),
    )  # fmt: skip
    events = list(events)  # the labels are complete once the events are
    report = score(verify_for_scoring(events), labels)
    assert report.kinds["pair_results"] == 1
    assert report.codes["COL-PAIR-RESULTS"].tp == 1
    assert report.codes["COL-ERROR-BENEFIT"].tp == 1
    assert report.codes["PG-SETTLE-VIG-UNCOLLECTED"].tp >= 3  # the errors, round by round
    assert report.perfect


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ("insider=1", "unknown collusion pattern: 'insider'"),
        ("pair_results=0", "a count of 1 or more"),
        ("pair_results", "a count of 1 or more"),
    ],
)
def test_a_bad_request_is_refused(request_, message):
    with pytest.raises(InvalidCollusionError, match=message):
        Collusion.parse([request_])


def test_the_cli_refuses_bad_collusion_in_one_line(tmp_path, capsys):
    out = tmp_path / "shift.jsonl"
    for argv in (["--collusion", "insider=2"], ["--tables", "3", "--collusion", "pair_recurs=1"]):
        assert main(["simulate", "--rounds", "1", *argv, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert err.startswith("tablewatch: --collusion:")
        assert "Traceback" not in err


def test_the_cli_writes_the_collusion_labels_score_reads(tmp_path, capsys):
    out = tmp_path / "shift.jsonl"
    argv = ["simulate", "--tables", "8", "--rounds", "2", "--out", str(out)]
    assert main([*argv, "--collusion", "bank_walk=1", "--collusion", "pair_results=2"]) == 0
    labels = list(read_labels(tmp_path / "shift.labels.jsonl"))
    assert sorted(label.kind for label in labels) == ["bank_walk", "pair_results", "pair_results"]
    assert len({label.table_id for label in labels}) == 3
    lines = (tmp_path / "shift.labels.jsonl").read_text().splitlines()
    assert all(json.loads(line)["round_id"] is None for line in lines)
    capsys.readouterr()
