"""No message halts the Kafka ingest: poison inputs and a fuzz run through the real consumer.

Real broker (the session's dev broker, or KAFKA_BOOTSTRAP_SERVERS) and real PostgreSQL
(a database per test). Each malformed message goes to the dead-letter topic and the
store's rejections; every valid event around it is stored once, in table order.
"""

import hashlib
import json
import random
import uuid

from audit.events.examples import EXAMPLES
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Ingestor
from consumers.kafka_ingest import consume
from consumers.kafka_io import DEAD_LETTER_VALUE_MAX_BYTES, PartitionReader, ensure_topics
from tests.builders.kafka_feed import (
    events_for,
    produce,
    settings_for,
    stored_event_ids,
)


def poison(rng: random.Random) -> bytes:
    """Return one message that is certainly not a valid event, drawn from many shapes."""
    event = dict(EXAMPLES[rng.choice(sorted(EXAMPLES))])
    text = json.dumps(event)
    shape = rng.randrange(10)
    if shape == 0:  # arbitrary bytes that cannot open a JSON object
        return b"\x00" + rng.randbytes(rng.randrange(300))
    if shape == 1:  # a valid event cut short
        return text.encode()[: rng.randrange(1, len(text) - 1)]
    if shape == 2:  # deep nesting
        depth = rng.randrange(150, 3000)
        return b'{"type":' * depth + b"1" + b"}" * depth
    if shape == 3:  # an unknown field holding any JSON value: refused (extra="forbid")
        value = rng.choice([None, True, 10 ** rng.randrange(400), -1.5e308, "\ud800", [[[]]], {}])
        event["zz_fuzz"] = value
        return json.dumps(event).encode()
    if shape == 4:  # a type that is not a string
        event["type"] = rng.choice([[event["type"]], {"t": 1}, 7, None])
        return json.dumps(event).encode()
    if shape == 5:  # seq not a JSON integer in range
        event["seq"] = rng.choice(["7", 7.5, True, -1, 2**64, 10**4000])
        return json.dumps(event).encode()
    if shape == 6:  # a lone surrogate, escaped, in the event id
        return text.replace(event["event_id"], "\\ud800\\udc00\\udfff").encode()
    if shape == 7:  # the ingest's own facts, or its name
        forged = EXAMPLES[rng.choice(["sequence_gap_observed", "event_id_reused"])]
        return json.dumps({**forged, "event_id": str(uuid.uuid4())}).encode()
    if shape == 8:  # not UTF-8
        return text.encode(rng.choice(["utf-16", "utf-32"]))
    return json.dumps(rng.choice([[], "event", 42, None])).encode()  # not an object


def _dead_letters(bootstrap: str, topic: str, count: int) -> list:
    """Read ``count`` dead letters from every partition of ``topic``."""
    letters: list = []
    with PartitionReader(bootstrap, topic) as dlq:
        while len(letters) < count:
            batch = dlq.poll_batch(1000, 2000)
            assert batch, f"only {len(letters)} of {count} dead letters arrived"
            letters += batch
    return letters


def test_poison_messages_are_dead_lettered_and_the_ingest_goes_on(kafka_bootstrap, pg_url):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = settings_for(topic)
    ensure_topics(kafka_bootstrap, {topic: 1, settings.dlq_topic: 1})
    huge = b'{"type": "no_more_bets", "pad": "' + b"x" * 900_000 + b'"}'
    bad = {
        "deep": b"[" * 1000 + b"]" * 1000,
        "type-list": json.dumps({**EXAMPLES["no_more_bets"], "type": ["x"]}).encode(),
        "seq-5000-digits": b'{"type": "no_more_bets", "seq": ' + b"9" * 5000 + b"}",
        "surrogate": json.dumps({**EXAMPLES["no_more_bets"], "event_id": "\ud800"}).encode(),
        "huge": huge,
    }
    good = events_for(tables=1, per_table=6)
    messages = [(b"PG-00", json.dumps(good[0]).encode())]
    messages += [(name.encode(), raw) for name, raw in bad.items()]
    messages += [(b"PG-00", json.dumps(e).encode()) for e in good[1:]]
    produce(kafka_bootstrap, topic, messages)

    store = FactStore(StoreConfig.postgres(pg_url))
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)

    assert (summary.stored, summary.rejected) == (6, len(bad))
    assert stored_event_ids(store) == [e["event_id"] for e in good]
    letters = {
        letter.header("x-source-key").decode(): letter
        for letter in _dead_letters(kafka_bootstrap, settings.dlq_topic, len(bad))
    }
    for name, raw in bad.items():
        if name != "huge":
            assert letters[name].value == raw
    # The one too large to send again whole: its start, with its size and digest.
    cut = letters["huge"]
    assert cut.value == huge[:DEAD_LETTER_VALUE_MAX_BYTES]
    assert cut.header("x-source-size") == str(len(huge)).encode()
    assert cut.header("x-source-sha256") == hashlib.sha256(huge).hexdigest().encode()
    assert b"exceeds 65536" in cut.header("x-reason")


def test_ten_thousand_malformed_messages_among_valid_ones_leave_every_valid_event_stored_once(
    kafka_bootstrap, pg_url
):
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    settings = settings_for(topic, batch_size=1000)
    ensure_topics(kafka_bootstrap, {topic: 3, settings.dlq_topic: 3})
    rng = random.Random(18)
    good = events_for(tables=4, per_table=250)
    messages = [(e["table_id"].encode(), json.dumps(e).encode()) for e in good]
    for _ in range(10_000):
        at = rng.randrange(len(messages) + 1)
        messages.insert(at, (f"PG-{rng.randrange(4):02d}".encode(), poison(rng)))
    produce(kafka_bootstrap, topic, messages)

    store = FactStore(StoreConfig.postgres(pg_url))
    summary = consume(kafka_bootstrap, settings, Ingestor(store), until_caught_up=True)

    assert (summary.stored, summary.duplicates, summary.rejected) == (1000, 0, 10_000)
    assert summary.observations == 0  # valid events kept their order: no gap was seen
    stored = stored_event_ids(store)
    assert sorted(stored) == sorted(e["event_id"] for e in good)
    letters = _dead_letters(kafka_bootstrap, settings.dlq_topic, 10_000)
    assert len({letter.key for letter in letters}) == 10_000  # one per malformed message
