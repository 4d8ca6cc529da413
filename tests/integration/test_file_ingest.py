"""``tablewatch ingest --from-file`` and ``verify-chain``: resumable, exact, one-line errors."""

import json
import uuid

import pytest

from audit.events.examples import EXAMPLES
from consumers.cli import main


def write_events(path, count, bad_lines=()):
    lines = []
    for seq in range(count):
        kind = "table_opened" if seq == 0 else "no_more_bets"
        event = {**EXAMPLES[kind], "seq": seq, "event_id": str(uuid.uuid4())}
        if "round_id" in event:
            event["round_id"] = "r1"
        lines.append(json.dumps(event))
    for index, bad in bad_lines:
        lines.insert(index, bad)
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path / "data"


def test_ingest_stores_events_rejects_bad_lines_and_resumes(tmp_path, data_dir, capsys):
    source = tmp_path / "shift.jsonl"
    write_events(source, 50, bad_lines=[(10, "{not json"), (20, '{"type": "dice_thrown"}')])
    assert main(["ingest", "--from-file", str(source)]) == 0
    out = capsys.readouterr().out
    assert "52 messages: 50 stored" in out
    assert "2 rejected" in out
    # A second run resumes after the last stored line: nothing is stored twice.
    assert main(["ingest", "--from-file", str(source)]) == 0
    assert "0 messages: 0 stored" in capsys.readouterr().out
    assert main(["verify-chain"]) == 0
    assert "chain intact" in capsys.readouterr().out


def test_a_line_nested_a_thousand_deep_is_rejected_and_ingest_goes_on(tmp_path, data_dir, capsys):
    source = tmp_path / "shift.jsonl"
    write_events(source, 20, bad_lines=[(5, "[" * 1000 + "]" * 1000), (9, '{"type": ["x"]}')])
    assert main(["ingest", "--from-file", str(source)]) == 0
    assert "22 messages: 20 stored" in capsys.readouterr().out


def test_ingest_picks_up_lines_appended_later(tmp_path, data_dir, capsys):
    source = tmp_path / "shift.jsonl"
    write_events(source, 10)
    main(["ingest", "--from-file", str(source)])
    with source.open("a") as more:
        event = {**EXAMPLES["no_more_bets"], "seq": 10, "event_id": str(uuid.uuid4())}
        more.write(json.dumps(event) + "\n")
    capsys.readouterr()
    main(["ingest", "--from-file", str(source)])
    assert "1 messages: 1 stored" in capsys.readouterr().out


def test_another_file_of_the_same_name_is_another_source(tmp_path, data_dir, capsys):
    first, second = tmp_path / "a" / "shift.jsonl", tmp_path / "b" / "shift.jsonl"
    first.parent.mkdir()
    second.parent.mkdir()
    write_events(first, 10)
    write_events(second, 12)
    assert main(["ingest", "--from-file", str(first)]) == 0
    assert main(["ingest", "--from-file", str(second)]) == 0
    out = capsys.readouterr().out
    assert "10 messages: 10 stored" in out
    assert "12 messages: 12 stored" in out  # read from its start, not skipped as seen
    assert main(["ingest", "--from-file", str(second)]) == 0
    assert "0 messages" in capsys.readouterr().out


def test_a_file_shortened_after_ingest_is_refused_in_one_line(tmp_path, data_dir, capsys):
    source = tmp_path / "shift.jsonl"
    write_events(source, 10)
    main(["ingest", "--from-file", str(source)])
    capsys.readouterr()
    lines = source.read_text().splitlines(keepends=True)
    source.write_text("".join(lines[:6]))
    assert main(["ingest", "--from-file", str(source)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].endswith(
        "has 6 lines, but 10 were ingested from it: it was changed after it was ingested; "
        "the store keeps what it held, and nothing more is read from it"
    )


def test_missing_file_is_one_line_and_non_zero(tmp_path, data_dir, capsys):
    assert main(["ingest", "--from-file", str(tmp_path / "absent.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablewatch: No such file or directory")
    assert "Traceback" not in err


def test_unreachable_database_is_one_line(data_dir, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/nowhere")
    assert main(["verify-chain"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tablewatch: cannot reach 'postgresql://postgres@127.0.0.1:1/nowhere'")


def test_bad_configuration_is_one_line(data_dir, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "mysql://somewhere/db")
    assert main(["verify-chain"]) == 2
    assert "DATABASE_URL" in capsys.readouterr().err


def test_each_rejected_line_is_logged_with_where_it_was_and_why(tmp_path, data_dir, capsys, caplog):
    source = tmp_path / "shift.jsonl"
    write_events(source, 5, bad_lines=[(2, "{not json")])
    with caplog.at_level("WARNING", logger="consumers.ingest"):
        assert main(["ingest", "--from-file", str(source)]) == 0
    [rejected] = [r.getMessage() for r in caplog.records if r.name == "consumers.ingest"]
    assert rejected.startswith("rejected file:shift.jsonl#")
    assert rejected.split(": ", 1)[1].startswith("not JSON")
    assert ":3: " in rejected  # the line it was on
