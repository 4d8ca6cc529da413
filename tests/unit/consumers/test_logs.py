"""The log: JSON lines off a terminal, every password masked, a bad setting named."""

import io
import json
import logging

import pytest

from consumers.errors import ConfigError
from consumers.logs import QUIET_LIBRARIES, configure_logging


@pytest.fixture(autouse=True)
def restore_root_logger():
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    quiet = {name: logging.getLogger(name).level for name in QUIET_LIBRARIES}
    yield
    root.setLevel(level)
    root.handlers[:] = handlers
    for name, was in quiet.items():
        logging.getLogger(name).setLevel(was)


def test_off_a_terminal_each_record_is_one_json_object_with_time_and_level():
    stream = io.StringIO()
    configure_logging({}, stream)
    logging.getLogger("consumers.kafka_ingest").warning("broker lost for %ds", 12)
    entry = json.loads(stream.getvalue())
    assert entry["level"] == "warning"
    assert entry["logger"] == "consumers.kafka_ingest"
    assert entry["message"] == "broker lost for 12s"
    assert entry["time"].endswith("+00:00")


def test_every_password_is_masked_whatever_logged_it():
    stream = io.StringIO()
    configure_logging({"TABLEWATCH_LOG_FORMAT": "text"}, stream)
    logging.getLogger("x").error("cannot reach %s", "postgresql://tw:hunter2@db/tw?password=p2")
    assert "hunter2" not in stream.getvalue()
    assert "p2" not in stream.getvalue()
    assert "postgresql://tw:***@db/tw?password=***" in stream.getvalue()


def test_the_threshold_is_a_setting_and_reconfiguring_replaces_the_handler():
    stream = io.StringIO()
    configure_logging({"TABLEWATCH_LOG_LEVEL": "info"}, stream)
    configure_logging({"TABLEWATCH_LOG_LEVEL": "info"}, stream)
    logging.getLogger("y").info("once")
    assert stream.getvalue().count("once") == 1


@pytest.mark.parametrize(
    ("environ", "named"),
    [({"TABLEWATCH_LOG_FORMAT": "xml"}, "TABLEWATCH_LOG_FORMAT"),
     ({"TABLEWATCH_LOG_LEVEL": "loud"}, "TABLEWATCH_LOG_LEVEL")],
)  # fmt: skip
def test_a_bad_log_setting_is_named(environ, named):
    with pytest.raises(ConfigError, match=named):
        configure_logging(environ, io.StringIO())


def test_a_librarys_dropped_connection_is_heard_only_at_debug():
    stream = io.StringIO()
    configure_logging({}, stream)
    try:
        raise ConnectionResetError("reset by peer")
    except ConnectionResetError:
        logging.getLogger("kafka.net.transport").exception("abort")
    assert stream.getvalue() == ""  # tablewatch says it itself, in one line
    configure_logging({"TABLEWATCH_LOG_LEVEL": "debug"}, stream)
    logging.getLogger("kafka.net.transport").error("abort")
    assert "abort" in stream.getvalue()
