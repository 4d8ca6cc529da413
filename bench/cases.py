"""Benchmark what the casebook's history costs an analyst: a casebook of N case facts beside
one of 4N.

Run: ``python3 bench/cases.py [--cases 1000 --notes 4 --repeats 15]``.
Each casebook is written to a fresh SQLite store (``--cases`` cases at N, four times as many
at 4N, each opened from a finding at one of 300 tables with ``--notes`` notes, every other
one closed) and its cases view built from zero once, timed (a one-off: a store migrated to
the view reads its casebook once). Then, each ``--repeats`` times, through
``consumers.web.cases.Cases`` as the console's requests call it:

- restart, first page: a new ``Cases`` on a new store connection (a restarted console
  process) and its first list page of 100, newest first;
- a page of 100, a table's page (its newest 3 cases: a table holds about 3 at N, so the
  answer is the same at both sizes), one case, and a note recorded on an open case, from a
  warm ``Cases``;
- the baseline, what every process's first case request cost before the view: every case
  fact read from the casebook's stream and folded into the cases in memory.

Figures are medians. Target: every held figure at 4N within 1.5x of the same at N (the
baseline and the build from zero read the whole casebook, and grow with it). Last line: JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from audit.store.application import FactStore, StoreConfig
from audit.store.casebook import CASEBOOK, Casebook, casebook_id
from consumers.web.auth import User
from consumers.web.cases import CaseFilter, Cases
from projections.cases_view import apply_case_fact, catch_up_cases

TABLES = 300
HELD = ("restart, first page", "page of 100", "table's page", "one case", "note recorded")
ANN = User("ann", "analyst")


def _facts(cases: int, notes: int) -> list[tuple[str, dict[str, Any]]]:
    facts: list[tuple[str, dict[str, Any]]] = []
    for n in range(1, cases + 1):
        case_id, table = f"C-{n:05d}", f"PG-{n % TABLES:03d}"
        facts.append(("case_opened", {
            "type": "case_opened", "case_id": case_id, "at": "2026-11-27T10:00:00+00:00",
            "by": "ann", "role": "analyst", "finding_id": f"F{n}", "code": "PG-SETTING",
            "severity": "warning", "rule": "PA 621a.6(c)", "title": "A hand set against the rules",
            "table_id": table, "round_id": f"R{n}", "at_stake": "25.00"}))  # fmt: skip
        for k in range(notes):
            facts.append(("case_note_added", {
                "type": "case_note_added", "case_id": case_id, "at": "2026-11-27T10:05:00+00:00",
                "by": "ann", "role": "analyst",
                "text": f"reviewed camera {k}: " + "x" * 120}))  # fmt: skip
        if n % 2:
            facts.append(("case_closed", {
                "type": "case_closed", "case_id": case_id, "at": "2026-11-27T11:00:00+00:00",
                "by": "ann", "role": "analyst", "disposition": "cleared", "note": ""}))  # fmt: skip
    return facts


def _store(path: Path, cases: int, notes: int) -> tuple[StoreConfig, int]:
    config = StoreConfig.sqlite(path)
    store = FactStore(config)
    book = Casebook(CASEBOOK)
    facts = _facts(cases, notes)
    for kind, fact in facts:
        book.record(kind, json.dumps(fact))
    store.save(book)
    return config, len(facts)


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _full_load(store: FactStore) -> int:
    """The baseline: every case fact read and folded, as each process's first request did."""
    cases: dict[str, dict[str, Any]] = {}
    for event in store.events.get(casebook_id()):
        if isinstance(event, Casebook.CaseRecorded):
            apply_case_fact(cases, json.loads(event.fact_json))
    return len(cases)


def measure(directory: Path, cases: int, notes: int, repeats: int) -> dict[str, float]:
    config, facts = _store(directory / f"cases-{cases}.sqlite", cases, notes)
    store = FactStore(config)
    built = _timed(lambda: catch_up_cases(store, Cases(store).view))
    samples: dict[str, list[float]] = {name: [] for name in (*HELD, "full load (before)")}
    warm = Cases(FactStore(config))
    open_ids = [f"C-{n:05d}" for n in range(2, cases + 1, 2)]
    for i in range(repeats):
        samples["restart, first page"].append(_timed(
            lambda: Cases(FactStore(config)).select(CaseFilter(), limit=100)))  # fmt: skip
        samples["page of 100"].append(_timed(lambda: warm.select(CaseFilter(), limit=100)))
        table = CaseFilter(table_id=f"PG-{(i * 37) % TABLES:03d}")
        samples["table's page"].append(  # its newest 3: the same answer at both sizes
            _timed(lambda q=table: warm.select(q, limit=3))  # type: ignore[misc]
        )
        case_id, text = open_ids[(i * 97) % len(open_ids)], f"bench {i}"
        samples["one case"].append(_timed(lambda c=case_id: warm.get(c)))  # type: ignore[misc]
        samples["note recorded"].append(
            _timed(lambda c=case_id, t=text: warm.note(ANN, c, t))  # type: ignore[misc]
        )
        samples["full load (before)"].append(_timed(lambda: _full_load(FactStore(config))))
    figures = {f"{name} s": statistics.median(values) for name, values in samples.items()}
    return {"case facts": float(facts), "view built from zero s": built, **figures}


def _shown(name: str, value: float) -> str:
    return f"{value:12,.0f}" if name == "case facts" else f"{value * 1e3:10.2f}ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=1_000, help="cases at N (default 1000)")
    parser.add_argument("--notes", type=int, default=4, help="notes a case (default 4)")
    parser.add_argument("--repeats", type=int, default=15, help="calls a figure (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tablewatch-bench-cases-") as directory:
        sizes = {size: measure(Path(directory), args.cases * scale, args.notes, args.repeats)
                 for size, scale in (("N", 1), ("4N", 4))}  # fmt: skip
    print(f"{'figure':32} {'N':>12} {'4N':>12} {'4N/N':>7}")
    ratios, over = {}, []
    for name in sizes["N"]:
        small, large = sizes["N"][name], sizes["4N"][name]
        ratios[name] = large / small if small else 0.0
        held = name.removesuffix(" s") in HELD
        if held and ratios[name] > 1.5:
            over.append(name)
        shown = (
            (lambda v: f"{v:12,.0f}") if name == "case facts" else (lambda v: f"{v * 1e3:10.2f}ms")
        )
        mark = "  (held)" if held else ""
        print(f"{name:32} {shown(small)} {shown(large)} {ratios[name]:6.2f}x{mark}")
    print(json.dumps({"bench": "cases", "sizes": sizes, "ratios": ratios, "over_target": over}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
