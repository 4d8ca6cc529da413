"""Where a Kafka cluster is and how to reach it, as settings and clients take it.

Apart from :mod:`consumers.kafka_io` so that reading the settings (every command does)
does not import kafka-python, which only the commands that reach a broker need.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Bootstrap", "KafkaConnection", "client_config"]


@dataclass(frozen=True)
class KafkaConnection:
    """Where a cluster is and how to reach it: bootstrap servers, and TLS and SASL settings.

    ``security`` holds kafka-python client settings (``security_protocol``,
    ``sasl_mechanism``, ``ssl_cafile``, ...). It may hold a password, so it stays out
    of the repr, and messages name the servers only.
    """

    bootstrap_servers: str
    security: tuple[tuple[str, Any], ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        return self.bootstrap_servers


Bootstrap = str | KafkaConnection
"""A cluster as the clients take it: bootstrap servers alone (plaintext), or a connection."""


def client_config(bootstrap: Bootstrap) -> dict[str, Any]:
    """Return the kafka-python settings that reach ``bootstrap``.

    >>> client_config(KafkaConnection("k:9093", (("security_protocol", "SSL"),)))
    {'bootstrap_servers': 'k:9093', 'security_protocol': 'SSL'}
    """
    if isinstance(bootstrap, KafkaConnection):
        return {"bootstrap_servers": bootstrap.bootstrap_servers, **dict(bootstrap.security)}
    return {"bootstrap_servers": bootstrap}
