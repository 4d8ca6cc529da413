"""The aggregates that hold observed facts: ``Table`` (one per table and gaming day) and ``Round``.

They never reject a fact for breaking a gaming rule: every recorded fact is an
event of its aggregate, with where it came from and its link in the table's
hash chain. Topics are stable names, never module paths, so stored events
survive a refactoring.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from audit.facts.chain import CHAIN_VERSION, LINK_FACT_ONLY

NAMESPACE = uuid.UUID("7d1c0b9e-5a41-4f0e-b7a8-2c6d9e3f1a55")


def table_day_id(table_id: str, gaming_day: str) -> uuid.UUID:
    """Return the id of a table's aggregate for one gaming day."""
    return uuid.uuid5(NAMESPACE, f"table/{table_id}/{gaming_day}")


def round_aggregate_id(table_id: str, round_id: str) -> uuid.UUID:
    """Return the id of a round's aggregate."""
    return uuid.uuid5(NAMESPACE, f"round/{table_id}/{round_id}")


class FactRecorded(Aggregate.Event):
    """One observed fact, stored with its source and its link in the table's hash chain.

    ``fact_json`` is the validated event's JSON text, kept exactly: the chain's
    digest is taken over these bytes, so no re-encoding can blur the evidence.
    ``chain_version`` names the link format (``audit/facts/chain.py``); facts
    stored before it existed read as 1, the format they were chained in.
    """

    TOPIC = "tablewatch:FactRecorded"

    fact_type: str
    fact_json: str
    source: str
    chain_prev: str
    chain_hash: str
    chain_version: int = LINK_FACT_ONLY

    @property
    def fact(self) -> dict[str, Any]:
        """Return the fact as a dict."""
        fact: dict[str, Any] = json.loads(self.fact_json)
        return fact

    def apply(self, aggregate: Any) -> None:
        aggregate.fact_jsons.append(self.fact_json)
        aggregate.last_fact_type = self.fact_type


register_topic(FactRecorded.TOPIC, FactRecorded)  # both aggregates record facts with it


class Table(Aggregate):
    """A table's gaming day: its table-level facts and what the ingest observed about its stream."""

    TOPIC = "tablewatch:Table"

    class Created(Aggregate.Created):
        TOPIC = "tablewatch:Table.Created"
        table_id: str
        gaming_day: str

    def __init__(self, table_id: str, gaming_day: str) -> None:
        self.table_id = table_id
        self.gaming_day = gaming_day
        self.fact_jsons: list[str] = []
        self.last_fact_type: str | None = None

    @staticmethod
    def create_id(table_id: str, gaming_day: str) -> uuid.UUID:
        return table_day_id(table_id, gaming_day)

    @property
    def facts(self) -> list[dict[str, Any]]:
        """Return the recorded facts as dicts, in the order recorded."""
        return [json.loads(text) for text in self.fact_jsons]

    def record(
        self,
        fact_type: str,
        fact_json: str,
        source: str,
        chain_prev: str,
        chain_hash: str,
        chain_version: int = CHAIN_VERSION,
    ) -> None:
        """Record one observed fact, given as its type and its JSON text."""
        _record(self, fact_type, fact_json, source, chain_prev, chain_hash, chain_version)


class Round(Aggregate):
    """A round's facts in the order they were recorded: the analyst's replay reads these."""

    TOPIC = "tablewatch:Round"

    class Created(Aggregate.Created):
        TOPIC = "tablewatch:Round.Created"
        table_id: str
        round_id: str

    def __init__(self, table_id: str, round_id: str) -> None:
        self.table_id = table_id
        self.round_id = round_id
        self.fact_jsons: list[str] = []
        self.last_fact_type: str | None = None

    @staticmethod
    def create_id(table_id: str, round_id: str) -> uuid.UUID:
        return round_aggregate_id(table_id, round_id)

    facts = Table.facts

    def record(
        self,
        fact_type: str,
        fact_json: str,
        source: str,
        chain_prev: str,
        chain_hash: str,
        chain_version: int = CHAIN_VERSION,
    ) -> None:
        """Record one observed fact, given as its type and its JSON text."""
        _record(self, fact_type, fact_json, source, chain_prev, chain_hash, chain_version)


def _record(
    aggregate: Aggregate,
    fact_type: str,
    fact_json: str,
    source: str,
    chain_prev: str,
    chain_hash: str,
    chain_version: int,
) -> None:
    """Trigger the :class:`FactRecorded` both aggregates record a fact with."""
    aggregate.trigger_event(
        FactRecorded,
        fact_type=fact_type,
        fact_json=fact_json,
        source=source,
        chain_prev=chain_prev,
        chain_hash=chain_hash,
        chain_version=chain_version,
    )
