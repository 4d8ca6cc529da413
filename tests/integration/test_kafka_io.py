"""The Kafka edge against a real broker: topics, publishing, reading, dead letters, stopping."""

import os
import signal
import socket
import time
from collections import defaultdict

import pytest

from consumers.devbroker import DevBroker, free_port
from consumers.errors import BrokerUnavailableError, OffsetError, TopicError
from consumers.kafka_io import (
    REASON_MAX_BYTES,
    DeadLetter,
    PartitionReader,
    Record,
    StopFlag,
    ensure_topics,
    flush,
    make_producer,
    publish,
)

TABLES = [f"PG-{n:02d}".encode() for n in range(1, 11)]


def read(reader, count, timeout_s=10.0):
    """Poll until ``count`` records arrived; fail if they do not within ``timeout_s``."""
    records = []
    deadline = time.monotonic() + timeout_s
    while len(records) < count:
        if time.monotonic() > deadline:
            pytest.fail(f"read {len(records)} of {count} records in {timeout_s}s")
        records.extend(reader.poll_batch(max_records=500, timeout_ms=200))
    return records


def by_partition(records):
    partitions = defaultdict(list)
    for record in records:
        partitions[record.partition].append(record)
    return partitions


def produce_keyed(bootstrap, topic, count):
    """Publish ``count`` messages keyed by table, valued ``table:n``, in batches."""
    with make_producer(bootstrap) as producer:
        for n in range(count):
            key = TABLES[n % len(TABLES)]
            publish(producer, topic, key, key + b":%d" % n, [("seq", b"%d" % n)])
        assert flush(producer) == count


def test_keyed_messages_come_back_per_partition_in_order(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=4)
    produce_keyed(kafka_bootstrap, topic, 200)

    with PartitionReader(kafka_bootstrap, topic) as reader:
        assert reader.partitions == (0, 1, 2, 3)
        records = read(reader, 200)

    partitions = by_partition(records)
    assert len(partitions) > 1, "ten keys over four partitions should use more than one"
    for partition, in_partition in partitions.items():
        assert [r.offset for r in in_partition] == list(range(len(in_partition))), partition
    partition_of_key = {}
    sequence_of_key = defaultdict(list)
    for record in records:
        assert partition_of_key.setdefault(record.key, record.partition) == record.partition
        table, n = record.value.split(b":")
        assert table == record.key
        assert record.headers == (("seq", n),)
        sequence_of_key[record.key].append(int(n))
    for key, sequence in sequence_of_key.items():
        assert sequence == sorted(sequence), key
    assert sorted(n for sequence in sequence_of_key.values() for n in sequence) == list(range(200))


def test_seek_to_a_middle_offset_resumes_exactly_there(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=2)
    produce_keyed(kafka_bootstrap, topic, 120)
    with PartitionReader(kafka_bootstrap, topic) as reader:
        everything = by_partition(read(reader, 120))
    middle = len(everything[0]) // 2
    assert middle > 0

    # Partition 1 has no stored offset, so it is read from its beginning.
    with PartitionReader(kafka_bootstrap, topic, {0: middle}) as reader:
        resumed = by_partition(read(reader, 120 - middle))
        assert reader.poll_batch(max_records=500, timeout_ms=300) == []

    assert resumed[0] == everything[0][middle:]
    assert resumed[1] == everything[1]


def test_a_reader_reads_only_the_partitions_it_is_given(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=4)
    produce_keyed(kafka_bootstrap, topic, 80)
    with PartitionReader(kafka_bootstrap, topic) as reader:
        expected = by_partition(read(reader, 80))

    stored = {0: 0, 1: 0, 2: 0, 3: 0}  # offsets for partitions this reader skips are ignored
    with PartitionReader(kafka_bootstrap, topic, stored, partitions=[2]) as reader:
        assert reader.partitions == (2,)
        assert read(reader, len(expected[2])) == expected[2]


def test_a_dead_letter_keeps_the_original_bytes_key_and_headers(kafka_bootstrap, new_topic):
    topic, dlq = new_topic(partitions=2), new_topic(partitions=1, prefix="test-dlq")
    not_an_event = b"\xff\x00{not json"
    reason = "invalid event: " + "é" * REASON_MAX_BYTES
    with make_producer(kafka_bootstrap) as producer:
        publish(producer, topic, b"PG-07", not_an_event, [("trace", b"abc")])
        flush(producer)
        with PartitionReader(kafka_bootstrap, topic) as reader:
            [bad] = read(reader, 1)
        dead_letters = DeadLetter(producer, dlq)
        dead_letters.send(bad, reason)
        dead_letters.send(bad, "the same record, sent again after a crash")
        assert dead_letters.flush() == 2

    with PartitionReader(kafka_bootstrap, dlq) as reader:
        first, again = read(reader, 2)
    assert first.value == not_an_event
    assert first.key == f"{topic}[{bad.partition}]@{bad.offset}".encode() == again.key
    assert first.header("x-source-topic") == topic.encode()
    assert first.header("x-source-partition") == str(bad.partition).encode()
    assert first.header("x-source-offset") == str(bad.offset).encode()
    assert first.header("x-source-key") == b"PG-07"
    assert first.header("trace") == b"abc"
    cut = first.header("x-reason")
    assert len(cut) <= REASON_MAX_BYTES
    assert cut.decode().startswith("invalid event: éé")
    assert cut.decode().endswith("…")


def test_a_dead_letter_of_a_keyless_record_has_no_source_key(kafka_bootstrap, new_topic):
    dlq = new_topic(prefix="test-dlq")
    record = Record("table-events", 3, 1042, key=None, value=b"", headers=(("empty", None),))
    with make_producer(kafka_bootstrap) as producer:
        DeadLetter(producer, dlq).send(record, "empty message")
        flush(producer)
    with PartitionReader(kafka_bootstrap, dlq) as reader:
        [letter] = read(reader, 1)
    assert letter.key == b"table-events[3]@1042"
    assert letter.header("x-source-key") is None
    assert letter.header("empty") == b""
    assert letter.header("x-reason") == b"empty message"


def test_end_offsets_tell_when_a_reader_has_caught_up(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=2)  # one key, so one partition stays empty
    with (
        make_producer(kafka_bootstrap) as producer,
        PartitionReader(kafka_bootstrap, topic) as reader,
    ):
        # One message per flush makes each a batch of its own; see below for why.
        for n in range(5):
            publish(producer, topic, b"PG-01", b"%d" % n)
            flush(producer)
        assert sorted(reader.end_offsets().values()) == [0, 5]
        assert reader.positions() == {0: 0, 1: 0}

        # Many messages in one batch: Tansu lists the end short of the truth until
        # a fetch reports the high watermark, which end_offsets also counts.
        for n in range(5, 35):
            publish(producer, topic, b"PG-01", b"%d" % n)
        flush(producer)
        read(reader, 35)
        ends = reader.end_offsets()
        assert ends == reader.positions()
        assert sorted(ends.values()) == [0, 35]


def test_ensure_topics_is_idempotent_and_warns_about_a_partition_mismatch(
    kafka_bootstrap, new_topic, caplog
):
    topic = new_topic(partitions=3)
    ensure_topics(kafka_bootstrap, {topic: 3})
    assert not caplog.records
    ensure_topics(kafka_bootstrap, {topic: 5})
    assert f"topic {topic!r} has 3 partitions, not the 5 configured" in caplog.text
    with PartitionReader(kafka_bootstrap, topic) as reader:
        assert reader.partitions_for(topic) == {0, 1, 2}
        assert reader.partitions_for(f"{topic}-missing") == frozenset()


def test_a_reader_refuses_a_missing_topic_partition_or_negative_offset(kafka_bootstrap, new_topic):
    topic = new_topic(partitions=2)
    with pytest.raises(TopicError, match=r"topic 'no-such-topic-\w+' does not exist"):
        PartitionReader(kafka_bootstrap, f"no-such-topic-{os.getpid()}")
    with pytest.raises(TopicError, match=r"has no partition \[7\]; it has \[0, 1\]"):
        PartitionReader(kafka_bootstrap, topic, {7: 0})
    with pytest.raises(TopicError, match=r"has no partition \[2\]"):
        PartitionReader(kafka_bootstrap, topic, partitions=[1, 2])
    with pytest.raises(OffsetError, match="start offset for partition 1 is negative: -1"):
        PartitionReader(kafka_bootstrap, topic, {1: -1})


@pytest.mark.parametrize(
    "connect",
    [
        lambda bootstrap: ensure_topics(bootstrap, {"anything": 1}, timeout_ms=1000),
        lambda bootstrap: make_producer(bootstrap, timeout_ms=1000),
        lambda bootstrap: PartitionReader(bootstrap, "anything", timeout_ms=1000),
    ],
    ids=["ensure_topics", "make_producer", "PartitionReader"],
)
def test_an_unreachable_broker_fails_fast_and_clearly(connect):
    closed = f"127.0.0.1:{free_port()}"  # nothing listens there
    started = time.monotonic()
    with pytest.raises(BrokerUnavailableError, match=rf"no Kafka broker answered at '{closed}'"):
        connect(closed)
    assert time.monotonic() - started < 5


def test_a_dev_broker_leaves_no_process_or_log_behind():
    broker = DevBroker()
    with broker:
        pid, log_dir = broker.pid, broker.log_path.parent
        host, port = broker.bootstrap_servers.split(":")
        os.kill(pid, 0)  # raises if the process is gone
        assert log_dir.is_dir()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((host, int(port)), timeout=1).close()
    assert not log_dir.exists()
    assert broker.pid is None
    with pytest.raises(BrokerUnavailableError, match="not running"):
        broker.bootstrap_servers  # noqa: B018


def test_a_dev_broker_that_dies_at_start_reports_its_output(tmp_path):
    fake = tmp_path / "tansu"
    fake.write_text("#!/bin/sh\necho 'error: address already in use' >&2\nexit 3\n")
    fake.chmod(0o755)
    broker = DevBroker(binary=fake, log_dir=tmp_path)
    with pytest.raises(BrokerUnavailableError, match=r"(?s)exited with status 3.*already in use"):
        broker.start()
    assert broker.pid is None


def test_a_stop_flag_turns_the_first_signal_into_a_flag_and_a_second_into_an_interrupt():
    before = signal.getsignal(signal.SIGTERM)
    with StopFlag() as stop:
        assert not stop.is_set()
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.is_set()
        assert stop.reason == "received SIGTERM"
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGTERM) is before
