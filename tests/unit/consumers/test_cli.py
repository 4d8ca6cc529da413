"""The ``tablewatch`` command itself: its version, and a reader that goes away."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from consumers.cli import main

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
