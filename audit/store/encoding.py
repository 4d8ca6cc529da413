"""Encode a ``FactRecorded`` event's stored state directly, once, without the domain machinery.

Nearly every event the ingest writes is a ``FactRecorded``. Building one through
an aggregate (``trigger_event``, ``mutate``, ``apply``) and then eventsourcing's
mapper (``vars``, the JSON transcoder's generic encoder) costs more per event
than validating it. Its state is six strings and the link format's number,
so it is spelled here in one format string, byte for byte as eventsourcing's
mapper writes it with its JSON transcoder (compact separators,
``ensure_ascii=False``, no compressor or cipher).
``tests/unit/store/test_encoding.py`` holds the two to the same bytes, and the
stored event reads back through the mapper like any other.
"""

from __future__ import annotations

from datetime import UTC, datetime
from json.encoder import encode_basestring  # the C encoder the transcoder uses for strings
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from audit.facts.chain import CHAIN_VERSION
from audit.store.aggregates import FactRecorded

FACT_RECORDED_TOPIC = FactRecorded.TOPIC


def timestamp_now() -> str:
    """Return the current UTC time as the transcoder writes a ``timestamp``."""
    return datetime.now(UTC).isoformat()


def fact_recorded(
    aggregate_id: UUID,
    version: int,
    timestamp: str,
    fact_type: str,
    fact_json: str,
    source: str,
    chain_prev: str,
    chain_hash: str,
    chain_version: int = CHAIN_VERSION,
) -> StoredEvent:
    """Return the stored event of one ``FactRecorded``, as the mapper would encode it."""
    state = (
        '{"timestamp":{"_type_":"datetime_iso","_data_":"' + timestamp + '"},'
        '"fact_type":' + encode_basestring(fact_type) + ","
        '"fact_json":' + encode_basestring(fact_json) + ","
        '"source":' + encode_basestring(source) + ","
        '"chain_prev":"' + chain_prev + '","chain_hash":"' + chain_hash + '",'
        '"chain_version":' + str(chain_version) + "}"
    )
    return StoredEvent(aggregate_id, version, FACT_RECORDED_TOPIC, state.encode())
