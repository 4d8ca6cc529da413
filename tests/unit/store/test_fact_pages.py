"""The fast read of stored facts gives exactly the events the mapper and parse_event give."""

import json
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.events.catalogue import EVENT_TYPES, MAX_EVENT_BYTES, InvalidEventError, parse_event
from audit.events.examples import EXAMPLES
from audit.store.aggregates import Table
from audit.store.application import FactStore, StoreConfig
from audit.store.encoding import fact_recorded, timestamp_now
from audit.store.fact_pages import FactPages, UnreadableFactError

TYPES = sorted(EVENT_TYPES)


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> FactStore:
    return FactStore(StoreConfig.sqlite(tmp_path_factory.mktemp("pages") / "store.sqlite"))


def _stored_state(fact_json: str) -> bytes:
    """Return a FactRecorded's stored state, as the ingest writes it."""
    stored = fact_recorded(uuid4(), 3, timestamp_now(), "x", fact_json, "s@1", "0" * 64, "a" * 64)
    return stored.state


def _current(store: FactStore, state: bytes) -> tuple[str, str]:
    """Read a fact the way projections read it before: the mapper, then parse_event."""
    stored = fact_recorded(uuid4(), 3, timestamp_now(), "x", "{}", "s@1", "0" * 64, "a" * 64)
    event: Any = store.mapper.to_domain_event(
        type(stored)(stored.originator_id, 3, stored.topic, state)
    )
    try:
        fact = parse_event(event.fact_json)
    except InvalidEventError as error:
        return "refused", str(error)
    return type(fact).__name__, repr(fact)


_WHERE = "stored fact at notification id 7 cannot be read: "


def _fast(store: FactStore, state: bytes) -> tuple[str, str]:
    try:
        fact = FactPages(store).fact((7, "tablewatch:FactRecorded", state))
    except UnreadableFactError as error:
        return "refused", str(error).removeprefix(_WHERE)
    return type(fact).__name__, repr(fact)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    | st.sampled_from(["12.50", "0", "-1", "1e3", "12.505", "PG-01", "2026-11-21T20:00:05Z",
                       "2026-11-21T20:00:05", "6-6a", "\x00", "\ud800"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


@st.composite
def stored_facts(draw: st.DrawFn) -> str:
    """Return a fact's JSON: an example of any type, perhaps with fields changed, gone or added."""
    fact = dict(EXAMPLES[draw(st.sampled_from(TYPES))])
    for _ in range(draw(st.integers(0, 3))):
        action = draw(st.sampled_from(["change", "drop", "add", "version", "other"]))
        key = draw(st.sampled_from(sorted(fact)))
        if action == "change":
            fact[key] = draw(JSON_VALUES)
        elif action == "drop":
            fact.pop(key, None)
        elif action == "add":
            fact[draw(st.text(max_size=6))] = draw(JSON_VALUES)
        elif action == "version":
            fact["schema_version"] = draw(st.integers(0, 3))
        else:
            fact[key] = draw(st.sampled_from([v for e in EXAMPLES.values() for v in e.values()]))
    text = json.dumps(fact, ensure_ascii=draw(st.booleans()))
    if not text.isascii() and not _utf8(text):
        text = json.dumps(fact)  # a lone surrogate cannot be stored raw, only escaped
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.sampled_from([text[: len(text) // 2], text + "x", " " + text + "\n", "[]"]))
    return text


@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fact_json=stored_facts())
def test_fast_path_gives_the_event_the_current_path_gives(store, fact_json):
    state = _stored_state(fact_json)
    assert _fast(store, state) == _current(store, state)


@pytest.mark.parametrize("kind", TYPES)
def test_every_type_reads_back_as_itself(store, kind):
    state = _stored_state(json.dumps(EXAMPLES[kind]))
    name, _ = _fast(store, state)
    assert name == type(parse_event(EXAMPLES[kind])).__name__
    assert _fast(store, state) == _current(store, state)


def test_an_older_version_is_upcast_as_parse_event_upcasts_it(store):
    v1 = {k: v for k, v in EXAMPLES["wager_placed"].items() if k != "kind"}
    state = _stored_state(json.dumps({**v1, "schema_version": 1}))
    assert _fast(store, state) == _current(store, state)
    assert "kind=<" in _fast(store, state)[1]  # given the Pai Gow kind by the upcaster


def test_a_fact_the_catalogue_cannot_read_is_reported_with_where_it_is_stored(store):
    state = _stored_state(json.dumps({**EXAMPLES["no_more_bets"], "type": "gone_type"}))
    with pytest.raises(
        UnreadableFactError, match=r"notification id 7 .*unknown event type 'gone_type'"
    ):
        FactPages(store).fact((7, "tablewatch:FactRecorded", state))


def test_a_fact_over_the_size_limit_is_refused_as_parse_event_refuses_it(store):
    big = {**EXAMPLES["no_more_bets"], "recorded_by": "d" * MAX_EVENT_BYTES}
    state = _stored_state(json.dumps(big))
    assert _fast(store, state)[0] == "refused"
    assert _fast(store, state) == _current(store, state)


def test_an_event_that_holds_no_fact_reads_as_none(store):
    assert FactPages(store).fact((1, "tablewatch:Table.Created", b'{"table_id":"PG-01"}')) is None


def test_a_compressed_store_reads_as_its_mapper_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPRESSOR_TOPIC", "eventsourcing.compressor:ZlibCompressor")
    compressed = FactStore(StoreConfig.sqlite(tmp_path / "zlib.sqlite"))
    assert compressed.mapper.compressor is not None
    table = Table(table_id="PG-01", gaming_day="2026-11-21")
    fact_json = json.dumps(EXAMPLES["table_opened"])
    table.record("table_opened", fact_json, "s@1", "0" * 64, "a" * 64)
    compressed.write(table.collect_events(), None, None)
    pages = FactPages(compressed)
    rows = pages.page(1, 10)
    assert [row[1] for row in rows] == ["tablewatch:Table.Created", "tablewatch:FactRecorded"]
    assert rows[1][2] != _stored_state(fact_json)  # stored compressed
    assert pages.fact(rows[1]) == parse_event(fact_json)
