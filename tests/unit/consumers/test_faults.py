"""Which errors are retried, how the retries are paced, and when the ingest gives up."""

import logging

import psycopg
import pytest
from eventsourcing import persistence
from kafka import errors as kafka_errors

from audit.store.application import StoreUnavailableError
from consumers.errors import BrokerUnavailableError, OffsetError, PublishError, TopicError
from consumers.faults import Recovery, describe, is_broker_fault, is_store_fault
from consumers.kafka_io import StopFlag
from consumers.readiness import Readiness


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _publish_error(cause: Exception) -> PublishError:
    try:
        raise PublishError("not sent") from cause
    except PublishError as error:
        return error


@pytest.mark.parametrize(
    "error",
    [
        BrokerUnavailableError("no Kafka broker answered"),
        kafka_errors.KafkaConnectionError("refused"),
        kafka_errors.KafkaTimeoutError("no answer"),
        _publish_error(kafka_errors.KafkaTimeoutError("flush")),
    ],
)
def test_a_lost_broker_is_a_broker_fault(error):
    assert is_broker_fault(error)
    assert not is_store_fault(error)


@pytest.mark.parametrize(
    "error",
    [
        StoreUnavailableError("cannot reach"),
        psycopg.OperationalError("server closed the connection"),
        persistence.OperationalError("couldn't get a connection"),
        persistence.InterfaceError("connection is closed"),
    ],
)
def test_a_lost_database_is_a_store_fault(error):
    assert is_store_fault(error)
    assert not is_broker_fault(error)


@pytest.mark.parametrize(
    "error",
    [
        OffsetError("beyond the end"),
        TopicError("no such topic"),
        _publish_error(kafka_errors.MessageSizeTooLargeError("too large")),
        persistence.ProgrammingError("syntax error"),
        persistence.IntegrityError("duplicate key"),
        persistence.DataError("bad value"),
        psycopg.ProgrammingError("syntax error"),
        KeyError("table_id"),
        TypeError("not a str"),
    ],
)
def test_anything_else_is_no_fault_and_is_not_retried(error):
    assert not is_broker_fault(error)
    assert not is_store_fault(error)


def test_retries_back_off_doubling_to_the_cap_and_each_is_logged(caplog):
    clock = Clock()
    readiness = Readiness()
    recovery = Recovery(1000, readiness, backoff_max_s=30, clock=clock)
    error = BrokerUnavailableError("no Kafka broker answered at 'k:9092' within 10s")
    with caplog.at_level(logging.WARNING, "consumers.faults"):
        delays = []
        for _ in range(7):
            delays.append(recovery.failed(error))
            clock.now += 1
    assert delays == [1, 2, 4, 8, 16, 30, 30]
    assert [r.getMessage() for r in caplog.records][:2] == [
        "broker unavailable: no Kafka broker answered at 'k:9092' within 10s; retry 1 in 1.0s",
        "broker unavailable: no Kafka broker answered at 'k:9092' within 10s; retry 2 in 2.0s",
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    state = readiness.state
    assert not state.ready
    assert state.last_error == "no Kafka broker answered at 'k:9092' within 10s"


def test_a_success_ends_the_run_and_the_backoff_starts_again(caplog):
    clock = Clock()
    readiness = Readiness()
    recovery = Recovery(60, readiness, clock=clock)
    assert not readiness.ready  # not ready until the ingest first works
    recovery.healthy()
    assert readiness.ready
    error = persistence.OperationalError("couldn't get a connection after 5.00 sec")
    assert (recovery.failed(error), recovery.failed(error)) == (1, 2)
    down_since = readiness.state.since
    assert not readiness.ready
    assert recovery.failing
    clock.now += 50
    caplog.clear()
    with caplog.at_level(logging.WARNING, "consumers.faults"):
        recovery.healthy()
    assert caplog.messages == ["recovered after 50.0s and 2 retries"]
    assert readiness.ready
    assert not recovery.failing
    assert readiness.state.since >= down_since
    assert readiness.state.last_error == "couldn't get a connection after 5.00 sec"
    clock.now += 100  # the deadline counts from the first fault of a run, not of the process
    assert recovery.failed(error) == 1


def test_past_the_deadline_the_run_ends_in_the_family_of_the_fault():
    clock = Clock()
    recovery = Recovery(10, Readiness(), clock=clock)
    lost = psycopg.OperationalError("connection refused")
    assert recovery.failed(lost) == 1
    clock.now += 8
    assert recovery.failed(lost) == 2  # never waits past the deadline
    clock.now += 2
    with pytest.raises(StoreUnavailableError) as caught:
        recovery.failed(lost)
    assert str(caught.value) == (
        "gave up on the database: connection refused (failing for 10s, 2 retries)"
    )
    assert recovery.retries(lost)
    assert not recovery.retries(caught.value)  # the last word is not retried
    broker = Recovery(5, Readiness(), clock=clock)
    broker.failed(BrokerUnavailableError("no end offsets for 'table-events'"))
    clock.now += 5
    with pytest.raises(BrokerUnavailableError, match=r"^gave up on the broker: no end offsets"):
        broker.failed(BrokerUnavailableError("no end offsets for 'table-events'"))


def test_a_stalled_commit_is_reported_at_doubling_intervals_and_given_up_at_the_deadline(caplog):
    clock = Clock()
    readiness = Readiness()
    recovery = Recovery(22, readiness, clock=clock)
    with caplog.at_level(logging.WARNING, "consumers.faults"):
        for waited in (5.02, 10.03, 15.04, 20.05):  # the waits overshoot, unevenly
            recovery.stalled(waited)
            clock.now += 5
    assert caplog.messages == [
        f"the database has not finished a commit in {s}s; still waiting" for s in (5, 10, 20)
    ]
    assert not readiness.ready
    clock.now -= 2.98  # 22 s since the commit began
    with pytest.raises(StoreUnavailableError, match=r"^gave up on the database: the database has"):
        recovery.stalled(22)


def test_describe_keeps_one_line():
    assert describe(psycopg.OperationalError("connection failed\n\tIs the server running?")) == (
        "connection failed Is the server running?"
    )
    assert describe(KeyError()) == "KeyError"
    assert len(describe(RuntimeError("x" * 1000))) == 300


def test_a_stop_ends_the_wait_between_retries():
    stop = StopFlag()
    assert not stop.wait(0.05)
    stop.set("test")
    assert stop.wait(30)  # returns at once
