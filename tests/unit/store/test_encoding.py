"""The ingest's own encoding of a FactRecorded is byte for byte eventsourcing's."""

from datetime import datetime
from uuid import uuid4

import pytest
from eventsourcing.persistence import Mapper
from eventsourcing.utils import get_topic

from audit.store.aggregates import FactRecorded, Round
from audit.store.application import FactStore, StoreConfig
from audit.store.encoding import fact_recorded, timestamp_now

TEXTS = [
    '{"type":"no_more_bets","seq":3}',
    'quotes " and backslashes \\ and a newline\n and a tab\t',
    "accents é, a euro €, an emoji 🀄 and a control \x01",
    "",
]


@pytest.fixture
def mapper(tmp_path) -> Mapper:
    """The mapper the store itself is configured with."""
    return FactStore(StoreConfig.sqlite(tmp_path / "store.sqlite")).mapper


@pytest.mark.parametrize("text", TEXTS)
def test_fact_recorded_encodes_as_the_mapper_does(mapper, text):
    round_ = Round(table_id="PG-01", round_id="r1")
    round_.record("no_more_bets", text, 'file:shift "x".jsonl:7', "0" * 64, "a" * 64)
    event = round_.collect_events()[-1]
    expected = mapper.to_stored_event(event)
    ours = fact_recorded(
        round_.id, event.originator_version, event.timestamp.isoformat(), "no_more_bets", text,
        'file:shift "x".jsonl:7', "0" * 64, "a" * 64,
    )  # fmt: skip
    assert ours == expected


def test_the_encoded_fact_reads_back_through_the_mapper(mapper):
    aggregate_id = uuid4()
    stamp = timestamp_now()
    stored = fact_recorded(
        aggregate_id, 2, stamp, "tile_exposed", TEXTS[2], "s@1", "0" * 64, "b" * 64
    )
    event = mapper.to_domain_event(stored)
    assert isinstance(event, FactRecorded)
    assert stored.topic == get_topic(FactRecorded)
    assert (event.originator_id, event.originator_version) == (aggregate_id, 2)
    assert event.timestamp == datetime.fromisoformat(stamp)
    assert (event.fact_type, event.fact_json, event.source) == ("tile_exposed", TEXTS[2], "s@1")
    assert (event.chain_prev, event.chain_hash) == ("0" * 64, "b" * 64)
