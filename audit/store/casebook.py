"""The casebook: analysts' cases as facts in the same store, append-only and hash-chained.

Every case fact (opened from a finding, a note, a round linked, closed with a
disposition) is one ``CaseRecorded`` event of the single ``Casebook`` aggregate, so the
casebook is one stream: its versions number every case fact without a hole, two
writers at once collide on a version and one retries, and each fact is chained to the
one before it over every stored field (:func:`~audit.facts.chain.case_link`), as a
table's facts are. The stored-events table refuses UPDATE and DELETE, and
``tablewatch verify-chain`` recomputes the casebook's chain with the tables'.

The aggregate keeps only its chain's head and how many facts it holds: the cases
themselves are a view of the stream (``projections/cases_view.py``), kept in the database,
so nothing loads the whole casebook to read or record a case (#16). A fact is recorded
after a known version and head (:func:`case_fact_after`) without loading the aggregate.
"""

from __future__ import annotations

import uuid
from typing import Any

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from audit.facts.chain import GENESIS, case_link, digest
from audit.store.aggregates import NAMESPACE

CASEBOOK = "cases"
"""The one casebook's name."""


def casebook_id(name: str = CASEBOOK) -> uuid.UUID:
    """Return the casebook aggregate's id."""
    return uuid.uuid5(NAMESPACE, f"casebook/{name}")


class Casebook(Aggregate):
    """Every case fact, in the order recorded, chained."""

    TOPIC = "tablewatch:Casebook"

    class Created(Aggregate.Created):
        TOPIC = "tablewatch:Casebook.Created"
        name: str

    class CaseRecorded(Aggregate.Event):
        """One case fact, its JSON text kept exactly, with its link in the casebook's chain."""

        TOPIC = "tablewatch:Casebook.CaseRecorded"
        fact_type: str
        fact_json: str
        chain_prev: str
        chain_hash: str

        def apply(self, aggregate: Any) -> None:
            aggregate.chain_head = self.chain_hash
            aggregate.count += 1

    def __init__(self, name: str) -> None:
        self.name = name
        self.chain_head = GENESIS
        self.count = 0

    @staticmethod
    def create_id(name: str) -> uuid.UUID:
        return casebook_id(name)

    def record(self, fact_type: str, fact_json: str) -> None:
        """Record one case fact, chained to the casebook's previous one."""
        event = case_fact_after(self.version, self.chain_head, fact_type, fact_json, self.id)
        self.trigger_event(
            self.CaseRecorded,
            timestamp=event.timestamp,
            fact_type=fact_type,
            fact_json=fact_json,
            chain_prev=event.chain_prev,
            chain_hash=event.chain_hash,
        )


def case_fact_after(
    version: int, chain_head: str, fact_type: str, fact_json: str, book: uuid.UUID | None = None
) -> Casebook.CaseRecorded:
    """Return the case fact that follows the casebook at ``version`` with head ``chain_head``,
    chained to it: saved, it collides with any other writer's fact at the same version."""
    book = casebook_id() if book is None else book
    timestamp = Casebook.CaseRecorded.create_timestamp()
    chain_hash = case_link(
        chain_head, str(book), version + 1, timestamp.isoformat(), fact_type, digest(fact_json)
    )
    # an event class's fields are made by eventsourcing's metaclass, unseen by mypy
    return Casebook.CaseRecorded(  # type: ignore[call-arg]
        originator_id=book,
        originator_version=version + 1,
        timestamp=timestamp,
        fact_type=fact_type,
        fact_json=fact_json,
        chain_prev=chain_head,
        chain_hash=chain_hash,
    )


register_topic(Casebook.CaseRecorded.TOPIC, Casebook.CaseRecorded)
