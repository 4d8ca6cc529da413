"""The README's main job end to end: dev broker, exactly-once ingest, projections, findings."""

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from consumers.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_main_job_runs_a_shift_through_every_part(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    for variable in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    assert main(["run", "--tables", "3", "--rounds", "5", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    produced = int(out.split(" events produced")[0].rsplit(": ", 1)[1].replace(",", ""))
    assert f"ingest: {produced:,} messages: {produced:,} stored" in out
    assert "0 rejected" in out
    assert "15 rounds" in out
    assert "hash chain over" in out
    assert ": intact" in out
    assert "table state 3 tables" in out
    assert "findings: 0 (0 critical, 0 warning, 0 info)" in out
    assert list((tmp_path / "data" / "runs").glob("*/tablewatch.sqlite"))
    # It ends with the Master Game Report: each table's two shifts, both games, reconciled
    # to the cent.
    mgr = out.split("Master Game Report")[1].splitlines()
    cells = [line.split() for line in mgr if line.strip()]
    rows = [row for row in cells[1:] if row[1].startswith(("PG-", "B21-"))]  # after the day
    assert len(rows) == 6
    assert len({row[0] for row in rows}) == 1  # one gaming day, named on every row
    assert {(row[2], row[3]) for row in rows} == {
        ("paigow", "day"), ("paigow", "swing"), ("baccarat21", "day"), ("baccarat21", "swing"),
    }  # fmt: skip
    variance = cells[1].index("variance")  # by the header: columns after it may be added
    assert all(row[variance] == "0.00" for row in rows)  # accounting win = replayed win
    assert [row[2] for row in cells if len(row) > 2 and row[1] == "total"] == [
        "baccarat21", "paigow", "day"]  # fmt: skip


def test_make_runs_careless_day_ends_in_the_findings_its_labels_name(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    for variable in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL"):
        monkeypatch.delenv(variable, raising=False)
    args = ["run", "--tables", "4", "--rounds", "20", "--seed", "7", "--irregularities", "0.2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    (labels,) = (tmp_path / "data" / "runs").glob("*/labels.jsonl")
    count = len(labels.read_text().splitlines())
    assert count > 0
    assert f"{count:,} irregularities injected, labelled in {labels}" in out
    found = int(out.split("findings: ")[1].split(" ")[0])
    assert found >= 1  # a careless day is judged, not passed


def test_a_rate_out_of_range_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLEWATCH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    assert main(["run", "--irregularities", "1.5"]) != 0
    err = capsys.readouterr().err
    assert "--irregularities must be a rate from 0 to 1" in err
    assert "Traceback" not in err


def test_make_run_ends_serving_the_console_and_sends_its_alerts_to_the_webhook(tmp_path, hook):
    """The README's first command as a user runs it (``tablewatch run ... --serve``): the console's
    URL last, the console answering there, the run's alerts POSTed to the webhook, Ctrl-C."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "data")}
    for variable in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL"):
        env.pop(variable, None)
    env["TABLEWATCH_WEBHOOK_URL"] = hook.url
    args = ["run", "--tables", "3", "--rounds", "8", "--seed", "7", "--irregularities", "0.2"]
    run = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", *args, "--serve", "--port", "0"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        console = None
        assert run.stdout is not None
        for line in run.stdout:  # the run's report, then the console's address
            if line.startswith("console: "):
                console = line.split()[1]
                break
        assert console is not None, run.stderr.read() if run.stderr else ""
        deadline = time.monotonic() + 60
        while True:  # the address is printed as the server starts: it listens a moment later
            try:
                with urllib.request.urlopen(console + "login", timeout=10) as page:
                    assert page.status == 200
                break
            except urllib.error.URLError:
                assert run.poll() is None, run.stderr.read() if run.stderr else ""
                assert time.monotonic() < deadline, "the console never answered"
                time.sleep(0.1)
        while not hook.accepted():  # a careless day has warnings: the first pass sends them
            assert run.poll() is None, run.stderr.read() if run.stderr else ""
            assert time.monotonic() < deadline, "no alert reached the webhook"
            time.sleep(0.1)
    finally:
        run.send_signal(signal.SIGINT)
        code = run.wait(timeout=60)
    assert code == 0
    assert all(body["severity"] in ("warning", "critical") for _, body, _ in hook.requests)
