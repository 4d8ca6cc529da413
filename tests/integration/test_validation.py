"""The validating reader: a child process that reads and validates ahead of the store.

Real broker; the ingest's exactly-once tests (SIGKILL mid-batch and the rest) are in
test_kafka_ingest.py and run through this reader too.
"""

import json
import os
import signal
import subprocess
import sys
import time
import uuid

import psycopg
import pytest

from audit.events.examples import EXAMPLES
from audit.store.application import FactStore, StoreConfig
from audit.store.ingest import Checked, Rejected
from audit.store.verify import verify_chain
from consumers.errors import OffsetError
from consumers.kafka_io import ensure_topics, flush, make_producer, publish
from consumers.validation import CheckingReader, ReaderSettings
from tests.builders.kafka_feed import events_for, ingest_command, stored_event_ids


def produce(bootstrap, topic, values, key=b"PG-01"):
    with make_producer(bootstrap) as producer:
        for value in values:
            publish(producer, topic, key, value)
        flush(producer)


def settings(bootstrap, topic):
    return ReaderSettings(bootstrap, topic, batch_size=100, poll_timeout_ms=200)


def test_the_reader_sends_validated_batches_from_the_start_offsets_then_says_caught_up(
    kafka_bootstrap, new_topic
):
    topic = new_topic(partitions=1)
    good = json.dumps(EXAMPLES["no_more_bets"]).encode()
    produce(kafka_bootstrap, topic, [good, good, b"not json", good])
    with CheckingReader(settings(kafka_bootstrap, topic)) as reader:
        reader.start({0: 1})
        messages, offsets = [], []
        while True:
            polled = reader.receive()
            for batch in polled.batches:
                messages += batch.messages
                offsets.append(batch.last_offset)
            if polled.caught_up:
                break
    assert [type(m) for m in messages] == [Checked, Rejected, Checked]
    assert [m.origin for m in messages] == [f"{topic}[0]@{i}" for i in (1, 2, 3)]
    assert offsets[-1] == 3


def test_an_error_in_the_reader_is_raised_in_the_parent(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=1)
    with CheckingReader(settings(kafka_bootstrap, topic)) as reader:
        reader.start({0: -1})
        with pytest.raises(OffsetError, match="negative"):
            reader.receive()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[1][0] != "Z"


_ORPHAN = (
    "import sys, time; from consumers.validation import CheckingReader, ReaderSettings;"
    "r = CheckingReader(ReaderSettings(sys.argv[1], sys.argv[2], 100, 100)); r.start({});"
    "r.receive(); print(r.pid, flush=True); time.sleep(60)"
)


def test_the_reader_exits_when_its_parent_is_killed(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=1)
    parent = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN, kafka_bootstrap, topic], stdout=subprocess.PIPE, text=True
    )
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.kill()
    parent.wait(10)
    deadline = time.monotonic() + 10
    while _alive(child):
        assert time.monotonic() < deadline, "the reader outlived its parent"
        time.sleep(0.05)


def count_facts(pg_url: str) -> int:
    with psycopg.connect(pg_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM tablewatch_events WHERE topic = 'tablewatch:FactRecorded'"
        ).fetchone()
    assert row is not None
    return row[0]


@pytest.mark.slow
def test_sigterm_to_the_process_group_finishes_the_batch_and_exits_cleanly(kafka_bootstrap, pg_url):
    """A service manager stops the whole group; the reader must outlive the parent's last batch."""
    topic = f"table-events-{uuid.uuid4().hex[:8]}"
    ensure_topics(kafka_bootstrap, {topic: 3, f"{topic}.dlq": 3})
    events = events_for(tables=6, per_table=400)
    with make_producer(kafka_bootstrap) as producer:
        for e in events:
            publish(producer, topic, e["table_id"].encode(), json.dumps(e).encode())
        flush(producer)
    FactStore(StoreConfig.postgres(pg_url))
    argv, env = ingest_command(kafka_bootstrap, pg_url, topic)
    ingest = subprocess.Popen(argv, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while count_facts(pg_url) < len(events) // 4:
        assert time.monotonic() < deadline, "the ingest made no progress"
        time.sleep(0.02)
    os.killpg(ingest.pid, signal.SIGTERM)
    assert ingest.wait(30) == 0
    argv, env = ingest_command(kafka_bootstrap, pg_url, topic, "--until-caught-up")
    assert subprocess.run(argv, env=env, timeout=120, check=False).returncode == 0
    store = FactStore(StoreConfig.postgres(pg_url))
    ids = stored_event_ids(store)
    assert sorted(ids) == sorted(e["event_id"] for e in events)
    assert verify_chain(store).ok
