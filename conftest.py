"""Doctests of compiled modules run against the compiled module, as everything else does.

``--doctest-modules`` imports each ``.py`` under ``audit/`` and refuses a module whose
``__file__`` is not that file. A module ``setup.py`` compiled is loaded from its
extension (``audit/_compiled.py``), so for those the collector is handed the module as
imported: its doctests are found in its functions, compiled from that same source.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from audit._compiled import source_of

ROOT = Path(__file__).parent


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> object:
    collected = yield
    if file_path.suffix != ".py" or ROOT / "audit" not in file_path.parents:
        return collected
    for collector in collected or ():
        if type(collector).__name__ == "DoctestModule":  # pytest does not export the class
            name = ".".join(file_path.relative_to(ROOT).with_suffix("").parts)
            module = importlib.import_module(name)
            origin = Path(module.__file__ or "")
            if origin.suffix != ".py" and source_of(origin) == file_path:
                collector.obj = module  # type: ignore[attr-defined]
    return collected
