"""The casebook: analysts' cases as facts in the same store, append-only and hash-chained.

Every case fact (opened from a finding, a note, a round linked, closed with a
disposition) is one ``CaseRecorded`` event of the single ``Casebook`` aggregate, so the
casebook is one stream: its versions number every case fact without a hole, two
writers at once collide on a version and one retries, and each fact is chained to the
one before it over every stored field (:func:`~audit.facts.chain.case_link`), as a
table's facts are. The stored-events table refuses UPDATE and DELETE, and
``tablewatch verify-chain`` recomputes the casebook's chain with the tables'.

The aggregate also keeps each case's current state (``cases``), built as its events
apply, so reading the casebook reads its own stream only, never the tables' facts.
"""

from __future__ import annotations

import copy
import json
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


def apply_case_fact(cases: dict[str, dict[str, Any]], fact: dict[str, Any]) -> None:
    """Fold one case fact into the cases' state (the casebook's and any reader's).

    A case is never changed in place: the fact's case is replaced by a new dict (its notes
    and rounds new lists), so a :meth:`Casebook.fork` may share every other case with the
    casebook it was forked from (#16: a write copies the case it changes, not the casebook).
    """
    kind, case_id = fact["type"], fact["case_id"]
    if kind == "case_opened":
        cases[case_id] = {**{k: v for k, v in fact.items() if k != "type"}, "status": "open",
                          "notes": [], "rounds": [], "closed": None}  # fmt: skip
        return
    case = cases.get(case_id)
    if case is None:
        return  # a fact about a case never opened: kept in the stream, shown by verification
    if kind == "case_note_added":
        note = {"at": fact["at"], "by": fact["by"], "text": fact["text"]}
        cases[case_id] = {**case, "notes": [*case["notes"], note]}
    elif kind == "case_round_linked":
        linked = {"at": fact["at"], "by": fact["by"], "table_id": fact["table_id"],
                  "round_id": fact["round_id"]}  # fmt: skip
        cases[case_id] = {**case, "rounds": [*case["rounds"], linked]}
    elif kind == "case_closed":
        closed = {"at": fact["at"], "by": fact["by"], "disposition": fact["disposition"],
                  "note": fact["note"]}  # fmt: skip
        cases[case_id] = {**case, "status": "closed", "closed": closed}


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
            apply_case_fact(aggregate.cases, json.loads(self.fact_json))

    def __init__(self, name: str) -> None:
        self.name = name
        self.chain_head = GENESIS
        self.count = 0
        self.cases: dict[str, dict[str, Any]] = {}

    @staticmethod
    def create_id(name: str) -> uuid.UUID:
        return casebook_id(name)

    def fork(self) -> Casebook:
        """Return a copy to record on: it shares every case dict (no fact changes one in
        place) and has its own cases and pending events, so recording on it, saved or not,
        leaves this casebook as it was."""
        twin = copy.copy(self)
        twin.cases = dict(self.cases)
        twin._pending_events = []
        return twin

    def record(self, fact_type: str, fact_json: str) -> None:
        """Record one case fact, chained to the casebook's previous one."""
        timestamp = self.CaseRecorded.create_timestamp()
        chain_hash = case_link(
            self.chain_head, str(self.id), self.version + 1, timestamp.isoformat(), fact_type,
            digest(fact_json),
        )  # fmt: skip
        self.trigger_event(
            self.CaseRecorded,
            timestamp=timestamp,
            fact_type=fact_type,
            fact_json=fact_json,
            chain_prev=self.chain_head,
            chain_hash=chain_hash,
        )


register_topic(Casebook.CaseRecorded.TOPIC, Casebook.CaseRecorded)
