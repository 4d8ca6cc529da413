"""The compiled hot path: chosen only while up to date, and judging exactly as its source.

``setup.py`` compiles the Pai Gow engine and checks from their ``.py`` files;
``audit/_compiled.py`` picks, at import, the compiled module or its source.
"""

import json
import os
import random
import subprocess
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, SourceFileLoader
from pathlib import Path

import pytest

from audit import _compiled
from audit.events.catalogue import event_json, parse_event
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = EXTENSION_SUFFIXES[0]


@pytest.fixture
def module_pair(tmp_path):
    """A source and an extension file beside it (not a real extension: nothing loads it)."""
    source, extension = tmp_path / "rules.py", tmp_path / f"rules{SUFFIX}"
    source.write_text("X = 1\n")
    extension.write_bytes(b"")
    os.utime(source, (1_000, 1_000))
    os.utime(extension, (2_000, 2_000))  # built after the source was written
    return source, extension


def _spec(directory: Path):
    return _compiled.SourceWhenStale().find_spec("audit.games.rules", [str(directory)])


def test_the_source_of_an_extension_is_the_py_beside_it(tmp_path):
    assert _compiled.source_of(tmp_path / f"money{SUFFIX}") == tmp_path / "money.py"
    with pytest.raises(ValueError, match="not an extension"):
        _compiled.source_of(tmp_path / "money.py")


def test_an_up_to_date_extension_is_loaded(module_pair, monkeypatch):
    monkeypatch.delenv(_compiled.PURE_PYTHON, raising=False)
    source, extension = module_pair
    spec = _spec(source.parent)
    assert isinstance(spec.loader, ExtensionFileLoader)
    assert spec.origin == str(extension)


def test_an_extension_older_than_its_source_gives_way_with_a_warning(module_pair, monkeypatch):
    monkeypatch.delenv(_compiled.PURE_PYTHON, raising=False)
    source, _ = module_pair
    os.utime(source, (3_000, 3_000))  # edited after the build
    with pytest.warns(_compiled.StaleCompiledModule, match="older than rules.py"):
        spec = _spec(source.parent)
    assert isinstance(spec.loader, SourceFileLoader)
    assert spec.origin == str(source)


def test_an_installed_wheel_is_not_judged_by_its_file_times(module_pair, monkeypatch):
    """pip unpacks a wheel's files in any order: their times say nothing about the build."""
    monkeypatch.delenv(_compiled.PURE_PYTHON, raising=False)
    monkeypatch.setattr(_compiled, "CHECKOUT", False)
    source, extension = module_pair
    os.utime(source, (3_000, 3_000))
    assert _spec(source.parent).origin == str(extension)


def test_pure_python_is_run_on_request_without_a_warning(module_pair, monkeypatch):
    monkeypatch.setenv(_compiled.PURE_PYTHON, "1")
    source, _ = module_pair
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = _spec(source.parent)
    assert spec.origin == str(source)


def test_an_extension_without_its_source_is_loaded(module_pair, monkeypatch):
    """An installed wheel carries the compiled modules only."""
    monkeypatch.setenv(_compiled.PURE_PYTHON, "1")
    source, extension = module_pair
    source.unlink()
    assert _spec(extension.parent).origin == str(extension)


def test_imports_outside_the_compiled_packages_are_left_alone(module_pair):
    source, _ = module_pair
    assert _compiled.SourceWhenStale().find_spec("consumers.rules", [str(source.parent)]) is None


def _findings_json(events_file: Path, pure: bool) -> tuple[list[str], list[str]]:
    """Verify the file's events in a fresh interpreter; return its findings and the modules it
    ran compiled."""
    script = (
        "import json, sys\n"
        "from audit import _compiled\n"
        "from audit.events.catalogue import parse_event\n"
        "from audit.verification.paigow.verify import verify_stream\n"
        "events = [parse_event(line) for line in open(sys.argv[1])]\n"
        "findings = [json.dumps(f.as_dict(), default=str) for f in verify_stream(events)]\n"
        "print(json.dumps([findings, _compiled.compiled_modules()]))\n"
    )
    environment = {**os.environ, _compiled.PURE_PYTHON: "1" if pure else "0"}
    run = subprocess.run(
        [sys.executable, "-c", script, str(events_file)],
        capture_output=True, text=True, env=environment, cwd=ROOT, check=True, timeout=300,
    )  # fmt: skip
    findings, compiled = json.loads(run.stdout)
    return findings, compiled


def test_compiled_verification_finds_exactly_what_the_source_finds(tmp_path):
    """The same careless shifts, judged by the compiled modules and by the pure-Python source."""
    shift, _labels = careless_shift(ShiftConfig(10, 40), random.Random(11), 0.3)
    events = [parse_event(event_json(e)) for e in shift]
    events_file = tmp_path / "shift.jsonl"
    events_file.write_text("".join(event_json(e) + "\n" for e in events))

    compiled_findings, compiled = _findings_json(events_file, pure=False)
    if not compiled:
        pytest.skip("no compiled modules are built here (no C compiler at install)")
    pure_findings, none = _findings_json(events_file, pure=True)
    assert none == []
    assert "audit.verification.paigow.settlement.checks" in compiled
    assert len(pure_findings) > 50  # a careless floor: every kind of check has work to do
    assert compiled_findings == pure_findings
