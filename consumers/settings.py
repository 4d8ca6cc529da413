"""One frozen settings object, read from the environment once at start-up.

>>> settings = Settings.from_env({"TABLEWATCH_PARTITIONS": "8",
...                               "DATABASE_URL": "postgresql://audit:hunter2@db/tablewatch"})
>>> settings.partitions, settings.kafka_bootstrap_servers
(8, None)
>>> settings.database_url
SecretUrl('postgresql://audit:***@db/tablewatch')
>>> Settings.from_env({"TABLEWATCH_PARTITIONS": "four"})
Traceback (most recent call last):
...
consumers.errors.ConfigError: TABLEWATCH_PARTITIONS must be a whole number, not 'four'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from audit.store.urls import mask_password
from consumers.errors import ConfigError
from consumers.kafka_connection import KafkaConnection
from projections.split import SPLIT_BACKLOG
from projections.together import MAX_PASS_BATCH, PASS_BATCH

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
MAX_BATCH_SIZE = 10_000
"""The most messages one transaction may hold: a batch is held in memory, prepared, stored
and, after a fault, retried whole, so its size bounds each of those (about 7 MB of stored
state at 10,000 simulated events)."""
"""The two URI schemes libpq accepts."""


class SecretUrl:
    """Hold a connection URL whose password must not reach logs or reprs."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get_secret_value(self) -> str:
        """Return the URL with its password, for the one call that connects."""
        return self._value

    def __repr__(self) -> str:
        return f"SecretUrl({mask_password(self._value)!r})"

    def __str__(self) -> str:
        return mask_password(self._value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SecretUrl):
            return NotImplemented
        return self._value == other._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class Settings:
    """Hold everything the consumers need to know about their surroundings.

    ``kafka_bootstrap_servers`` is None when the dev broker should be started;
    ``database_url`` is None when no PostgreSQL server was configured.
    """

    kafka_bootstrap_servers: str | None = None
    kafka_security: tuple[tuple[str, Any], ...] = field(default=(), repr=False)
    """kafka-python's TLS and SASL settings, from the KAFKA_* variables (may hold a password)."""
    production: bool = False
    """TABLEWATCH_ENV=production: never start the dev broker in place of a cluster."""
    database_url: SecretUrl | None = None
    data_dir: Path = field(default_factory=lambda: Path("data"))
    events_topic: str = "table-events"
    dlq_topic: str = "table-events.dlq"
    alerts_topic: str = "table-alerts"
    partitions: int = 4
    replication_factor: int | None = None
    """Replicas of each topic tablewatch creates (None: the broker's default)."""
    ingest_partitions: tuple[int, ...] | None = None
    """The partitions of the events topic this ingest reads (None: every one)."""
    batch_size: int = 500
    """Messages a database transaction holds, at most :data:`MAX_BATCH_SIZE`."""
    poll_timeout_ms: int = 1000
    fault_deadline_s: int = 300
    """How long the ingest retries a lost broker or database before it exits."""
    serve_processes: int = field(default_factory=lambda: 2 if (os.cpu_count() or 1) > 1 else 1)
    """TABLEWATCH_SERVE_PROCESSES: 2 (the default with two cores or more) lets ``serve`` split a
    long catch-up pass across two processes; 1 keeps every pass in one."""
    split_backlog: int = SPLIT_BACKLOG
    """TABLEWATCH_SPLIT_BACKLOG: stored events a read model must lack before a pass splits."""
    pass_batch: int = PASS_BATCH
    """TABLEWATCH_PASS_BATCH: stored events ``serve`` applies between two writes of a pass, at
    most :data:`~projections.together.MAX_PASS_BATCH`."""
    timezone: str = "UTC"
    """The casino's time zone (IANA name): the console shows times in it; all are stored in UTC."""
    secure_cookies: bool = False
    """TABLEWATCH_SECURE_COOKIES: mark session cookies Secure (set it when served behind TLS)."""
    chain_full_walk_hours: int = 24
    """TABLEWATCH_CHAIN_FULL_WALK_HOURS: how old the console's chain walk may grow before a new
    one proves every stored event again (the runs between prove what was stored since). A
    walk of a year of a large floor takes many hours: a week (168) suits such a store."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """Build the settings from ``environ``; raise ConfigError naming a bad variable.

        Variables set to an empty string count as unset, so a blank line in a
        compose file means "use the default" rather than "use nothing".
        """
        defaults = cls()
        data_dir = _get(environ, "TABLEWATCH_DATA_DIR")
        replicas = _get(environ, "TABLEWATCH_REPLICATION_FACTOR")
        events_topic = _topic(environ, "TABLEWATCH_EVENTS_TOPIC", defaults.events_topic)
        return cls(
            kafka_bootstrap_servers=_bootstrap_servers(environ, "KAFKA_BOOTSTRAP_SERVERS"),
            kafka_security=_kafka_security(environ),
            production=_environment(environ, "TABLEWATCH_ENV") == "production",
            events_topic=events_topic,
            dlq_topic=_topic(environ, "TABLEWATCH_DLQ_TOPIC", f"{events_topic}.dlq"),
            alerts_topic=_topic(environ, "TABLEWATCH_ALERTS_TOPIC", defaults.alerts_topic),
            replication_factor=None
            if replicas is None
            else _int(environ, "TABLEWATCH_REPLICATION_FACTOR", 1, minimum=1),
            database_url=_database_url(environ, "DATABASE_URL"),
            data_dir=Path(data_dir) if data_dir is not None else defaults.data_dir,
            partitions=_int(environ, "TABLEWATCH_PARTITIONS", defaults.partitions, minimum=1),
            ingest_partitions=_partitions(environ, "TABLEWATCH_INGEST_PARTITIONS"),
            batch_size=_int(
                environ,
                "TABLEWATCH_BATCH_SIZE",
                defaults.batch_size,
                minimum=1,
                maximum=MAX_BATCH_SIZE,
            ),
            poll_timeout_ms=_int(
                environ, "TABLEWATCH_POLL_TIMEOUT_MS", defaults.poll_timeout_ms, minimum=0
            ),
            fault_deadline_s=_int(
                environ, "TABLEWATCH_FAULT_DEADLINE_S", defaults.fault_deadline_s, minimum=1
            ),
            serve_processes=_int(
                environ,
                "TABLEWATCH_SERVE_PROCESSES",
                defaults.serve_processes,
                minimum=1,
                maximum=2,
            ),
            split_backlog=_int(
                environ, "TABLEWATCH_SPLIT_BACKLOG", defaults.split_backlog, minimum=1
            ),
            pass_batch=_int(
                environ,
                "TABLEWATCH_PASS_BATCH",
                defaults.pass_batch,
                minimum=1,
                maximum=MAX_PASS_BATCH,
            ),
            timezone=_timezone(environ, "TABLEWATCH_TIMEZONE", defaults.timezone),
            secure_cookies=_flag(
                _get(environ, "TABLEWATCH_SECURE_COOKIES") or "false", "TABLEWATCH_SECURE_COOKIES"
            ),
            chain_full_walk_hours=_int(
                environ,
                "TABLEWATCH_CHAIN_FULL_WALK_HOURS",
                defaults.chain_full_walk_hours,
                minimum=1,
            ),
        )


def kafka_connection(settings: Settings) -> KafkaConnection | None:
    """Return the configured cluster with its TLS and SASL settings (None: no cluster)."""
    if settings.kafka_bootstrap_servers is None:
        return None
    return KafkaConnection(settings.kafka_bootstrap_servers, settings.kafka_security)


_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
_SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
_KAFKA_TEXT = {  # variable -> kafka-python setting, taken as given
    "KAFKA_SSL_CAFILE": "ssl_cafile",
    "KAFKA_SSL_CERTFILE": "ssl_certfile",
    "KAFKA_SSL_KEYFILE": "ssl_keyfile",
    "KAFKA_SASL_USERNAME": "sasl_plain_username",
    "KAFKA_SASL_PASSWORD": "sasl_plain_password",
}


def _kafka_security(environ: Mapping[str, str]) -> tuple[tuple[str, Any], ...]:
    """Return kafka-python's TLS and SASL settings from the KAFKA_* variables.

    >>> dict(_kafka_security({"KAFKA_SECURITY_PROTOCOL": "sasl_ssl",
    ...      "KAFKA_SASL_MECHANISM": "SCRAM-SHA-512", "KAFKA_SASL_USERNAME": "tw",
    ...      "KAFKA_SASL_PASSWORD": "x"}))["sasl_mechanism"]
    'SCRAM-SHA-512'
    """
    found: dict[str, Any] = {}
    protocol = _get(environ, "KAFKA_SECURITY_PROTOCOL")
    if protocol is not None:
        if protocol.upper() not in _SECURITY_PROTOCOLS:
            raise ConfigError(
                f"KAFKA_SECURITY_PROTOCOL must be one of {list(_SECURITY_PROTOCOLS)!r}, "
                f"not {protocol!r}"
            )
        found["security_protocol"] = protocol.upper()
    mechanism = _get(environ, "KAFKA_SASL_MECHANISM")
    if mechanism is not None:
        if mechanism.upper() not in _SASL_MECHANISMS:
            raise ConfigError(
                f"KAFKA_SASL_MECHANISM must be one of {list(_SASL_MECHANISMS)!r}, not {mechanism!r}"
            )
        found["sasl_mechanism"] = mechanism.upper()
    for name, setting in _KAFKA_TEXT.items():
        value = environ.get(name, "").strip()
        if value:
            found[setting] = value
    hostname = _get(environ, "KAFKA_SSL_CHECK_HOSTNAME")
    if hostname is not None:
        found["ssl_check_hostname"] = _flag(hostname, "KAFKA_SSL_CHECK_HOSTNAME")
    sasl = found.get("security_protocol", "").startswith("SASL")
    if sasl and not {"sasl_mechanism", "sasl_plain_username", "sasl_plain_password"} <= set(found):
        raise ConfigError(
            "KAFKA_SECURITY_PROTOCOL SASL_* needs KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME "
            "and KAFKA_SASL_PASSWORD"
        )
    return tuple(sorted(found.items()))


def _flag(raw: str, name: str) -> bool:
    lowered = raw.lower()
    if lowered not in ("true", "false", "1", "0", "yes", "no"):
        raise ConfigError(f"{name} must be true or false, not {raw!r}")
    return lowered in ("true", "1", "yes")


def _timezone(environ: Mapping[str, str], name: str, default: str) -> str:
    raw = _get(environ, name)
    if raw is None:
        return default
    try:
        ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"{name} must be an IANA time zone such as America/New_York, "
                          f"not {raw!r}") from None  # fmt: skip
    return raw


def _environment(environ: Mapping[str, str], name: str) -> str:
    raw = (_get(environ, name) or "development").lower()
    if raw not in ("development", "production"):
        raise ConfigError(f"{name} must be development or production, not {raw!r}")
    return raw


_TOPIC_NAME = re.compile(r"[A-Za-z0-9._-]{1,249}")


def _topic(environ: Mapping[str, str], name: str, default: str) -> str:
    raw = _get(environ, name)
    if raw is None:
        return default
    if not _TOPIC_NAME.fullmatch(raw) or raw in (".", ".."):
        raise ConfigError(
            f"{name} must be a Kafka topic name (letters, digits, . _ -), not {raw!r}"
        )
    return raw


def _get(environ: Mapping[str, str], name: str) -> str | None:
    """Return the stripped value of ``name``, or None when it is unset or blank."""
    raw = environ.get(name)
    if raw is None or not raw.strip():
        return None
    return raw.strip()


def _int(
    environ: Mapping[str, str], name: str, default: int, *, minimum: int, maximum: int | None = None
) -> int:
    """Return ``name`` as an int of at least ``minimum`` (and at most ``maximum``), or
    ``default`` when unset."""
    raw = _get(environ, name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {raw!r}")
    if maximum is not None and value > maximum:
        raise ConfigError(f"{name} must be at most {maximum:,}, not {raw!r}")
    return value


def _bootstrap_servers(environ: Mapping[str, str], name: str) -> str | None:
    """Return ``name`` as a comma-separated ``host[:port]`` list, or None when unset."""
    raw = _get(environ, name)
    if raw is None:
        return None
    servers = [server.strip() for server in raw.split(",")]
    for server in servers:
        host, colon, given = server.rpartition(":")
        port = given if colon else None
        if not colon:
            host = server
        if not host:
            raise ConfigError(f"{name} has an empty host in {raw!r}")
        # Checked here because kafka-python only trips over a bad port when it connects.
        if port is not None and not (port.isdigit() and 0 < int(port) < 65536):
            raise ConfigError(f"{name} has a port that is not 1 to 65535 in {raw!r}")
    return ",".join(servers)


def _partitions(environ: Mapping[str, str], name: str) -> tuple[int, ...] | None:
    """Return partition numbers given as ``0,1,2`` or ``0-5,8``; None when unset.

    >>> _partitions({"P": "0-2, 7"}, "P")
    (0, 1, 2, 7)
    """
    raw = _get(environ, name)
    if raw is None:
        return None
    chosen: set[int] = set()
    for part in raw.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"{name} must list partitions like 0,1,2 or 0-5,8, not {raw!r}")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ConfigError(f"{name} has a range that runs backwards in {raw!r}")
        chosen.update(range(first, last + 1))
    return tuple(sorted(chosen))


def _database_url(environ: Mapping[str, str], name: str) -> SecretUrl | None:
    """Return ``name`` as a secret PostgreSQL URL, or None when unset."""
    raw = _get(environ, name)
    if raw is None:
        return None
    if not raw.startswith(POSTGRES_SCHEMES):
        # The value may hold a password, so the message quotes it masked.
        raise ConfigError(f"{name} must be a postgresql:// URL, not {mask_password(raw)!r}")
    return SecretUrl(raw)
