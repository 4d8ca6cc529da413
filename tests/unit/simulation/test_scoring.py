"""Scoring findings against labels: the counting, stream findings placed in their rounds, and
the ``simulate --irregularities`` / ``score`` commands end to end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from audit.findings.finding import Finding, Severity
from audit.simulation import ShiftConfig
from audit.simulation.irregularities import careless_shift, kind_named
from audit.simulation.labels import Label
from audit.simulation.scoring import CodeScore, score, verify_for_scoring
from audit.verification.paigow.verify import verify_stream
from audit.verification.stream import as_stored
from consumers.cli import main
from consumers.run_cli import labels_path


def finding(code: str, round_id: str | None, position: int | None = None, table: str = "PG-01"):
    return Finding(code, Severity.WARNING, "rule", "title", table, round_id, position, None, "", "")


def label(codes: tuple[str, ...], round_id: str, position: int | None = None, table: str = "PG-01"):
    return Label(table, round_id, "kind", codes, position)


PAYOUT, OUTCOME, SHAKES = "PG-SETTLE-PAYOUT", "PG-SETTLE-OUTCOME", "PG-DEAL-SHAKES"


def test_a_matching_finding_is_a_true_positive_per_code():
    labels = [label((OUTCOME, PAYOUT), "R1", 2)]
    report = score([finding(OUTCOME, "R1", 2), finding(PAYOUT, "R1", 2)], labels)
    assert report.codes == {OUTCOME: CodeScore(OUTCOME, tp=1), PAYOUT: CodeScore(PAYOUT, tp=1)}
    assert report.perfect
    assert (report.total.tp, report.total.fp, report.total.fn) == (2, 0, 0)


def test_a_missed_code_is_a_false_negative_and_a_stray_finding_a_false_positive():
    labels = [label((OUTCOME, PAYOUT), "R1")]
    report = score([finding(PAYOUT, "R1"), finding(PAYOUT, "R2"), finding(SHAKES, "R1")], labels)
    assert report.codes[OUTCOME] == CodeScore(OUTCOME, fn=1)
    assert report.codes[PAYOUT] == CodeScore(PAYOUT, tp=1, fp=1)
    assert report.codes[SHAKES] == CodeScore(SHAKES, fp=1)
    assert (report.codes[OUTCOME].recall, report.codes[OUTCOME].precision) == (0.0, 1.0)
    assert (report.codes[PAYOUT].precision, report.codes[PAYOUT].recall) == (0.5, 1.0)
    assert not report.perfect


def test_table_round_and_a_labelled_position_must_all_agree():
    labels = [label((PAYOUT,), "R1", 3)]
    report = score(
        [
            finding(PAYOUT, "R1", 4),  # wrong position
            finding(PAYOUT, "R1", None),  # no position
            finding(PAYOUT, "R1", 3, table="PG-02"),  # wrong table
            finding(PAYOUT, "R9", 3),  # wrong round
        ],
        labels,
    )
    assert report.codes[PAYOUT] == CodeScore(PAYOUT, tp=0, fp=4, fn=1)


def test_a_label_without_a_position_matches_findings_at_any():
    report = score([finding(PAYOUT, "R1", 1), finding(PAYOUT, "R1", 5)], [label((PAYOUT,), "R1")])
    assert report.codes[PAYOUT] == CodeScore(PAYOUT, tp=1)


def test_repeated_false_alarms_count_once_per_code_round_and_position():
    stray = [finding(SHAKES, "R2", 1), finding(SHAKES, "R2", 1), finding(SHAKES, "R2", 2)]
    assert score(stray, []).codes[SHAKES] == CodeScore(SHAKES, fp=2)


def test_nothing_labelled_and_nothing_found_is_perfect():
    report = score([], [])
    assert report.codes == {}
    assert report.perfect
    assert (report.total.precision, report.total.recall) == (1.0, 1.0)


def test_the_report_as_json_and_as_a_table():
    labels = [label((PAYOUT,), "R1", 3)]
    report = score([finding(PAYOUT, "R1", 3), finding(SHAKES, "R2")], labels)
    data = report.as_dict()
    assert (data["labels"], data["findings"], data["perfect"]) == (1, 2, False)
    assert data["total"] == {
        "code": "total", "tp": 1, "fp": 1, "fn": 0, "precision": 0.5, "recall": 1.0
    }  # fmt: skip
    assert data["kinds"] == {"kind": 1}
    lines = report.lines()
    assert lines[0].split() == ["code", "TP", "FP", "FN", "precision", "recall"]
    assert lines[-1].split() == ["total", "1", "1", "0", "0.500", "1.000"]


@pytest.mark.parametrize("name", ["sequence_gap", "event_id_reused"])
def test_stream_findings_are_placed_in_the_round_they_are_about(name):
    config = ShiftConfig(tables=2, rounds_per_table=6)
    events, labels = careless_shift(
        config, random.Random(5), 0.5, kinds=(kind_named(name),), variances=False
    )
    played = list(events)
    raw = list(verify_stream(as_stored(played)))
    assert raw
    assert all(f.round_id is None for f in raw)
    placed = list(verify_for_scoring(played))
    assert {(f.table_id, f.round_id) for f in placed} == {
        (la.table_id, la.round_id) for la in labels
    }


# --- The commands ------------------------------------------------------------------------------


def simulate(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "shift.jsonl"
    argv = ["simulate", "--tables", "3", "--rounds", "12", "--seed", "4", "--out", str(out)]
    assert main([*argv, *extra]) == 0
    return out


def test_simulate_writes_labels_beside_the_events_and_score_passes(tmp_path, capsys):
    out = simulate(tmp_path, "--irregularities", "0.4")
    labels = tmp_path / "shift.labels.jsonl"
    lines = labels.read_text().splitlines()
    assert lines
    assert all(json.loads(line)["codes"] for line in lines)
    capsys.readouterr()
    assert main(["score", str(out), str(labels)]) == 0
    printed = capsys.readouterr().out
    assert "precision 1.000, recall 1.000" in printed
    assert main(["score", str(out), str(labels), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["perfect"] is True


def test_score_fails_when_a_label_is_missed_or_a_finding_unlabelled(tmp_path, capsys):
    out = simulate(tmp_path, "--irregularities", "0.4")
    labels = (tmp_path / "shift.labels.jsonl").read_text().splitlines()
    fewer = tmp_path / "fewer.labels.jsonl"
    fewer.write_text("\n".join(labels[1:]) + "\n")
    assert main(["score", str(out), str(fewer)]) == 1
    assert "NOT PERFECT" in capsys.readouterr().out


def test_a_clean_shift_scores_with_an_empty_labels_file(tmp_path):
    labels = tmp_path / "clean.labels.jsonl"
    out = simulate(tmp_path, "--labels", str(labels))
    assert labels.read_text() == ""
    assert main(["score", str(out), str(labels)]) == 0


def test_bad_input_ends_in_one_line_and_status_2(tmp_path, capsys):
    assert main(["simulate", "--irregularities", "1.5", "--out", str(tmp_path / "x.jsonl")]) == 2
    assert main(["simulate", "--tables", "1", "--rounds", "1", "--irregularities", "0.5"]) == 2
    out = simulate(tmp_path)
    bad = tmp_path / "bad.labels.jsonl"
    bad.write_text('{"table_id": "PG-01"}\n')
    assert main(["score", str(out), str(bad)]) == 2
    assert "bad.labels.jsonl:1: not a label" in capsys.readouterr().err


def test_the_labels_go_beside_the_events_unless_named():
    assert labels_path(Path("d/shift.jsonl"), None) == Path("d/shift.labels.jsonl")
    assert labels_path(Path("d/shift.txt"), None) == Path("d/shift.txt.labels.jsonl")
    assert labels_path(Path("d/shift.jsonl"), Path("t.jsonl")) == Path("t.jsonl")
    assert labels_path(None, None) is None
