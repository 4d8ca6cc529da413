"""The round view files every event by its kind: held to a plain reading of the filing rules.

The rules, written out here event by event: a kind kept once keeps the round's first;
a kind kept with indices keeps every one with its index; a position's last hand set
wins, and each that replaced an earlier one is kept with it; a position's first reveal
counts; the first stacks formed are ``stacks`` and
every one is in ``formed``; the first "no more bets" is the call. Real simulated
rounds are shuffled and given repeats, so each rule meets the odd orders a careless
record holds.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.catalogue import EVENT_CLASSES
from audit.events.envelope import Event
from audit.simulation.irregularities import careless_shift
from audit.simulation.shift import ShiftConfig
from audit.verification.paigow.round_view import RoundView, view_round

FIRST = {
    "round_started": "started",
    "tiles_cut": "cut",
    "bank_accepted": "bank",
    "co_bank_requested": "co_bank",
    "dealer_wager_against_bank": "dealer_wager",
    "delivery_style_chosen": "style",
    "unwagered_stacks_collected": "collected",
    "dealer_wager_settled": "dealer_wager_settled",
    "bank_shortfall_collected": "shortfall",
    "bank_surplus_settled": "surplus",
    "co_bank_split": "co_bank_split",
    "round_voided": "voided",
    "round_completed": "completed",
    "stacks_formed": "stacks",
}
WITH_INDEX = {
    "wager_placed": "placed",
    "wager_withdrawn": "withdrawn",
    "shaker_shaken": "shakes",
    "dice_revealed": "dice",
    "rng_number_shown": "rng",
    "no_roll_called": "no_rolls",
    "stack_delivered": "delivered",
    "tile_exposed": "exposed",
    "surrendered": "surrenders",
    "wager_settled": "settled",
    "stacks_formed": "formed",
}
EVERY = {"bank_offered": "offers", "hand_voided": "player_voids", "collection_fee_taken": "fees"}


def read_plainly(events: list[Event]) -> dict[str, Any]:
    """Return what the view should hold, reading the events one by one."""
    want: dict[str, Any] = {"events": events, "hands": {}, "reveals": {}, "no_more_bets": None}
    want["resets"] = []
    want |= {attr: None for attr in FIRST.values()}
    want |= {attr: [] for attr in [*WITH_INDEX.values(), *EVERY.values()]}
    for index, event in enumerate(events):
        kind = event.type_name()
        if kind in FIRST and want[FIRST[kind]] is None:
            want[FIRST[kind]] = event
        if kind in WITH_INDEX:
            want[WITH_INDEX[kind]].append((index, event))
        if kind in EVERY:
            want[EVERY[kind]].append(event)
        if kind == "hand_set":
            earlier = want["hands"].get(event.position)  # type: ignore[attr-defined]
            if earlier is not None:
                want["resets"].append((index, earlier, event))
            want["hands"][event.position] = event  # type: ignore[attr-defined]
        if kind == "hands_revealed":
            want["reveals"].setdefault(event.position, index)  # type: ignore[attr-defined]
        if kind == "no_more_bets" and want["no_more_bets"] is None:
            want["no_more_bets"] = index
    return want


def _rounds() -> list[list[Event]]:
    config = ShiftConfig(tables=4, rounds_per_table=12)
    events, _ = careless_shift(config, random.Random(4), 0.3)
    by_round: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        if event.round_id is not None:
            by_round.setdefault((event.table_id, event.round_id), []).append(event)
    return list(by_round.values())


ROUNDS = _rounds()
VIEWED = [f.name for f in fields(RoundView) if f.name not in ("table_id", "round_id", "_derived")]


def assert_filed(view: RoundView, events: list[Event]) -> None:
    want = read_plainly(events)
    assert sorted(want) == sorted(VIEWED)  # the spec above names every field the view has
    for name in VIEWED:
        got = getattr(view, name)
        assert got == want[name], name
        if isinstance(got, dict):
            assert list(got) == list(want[name]), f"{name}: keys in first-seen order"


@pytest.mark.parametrize("index", range(0, len(ROUNDS), 7))
def test_a_recorded_round_is_filed_as_read(index):
    events = ROUNDS[index]
    view = view_round(events)
    assert (view.table_id, view.round_id) == (events[0].table_id, events[0].round_id)
    assert_filed(view, events)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_shuffled_rounds_with_repeats_are_filed_as_read(data):
    events = data.draw(st.permutations(data.draw(st.sampled_from(ROUNDS))))
    repeats = data.draw(st.lists(st.sampled_from(events), max_size=12))
    mixed = list(events)
    for event in repeats:  # a repeated fact lands somewhere later in the record
        mixed.insert(data.draw(st.integers(0, len(mixed))), event)
    assert_filed(view_round(mixed), mixed)


def test_a_view_needs_a_round():
    with pytest.raises(ValueError, match="events of one round"):
        view_round([])


def test_each_event_class_is_one_kind_and_never_subclassed():
    """The verifier files and recognises events by their exact class: one class, one kind."""
    names = [cls.type_name() for cls in EVENT_CLASSES]
    assert len(set(names)) == len(names)
    assert [cls for cls in EVENT_CLASSES if cls.__subclasses__()] == []
