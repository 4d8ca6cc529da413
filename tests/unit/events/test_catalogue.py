"""The event catalogue: every type validates, round-trips, and bad input names its field."""

import inspect
import json
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from audit.events.catalogue import (
    EVENT_CLASSES,
    EVENT_TYPES,
    MAX_EVENT_BYTES,
    InvalidEventError,
    event_dict,
    json_schema,
    parse_event,
)
from audit.events.envelope import event_fields
from audit.events.examples import EXAMPLES
from audit.events.paigow.wagers import WagerKind, WagerPlaced

ENVELOPE = {
    "event_id": "5f0c6a4e-8d1b-4b8e-9a65-0d1f7c3e2a10",
    "table_id": "PG-01",
    "round_id": "PG-01-r42",
    "seq": 311,
    "occurred_at": "2026-11-21T23:15:04.250Z",
    "recorded_by": "dealer-2207",
}


def test_every_type_is_in_the_catalogue_once():
    assert len(EVENT_TYPES) == len(EVENT_CLASSES)
    assert all(name == name.lower() for name in EVENT_TYPES)


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_type_has_an_example_that_round_trips(name):
    example = EXAMPLES[name]
    event = parse_event(json.dumps(example))
    assert type(event) is EVENT_TYPES[name]
    assert parse_event(event_dict(event)) == event
    assert event_dict(event)["type"] == name


def test_examples_cover_exactly_the_catalogue():
    assert set(EXAMPLES) == set(EVENT_TYPES)


def test_stored_v1_wager_reads_as_v2():
    """A wager stored before Pair Fortunes (schema_version 1) upcasts to a Pai Gow wager."""
    stored_v1 = {
        **ENVELOPE,
        "type": "wager_placed",
        "schema_version": 1,
        "position": 3,
        "amount": "25.00",
    }
    event = parse_event(json.dumps(stored_v1))
    assert isinstance(event, WagerPlaced)
    assert event.schema_version == 2
    assert event.kind is WagerKind.PAI_GOW
    assert event.amount == Decimal("25.00")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_an_absent_schema_version_is_the_types_own(name):
    """Without ``schema_version`` an event reads, and is built, at its class's SCHEMA_VERSION
    (2 for a wager since Pair Fortunes), from JSON, from a dict and from Python code."""
    cls = EVENT_TYPES[name]
    example = {k: v for k, v in EXAMPLES[name].items() if k != "schema_version"}
    from_json = parse_event(json.dumps(example))
    assert from_json.schema_version == cls.SCHEMA_VERSION
    assert parse_event(example).schema_version == cls.SCHEMA_VERSION
    fields = {k: getattr(from_json, k) for k in event_fields(cls) if k != "schema_version"}
    assert cls(**fields) == from_json


def test_a_wager_of_a_stated_later_version_is_refused():
    with pytest.raises(InvalidEventError, match="schema_version 3 is not 2"):
        parse_event({**ENVELOPE, "type": "wager_placed", "schema_version": 3, "kind": "pai_gow",
                     "position": 3, "amount": "25.00"})  # fmt: skip


def test_a_current_wager_needs_its_kind():
    with pytest.raises(InvalidEventError, match="kind: Field required"):
        parse_event({**ENVELOPE, "type": "wager_placed", "position": 3, "amount": "25.00"})


def test_time_is_normalised_to_utc():
    event = parse_event(
        {**ENVELOPE, "type": "no_more_bets", "occurred_at": "2026-11-21T18:15:04-05:00"}
    )
    assert event.occurred_at == datetime(2026, 11, 21, 23, 15, 4, tzinfo=UTC)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "a JSON object, not list"),
        (json.dumps({**ENVELOPE, "type": "dice_thrown"}), "unknown event type 'dice_thrown'"),
        (json.dumps({**ENVELOPE, "type": "surrendered"}), "surrendered event 5f0c6a4e"),
        (json.dumps({**ENVELOPE, "type": "surrendered"}), "position: Field required"),
        (
            json.dumps(
                {
                    **ENVELOPE,
                    "type": "stack_delivered",
                    "position": 2,
                    "order": 0,
                    "tiles": ["6-6a", "7-7", "1-2", "4-5"],
                }
            ),
            "tiles.1: Value error, invalid tile kind: '7-7'",
        ),
        (
            json.dumps(
                {
                    **ENVELOPE,
                    "type": "hand_set",
                    "position": 2,
                    "high": ["6-6", "4-5"],
                    "low": ["1-2", "1-3a"],
                }
            ),
            "high.0: Value error, a '6-6' tile needs its copy letter",
        ),
        (
            json.dumps(
                {
                    **ENVELOPE,
                    "type": "wager_placed",
                    "position": 1,
                    "kind": "pai_gow",
                    "amount": "10.005",
                }
            ),
            "amount",
        ),
        (
            json.dumps(
                {
                    **ENVELOPE,
                    "type": "wager_placed",
                    "position": 1,
                    "kind": "pai_gow",
                    "amount": "-5",
                }
            ),
            "amount: Input should be greater than or equal to 0",
        ),
        (
            json.dumps({**ENVELOPE, "type": "no_more_bets", "occurred_at": "2026-11-21T23:15:04"}),
            "occurred_at: Input should have timezone info",
        ),
        (
            json.dumps({**ENVELOPE, "type": "no_more_bets", "surprise": 1}),
            "surprise: Extra inputs are not permitted",
        ),
        (json.dumps({**ENVELOPE, "type": "table_closed"}), "table-level: round_id must be absent"),
        (json.dumps({**ENVELOPE, "type": "no_more_bets", "round_id": None}), "needs a round_id"),
        (
            json.dumps({**ENVELOPE, "type": "dice_revealed", "faces": [0, 3, 4]}),
            "a die shows 1 to 6, not 0",
        ),
        (b"{" + b" " * MAX_EVENT_BYTES + b"}", "exceeds"),
    ],
    ids=[
        "malformed-json",
        "not-an-object",
        "unknown-type",
        "names-the-event",
        "missing-field",
        "wrong-tile",
        "tile-without-copy-letter",
        "fraction-of-a-cent",
        "negative-money",
        "naive-time",
        "unknown-field",
        "table-event-with-round",
        "round-event-without-round",
        "impossible-die",
        "oversized",
    ],
)
def test_bad_input_says_what_and_where(raw, message):
    with pytest.raises(InvalidEventError) as caught:
        parse_event(raw)
    assert message in str(caught.value)


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_type_is_declared_an_event(name):
    """Declared with ``@event``: its own fields validated, held in slots, not in a dict."""
    cls = EVENT_TYPES[name]
    own = {
        field: kind
        for field, kind in inspect.get_annotations(cls).items()
        if not str(kind).startswith("ClassVar")
    }
    assert set(own) <= set(event_fields(cls))  # an undecorated subclass's fields go unseen
    assert "__slots__" in cls.__dict__
    assert not hasattr(parse_event(json.dumps(EXAMPLES[name])), "__dict__")


def test_events_are_frozen():
    event = parse_event({**ENVELOPE, "type": "no_more_bets"})
    with pytest.raises(FrozenInstanceError, match="seq"):
        event.seq = 1


def test_facts_that_break_rules_are_still_valid_events():
    """Record every fact; judge later: a duplicated tile or a misset hand is not bad input."""
    misset = {
        **ENVELOPE,
        "type": "hand_set",
        "position": 2,
        "high": ["1-2", "1-3a"],
        "low": ["6-6a", "4-5"],
    }
    assert parse_event(misset).high == ["1-2", "1-3a"]
    stacks = [["6-6a", "6-6a", "1-1a", "1-1b"]] * 8
    assert parse_event({**ENVELOPE, "type": "stacks_formed", "stacks": stacks}).stacks == stacks


def test_json_schema_covers_every_type():
    schema = json_schema()
    tags = set(schema["discriminator"]["mapping"])
    assert tags == set(EVENT_TYPES)


def test_docs_events_md_is_generated_from_the_models():
    from pathlib import Path

    from audit.events.reference import render_markdown

    docs = Path(__file__).resolve().parents[3] / "docs" / "events.md"
    assert docs.read_text() == render_markdown(), "regenerate: tablewatch schema --markdown"
