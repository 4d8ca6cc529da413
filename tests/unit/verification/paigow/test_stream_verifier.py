"""The stream verifier keeps each table's rounds apart, and closes open rounds in a fixed order."""

from __future__ import annotations

import uuid
from dataclasses import replace
from itertools import chain, zip_longest

from audit.events.envelope import Event
from audit.events.rounds import RoundCompleted
from audit.verification.paigow.verify import verify_stream
from tests.builders.paigow_rounds import clean_round
from tests.builders.paigow_stream import Table, codes


def at_table(events: list[Event], table_id: str) -> list[Event]:
    """Return the events as another table's, each with an id of its own."""
    return [replace(e, table_id=table_id, event_id=uuid.uuid4()) for e in events]


def interleave(*streams: list[Event]) -> list[Event]:
    return [e for e in chain.from_iterable(zip_longest(*streams)) if e is not None]


def judged(events: list[Event]) -> list[tuple[str, str]]:
    return sorted((f.table_id, f.code) for f in verify_stream(events))


def test_two_tables_rounds_under_one_round_id_are_judged_apart():
    """Both tables number their rounds alike; a mix would show each tile twice."""
    clean = clean_round().events
    broken = clean_round()
    dice = broken.first("dice_revealed")
    broken.replace(dice, announced_total=dice.announced_total + 1)  # PG-DEAL-DICE-TOTAL
    other = at_table(broken.events, "PG-10")
    assert {e.round_id for e in clean if e.round_id} == {e.round_id for e in other if e.round_id}

    together = judged(interleave(clean, other))

    assert together == sorted(judged(clean) + judged(other))
    assert ("PG-10", "PG-DEAL-DICE-TOTAL") in together
    assert not [code for _, code in together if code.startswith("PG-TILE-")]


def test_rounds_left_open_are_closed_table_by_table_as_first_seen():
    unfinished = [e for e in clean_round().events if not isinstance(e, RoundCompleted)]
    tables = ["PG-30", "PG-10", "PG-20"]  # first seen in this order, sorted otherwise

    findings = list(verify_stream(interleave(*(at_table(unfinished, t) for t in tables))))

    incomplete = [f.table_id for f in findings if f.code == "DATA-ROUND-INCOMPLETE"]
    assert incomplete == tables


def test_an_open_round_is_judged_against_the_table_before_a_table_event_changed_it():
    """A new tile set mid-round starts a new game (PA 621a.9(b)): that must not reach back
    into the round already open, judged at the table's close."""
    table = Table()
    table.round(1, wagers=(2, 3))
    table.add("round_started", "r2", round_number=2)
    table.add("bank_offered", "r2", position=2)
    table.add("bank_accepted", "r2", position=2)  # not the game's first round: allowed
    table.add("tile_set_received", tile_set_id="TS-2")
    table.add("tile_set_inspected", tile_set_id="TS-2")
    table.add("tile_set_replaced", old_tile_set_id="TS-1", new_tile_set_id="TS-2",
              reason="scheduled_change")  # fmt: skip
    table.add("table_closed")

    assert [f.code for f in codes(table)] == ["DATA-ROUND-INCOMPLETE"]
