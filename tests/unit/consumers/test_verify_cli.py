"""``tablewatch verify FILE``: offline findings, readable or JSON, non-zero on a critical one."""

import json
import os
import random
import threading

from audit.events.catalogue import event_dict, event_json
from audit.simulation.shift import ShiftConfig, simulate_shift
from consumers.cli import main


def write_shift(path, tamper=None):
    events = [event_dict(e) for e in simulate_shift(ShiftConfig(2, 6), random.Random(5))]
    if tamper:
        tamper(events)
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return events


def test_a_clean_shift_has_no_findings_and_exits_zero(tmp_path, capsys):
    write_shift(tmp_path / "clean.jsonl")
    assert main(["verify", str(tmp_path / "clean.jsonl")]) == 0
    assert "findings: 0 (0 critical, 0 warning, 0 info)" in capsys.readouterr().out


def test_a_missing_event_is_a_gap_and_a_reused_id_is_critical(tmp_path, capsys):
    def tamper(events):
        del events[20]  # the table's sequence now skips one
        changed = dict(events[30], recorded_by="someone-else")
        events.insert(31, changed)  # the same event id with other content

    write_shift(tmp_path / "bad.jsonl", tamper)
    assert main(["verify", str(tmp_path / "bad.jsonl"), "--json"]) == 1
    findings = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    codes = {f["code"] for f in findings}
    assert {"DATA-SEQ-GAP", "DATA-ID-REUSED"} <= codes
    reused = next(f for f in findings if f["code"] == "DATA-ID-REUSED")
    assert reused["severity"] == "critical"
    assert reused["finding_id"]


def test_an_exact_duplicate_is_not_a_finding(tmp_path, capsys):
    write_shift(tmp_path / "dup.jsonl", lambda events: events.insert(11, events[10]))
    assert main(["verify", str(tmp_path / "dup.jsonl")]) == 0
    assert "findings: 0" in capsys.readouterr().out


def test_lines_that_are_not_events_are_named_on_stderr(tmp_path, capsys):
    path = tmp_path / "mixed.jsonl"
    write_shift(path)
    with path.open("a") as more:
        more.write("{not json\n")
    main(["verify", str(path)])
    err = capsys.readouterr().err
    assert "mixed.jsonl:" in err
    assert "not an event: not JSON" in err


def test_a_line_nested_a_thousand_deep_is_named_not_a_crash(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    write_shift(path)
    with path.open("a") as more:
        more.write("[" * 1000 + "]" * 1000 + "\n")
    assert main(["verify", str(path)]) == 0
    assert "recursion limit exceeded" in capsys.readouterr().err


def test_verify_reads_a_named_pipe_once(tmp_path, capsys):
    # A FIFO can be read once: its events are known by canonical digests, not by lines read
    # again, and it is not opened before it is read (stat, not open: a reader that opened and
    # closed it could leave its writer a broken pipe; that race is not reproduced here).
    events = [event_json(e) for e in simulate_shift(ShiftConfig(2, 6), random.Random(3))]
    spaced = json.dumps(json.loads(events[5]), sort_keys=True, indent=1).replace("\n", " ")
    lines = [*events, spaced]  # the same event again, in other bytes: dropped as a repeat
    assert sum(len(line) + 1 for line in lines) > 2**16  # more than a pipe's buffer holds
    (tmp_path / "floor.jsonl").write_text("".join(line + "\n" for line in lines))
    assert main(["verify", str(tmp_path / "floor.jsonl"), "--json"]) in (0, 1)
    from_file = capsys.readouterr().out
    fifo = tmp_path / "floor.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_text, args=("".join(f"{x}\n" for x in lines),))
    writer.start()
    assert main(["verify", str(fifo), "--json"]) in (0, 1)
    writer.join(timeout=10)
    assert not writer.is_alive()
    assert capsys.readouterr().out == from_file
    assert "DATA-ID-REUSED" not in from_file  # the repeat is no reused id, in either


def test_a_full_temporary_directory_ends_in_one_line_naming_it(tmp_path, capsys, monkeypatch):
    import errno
    import tempfile

    from audit.verification import first_arrivals

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    write_shift(tmp_path / "shift.jsonl")
    monkeypatch.setattr(first_arrivals, "MEMORY_IDS", 10)  # the ids move to disk at once
    monkeypatch.setattr(first_arrivals.tempfile, "TemporaryFile", full)
    assert main(["verify", str(tmp_path / "shift.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"tablewatch: No space left on device, moving event ids to disk in: {tempfile.gettempdir()}"
    ], err
