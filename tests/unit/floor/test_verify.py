"""The floor verifier: each table's facts to its own game's verifier, every table's money to the
reconciliation."""

from __future__ import annotations

import random
from dataclasses import replace

from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.floor import verify as floor
from audit.simulation.shift import ShiftConfig, simulate_shift


class Recording:
    """A game verifier that keeps what it is fed."""

    fed: list[Event]

    def __init__(self) -> None:
        Recording.fed = []

    def feed(self, event: Event) -> list[Finding]:
        Recording.fed.append(event)
        return []

    def finish(self) -> list[Finding]:
        return []


def test_each_table_goes_to_the_verifier_of_the_game_it_opened_for(monkeypatch):
    events = list(simulate_shift(ShiftConfig(tables=3, rounds_per_table=3), random.Random(2)))
    other = events[0].table_id
    retagged = [
        replace(e, **{"game": "baccarat21"}) if e.type_name() == "table_opened"
        and e.table_id == other else e
        for e in events
    ]  # fmt: skip
    monkeypatch.setitem(floor.VERIFIERS, "baccarat21", Recording)
    findings = list(floor.verify_floor(retagged))
    assert {e.table_id for e in Recording.fed} == {other}
    assert Recording.fed == [e for e in retagged if e.table_id == other]
    # The Pai Gow tables are clean; the other game has no money reader in the reconciliation
    # here, so its rounds replay as nothing and its win shows as unexplained.
    assert {(f.code, f.table_id) for f in findings} <= {("ACC-WIN-VARIANCE", other)}
