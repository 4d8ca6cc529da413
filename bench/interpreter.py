"""What a bench's fresh interpreters pay before any work: said beside its figures.

A package installed from its wheel (deploy/Dockerfile) has its modules compiled at install.
Run from a checkout with ``PYTHONDONTWRITEBYTECODE`` set (as on the project's development
machines) and nothing compiled yet, every fresh interpreter compiles each module it imports,
so a bench's starts (a command run as a person runs it, the split's second process) are
longer than an installed package's. Measured here (medians of five, alternated, on a busy
machine): ``verify`` of a 200-line file 1.28 s compiling against 1.18 s compiled; a help,
which imports every command's module, about 0.4 s longer.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def interpreter() -> str:
    """Return Python's version and whether a fresh interpreter compiles the project's modules."""
    cached = Path(importlib.util.cache_from_source(str(ROOT / "consumers" / "cli.py"))).exists()
    if cached:
        how = "the project's bytecode cached"
    elif sys.dont_write_bytecode:
        how = "the project compiled at every interpreter's start (PYTHONDONTWRITEBYTECODE)"
    else:
        how = "the project's bytecode cached at first import"
    return f"Python {sys.version.split()[0]}, {how}"
