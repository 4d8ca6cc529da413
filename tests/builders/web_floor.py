"""A small simulated floor in a SQLite store, for the web's tests: ingested, every view caught up.

One mixed shift (Pai Gow and 21 Baccarat) through ``tablewatch simulate`` and ``ingest``;
the last Pai Gow win is paid $5 too much, so one round has a settlement finding, and two
tables record a round of the same id, so that id alone is ambiguous.
"""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from audit.store.application import FactStore
from consumers.cli import main
from consumers.serve import Service
from consumers.settings import Settings
from consumers.wiring import open_store

SHIFT = ["--tables", "3", "--rounds", "4", "--seed", "7", "--game", "mixed"]
TWIN_ROUND = "TWIN-r1"


def _twin_rounds() -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for table in ("TWIN-A", "TWIN-B"):
        envelope: dict[str, Any] = {
            "table_id": table,
            "occurred_at": "2026-11-21T20:00:00Z",
            "recorded_by": "d",
        }
        opened: dict[str, Any] = {"type": "table_opened", "rule_set": "pa-2019",
                                  "gaming_day": "2026-11-21", "dealer_id": "dealer-1"}  # fmt: skip
        started = {"type": "round_started", "round_id": TWIN_ROUND, "round_number": 1,
                   "dealer_id": "dealer-1"}  # fmt: skip
        for seq, body in enumerate((opened, started)):
            events.append({**envelope, **body, "seq": seq, "event_id": str(uuid.uuid4())})
    return events


def build_floor(root: Path) -> dict[str, Any]:
    """Simulate, tamper, ingest and catch every view up; return the store and what was made."""
    path = root / "shift.jsonl"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TABLEWATCH_DATA_DIR", str(root / "data"))
        env.delenv("DATABASE_URL", raising=False)
        env.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
        assert main(["simulate", *SHIFT, "--out", str(path)]) == 0
        events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        wrong = next(
            e
            for e in reversed(events)
            if e["type"] == "wager_settled" and e["kind"] == "pai_gow" and e["outcome"] == "win"
        )
        wrong["paid"] = str(Decimal(wrong["paid"]) + 5)
        events += _twin_rounds()
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
        assert main(["ingest", "--from-file", str(path)]) == 0
        store: FactStore = open_store(Settings.from_env())
    Service(store).run_pass()  # every read model caught up, as `tablewatch serve` keeps them
    games = {e["table_id"]: e.get("game", "paigow") for e in events if e["type"] == "table_opened"}
    return {"store": store, "events": events, "wrong": wrong, "games": games, "root": root}
