"""The log every command writes to stderr: JSON lines for machines, plain lines for a person.

``TABLEWATCH_LOG_FORMAT`` chooses (``json`` or ``text``); by default a terminal gets
text and anything else (a container's log collector, a file) one JSON object per
line, with the time in UTC, the level, the logger and the message.
``TABLEWATCH_LOG_LEVEL`` sets the threshold (default ``WARNING``: a command's own
output is its result; faults and refusals are the log's). Every message passes
through the password mask, whatever logged it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TextIO

from audit.store.urls import mask_password
from consumers.errors import ConfigError

_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

QUIET_LIBRARIES = ("kafka", "psycopg.pool", "psycopg_pool")
"""Libraries that log each dropped connection, with its traceback, at ERROR: tablewatch
reports a lost broker or database itself, in one line with its retries, so theirs are
heard only at DEBUG."""


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON object: time, level, logger, message (and any error)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry)


class MaskPasswords(logging.Filter):
    """Mask any password in a URL a message quotes (postgresql://u:***@h, ?password=***)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_password_anywhere(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def mask_password_anywhere(text: str) -> str:
    """Return ``text`` with the password of every URL in it masked.

    >>> mask_password_anywhere("cannot reach postgresql://tw:hunter2@db/tw, giving up")
    'cannot reach postgresql://tw:***@db/tw, giving up'
    """
    return " ".join(
        mask_password(word) if "://" in word or "password=" in word.lower() else word
        for word in text.split(" ")
    )


def configure_logging(
    environ: Mapping[str, str] = os.environ, stream: TextIO | None = None
) -> None:
    """Send the log to ``stream`` (stderr) in the configured format, replacing any earlier setup."""
    stream = stream if stream is not None else sys.stderr
    chosen = environ.get("TABLEWATCH_LOG_FORMAT", "").strip().lower()
    if chosen not in ("", "json", "text"):
        raise ConfigError(f"TABLEWATCH_LOG_FORMAT must be json or text, not {chosen!r}")
    as_json = chosen == "json" or (chosen == "" and not _is_tty(stream))
    level = environ.get("TABLEWATCH_LOG_LEVEL", "").strip().upper() or "WARNING"
    if level not in _LEVELS:
        raise ConfigError(f"TABLEWATCH_LOG_LEVEL must be one of {list(_LEVELS)!r}, not {level!r}")
    handler = logging.StreamHandler(stream)
    handler.set_name("tablewatch")
    handler.addFilter(MaskPasswords())
    handler.setFormatter(
        JsonFormatter() if as_json else logging.Formatter("%(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "tablewatch"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET_LIBRARIES:
        logging.getLogger(name).setLevel(logging.DEBUG if level == "DEBUG" else logging.CRITICAL)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
