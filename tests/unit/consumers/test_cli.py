"""The ``tablewatch`` command itself: its version, a reader that goes away, and what each
command imports."""

import argparse
import ast
import importlib
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from consumers.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[3]


def test_version_is_printed(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("tablewatch 0.")


def test_a_closed_pipe_ends_quietly_as_sigpipe_would():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader = subprocess.Popen(
        [sys.executable, "-m", "consumers.cli", "schema"],  # 160 kB: more than a pipe holds
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert reader.stdout is not None
    reader.stdout.read(10)
    reader.stdout.close()  # as `| head -c 10` does
    assert reader.wait(timeout=60) == 141
    assert reader.stderr is not None
    assert reader.stderr.read() == b""


def test_each_command_is_registered_by_the_module_the_table_names():
    modules = {path.stem for path in (ROOT / "consumers").glob("*_cli.py")}
    assert set(COMMANDS.values()) == modules  # a new command module must be in the table
    for name in modules:
        commands = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(f"consumers.{name}").register(commands)
        assert set(commands.choices) == {c for c, module in COMMANDS.items() if module == name}


def test_help_and_a_mistyped_command_list_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = re.findall(r"^    (\S+)", capsys.readouterr().out, re.MULTILINE)
    assert sorted(listed) == sorted(COMMANDS)
    with pytest.raises(SystemExit) as done:
        main(["-h", "verify"])  # help before the command: the top level's, every command
    assert sorted(re.findall(r"^    (\S+)", capsys.readouterr().out, re.MULTILINE)) == sorted(
        COMMANDS
    )
    with pytest.raises(SystemExit) as done:
        main(["verfy", "floor.jsonl"])
    assert done.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "invalid choice: 'verfy'" in error
    assert all(repr(command) in error for command in COMMANDS)


LIBRARIES = ("kafka", "psycopg", "eventsourcing", "fastapi", "uvicorn", "prometheus_client")


@pytest.mark.parametrize(
    ("argv", "loaded"),
    [
        (["verify", "{file}", "--json"], set()),  # never a store, a broker or the web
        (["rules", "rank", "6-6", "4-5"], set()),
        (["schema"], set()),
        (["findings", "--json"], {"psycopg", "eventsourcing"}),  # the store, no Kafka, no web
    ],
)
def test_a_command_imports_only_its_own_module_and_what_it_uses(tmp_path, argv, loaded):
    (tmp_path / "floor.jsonl").write_text("")
    argv = [arg.format(file=tmp_path / "floor.jsonl") for arg in argv]
    probe = (
        "import contextlib, io, json, sys\n"
        "from consumers.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "print(json.dumps([status, sorted(sys.modules)]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEWATCH_DATA_DIR": str(tmp_path / "data")}
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ROOT, env=env, check=True)  # fmt: skip
    status, modules = json.loads(run.stdout.splitlines()[-1])
    assert status == 0
    assert {name for name in LIBRARIES if name in modules} == loaded
    other_commands = {f"consumers.{m}" for m in COMMANDS.values()} - {
        f"consumers.{COMMANDS[argv[0]]}"
    }
    assert not other_commands & set(modules)


def test_no_command_module_imports_another_but_run_its_report():
    # What two commands share lives in a module of its own (arguments, event_files,
    # finding_text), so a command's start imports its own module only. The main job (run)
    # prints the MGR as `report mgr` does.
    allowed = {("run_cli", "report_cli")}
    modules = set(COMMANDS.values())
    for name in modules:
        tree = ast.parse((ROOT / "consumers" / f"{name}.py").read_text())
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "consumers":
                imported |= {f"consumers.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
        others = {m.removeprefix("consumers.") for m in imported} & (modules - {name})
        assert {(name, other) for other in others} <= allowed, name


def test_a_sqlite_store_that_cannot_be_written_is_one_line_and_a_bad_statement_is_not(
    monkeypatch, capsys
):
    """A read-only copy of a store (or a full disk) is the user's to mend: one line, exit 2.
    SQL a defect got wrong is shown whole, as any defect is."""
    from consumers import findings_cli

    def read_only(settings):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(findings_cli, "open_store", read_only)
    assert main(["findings"]) == 2
    assert capsys.readouterr().err == (
        "tablewatch: the SQLite store failed: attempt to write a readonly database "
        "(TABLEWATCH_DATA_DIR)\n"
    )

    def bad_sql(settings):
        raise sqlite3.OperationalError("no such column: nope")

    monkeypatch.setattr(findings_cli, "open_store", bad_sql)
    with pytest.raises(sqlite3.OperationalError):
        main(["findings"])
