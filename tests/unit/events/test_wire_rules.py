"""What arrives from a producer: the wire rules of docs/events.md, and no input that halts.

Every message is either an event or a rejection with a reason; nothing raises out
of validation, whatever its size, nesting or encoding.
"""

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.events.catalogue import (
    REASON_MAX_CHARS,
    InvalidEventError,
    parse_arriving,
    parse_event,
)
from audit.events.examples import EXAMPLES
from audit.store.ingest import Checked, Rejected
from consumers.ingest import to_checked

WAGER = EXAMPLES["wager_placed"]
NO_MORE_BETS = EXAMPLES["no_more_bets"]


def wire(event: dict, **changes) -> bytes:
    return json.dumps({**event, **changes}).encode()


def refusal(raw: bytes) -> str:
    """Return the reason ``raw`` is refused with, failing if it is accepted or raises."""
    message = to_checked(raw, "t[0]@1")
    assert isinstance(message, Rejected), f"accepted: {raw[:80]!r}"
    assert message.raw == raw
    message.reason.encode("utf-8")  # always a reason a header and the store can carry
    return message.reason


# The inputs that halted ingest for good before (issue #18): each is now one rejection.
POISON = {
    "nested 1,000 deep": (b"[" * 1000 + b"]" * 1000, "recursion limit"),
    "objects nested 1,000 deep": (b'{"a":' * 1000 + b"1" + b"}" * 1000, "recursion limit"),
    "type as a list": (wire(NO_MORE_BETS, type=["no_more_bets"]), "unknown event type"),
    "type as an object": (wire(NO_MORE_BETS, type={"a": 1}), "unknown event type"),
    "a 5,000-digit seq": (
        wire(NO_MORE_BETS).replace(b'"seq": 311', b'"seq": ' + b"9" * 5000),
        "number out of range",
    ),
    "a lone surrogate in event_id": (
        wire(NO_MORE_BETS).replace(b"5f0c6a4e-8d1b-4b8e-9a65-0d1f7c3e2a10", b"\\ud800"),
        "not JSON",
    ),
    "over the size limit": (b'{"pad": "' + b"x" * 2_000_000 + b'"}', "exceeds 65536"),
    "a time with no UTC moment": (
        wire(NO_MORE_BETS, occurred_at="9999-12-31T23:59:59-05:00"),
        "out of range in UTC",
    ),
}


@pytest.mark.parametrize("name", POISON)
def test_poison_messages_are_refused_with_a_reason(name):
    raw, reason = POISON[name]
    assert reason in refusal(raw)


@pytest.mark.parametrize(
    "amount", [25, 25.5, "1E+2", "-0.00", "-5.00", "1.005", " 5.00", "05.00", "5.", "", "NaN"]
)
def test_money_on_the_wire_is_a_decimal_string_of_at_most_two_decimals(amount):
    assert "money is a decimal string" in refusal(wire(WAGER, amount=amount))


@pytest.mark.parametrize("amount", ["0", "25", "25.5", "25.50", "0.01"])
def test_money_in_the_documented_form_is_accepted(amount):
    event = parse_arriving(wire(WAGER, amount=amount))
    assert event.amount == Decimal(amount)


def test_stored_facts_read_back_without_the_wire_rules():
    # A fact stored before the wire rules were enforced still reads: the store is history.
    event = parse_event(wire(WAGER, amount="1E+2"))
    assert event.amount == Decimal(100)


@pytest.mark.parametrize("seq", ["311", 311.0, True, -1, 2**63])
def test_seq_is_a_json_integer_in_range(seq):
    assert "seq:" in refusal(wire(NO_MORE_BETS, seq=seq))


def test_seq_up_to_a_signed_64_bit_integer_is_accepted():
    assert parse_arriving(wire(NO_MORE_BETS, seq=2**63 - 1)).seq == 2**63 - 1


@pytest.mark.parametrize(
    ("encoded", "reason"),
    [
        (wire(NO_MORE_BETS).decode().encode("utf-16"), "not UTF-8"),
        (b"\xef\xbb\xbf" + wire(NO_MORE_BETS), "byte-order mark"),
        (wire(NO_MORE_BETS).replace(b"dealer-2207", b"dealer-\xff"), "not UTF-8"),
    ],
)
def test_only_utf8_is_read(encoded, reason):
    assert reason in refusal(encoded)


@pytest.mark.parametrize(
    ("field", "reason"), [("recorded_by", "text holds a NUL"), ("round_id", "round_id: String")]
)
def test_nul_is_refused_in_any_text(field, reason):
    assert reason in refusal(wire(NO_MORE_BETS, **{field: "dealer\u00002207"}))


def test_nul_is_refused_in_free_text():
    assert "NUL" in refusal(wire(WAGER, player_id="P-\u000010442"))


def test_an_escaped_backslash_before_u0000_is_not_a_nul():
    # The text "P-\u0000" (a backslash, then "u0000") is legal: only a real NUL is refused.
    assert isinstance(to_checked(wire(WAGER, player_id="P-\\u0000"), "t[0]@1"), Checked)


@pytest.mark.parametrize("kind", ["sequence_gap_observed", "event_id_reused"])
def test_producers_cannot_send_the_ingests_own_facts(kind):
    assert "the ingest's own" in refusal(json.dumps(EXAMPLES[kind]).encode())


def test_producers_cannot_claim_to_be_the_ingest():
    assert "the ingest's own" in refusal(wire(NO_MORE_BETS, recorded_by="tablewatch-ingest"))


def test_a_reason_quoting_huge_input_is_cut():
    raw = wire(NO_MORE_BETS, type="x" * 50_000)
    assert len(refusal(raw)) <= REASON_MAX_CHARS


def test_invalid_event_error_escapes_lone_surrogates():
    assert str(InvalidEventError("id '\ud800'")) == "id '\\ud800'"


def test_every_example_is_valid_on_the_wire_except_the_ingests_own():
    for kind, example in EXAMPLES.items():
        message = to_checked(json.dumps(example).encode(), "t[0]@1")
        if kind in ("sequence_gap_observed", "event_id_reused"):
            assert isinstance(message, Rejected)
        else:
            assert isinstance(message, Checked), (kind, getattr(message, "reason", ""))


def _json_values() -> st.SearchStrategy:
    # Any code point, lone surrogates included: json.dumps writes them as \\udXXX escapes.
    text = st.text(st.characters(exclude_categories=()))
    scalars = st.none() | st.booleans() | st.integers() | st.floats() | text
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4)
        ),
        max_leaves=20,
    )


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_are_an_event_or_a_rejection(raw):
    assert isinstance(to_checked(raw, "t[0]@1"), Checked | Rejected)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(EXAMPLES)), st.sampled_from(["drop", "replace"]), st.data())
def test_valid_events_with_a_field_dropped_or_replaced_never_raise(kind, how, data):
    event = dict(EXAMPLES[kind])
    field = data.draw(st.sampled_from(sorted(event)))
    if how == "drop":
        del event[field]
    else:
        event[field] = data.draw(_json_values())
    raw = json.dumps(event, allow_nan=True).encode("utf-8", "surrogatepass")
    assert isinstance(to_checked(raw, "t[0]@1"), Checked | Rejected)
