"""Cases: an analyst opens one from a finding, adds notes, links rounds, and closes it.

Each step is a case fact recorded in the store's casebook (``audit/store/casebook.py``):
append-only, hash-chained, verified by ``tablewatch verify-chain``. A closed case takes
no further notes or rounds; its disposition is one of :data:`DISPOSITIONS`:

- ``cleared``: looked into, nothing wrong (the finding was a recording slip, say);
- ``procedure_violation``: the game was run against its procedures (PA 621a, NJ
  19:47-10, the table's rules), dealt with in house;
- ``referred``: passed on (to the gaming control board or law enforcement).

Cases are read from the cases view (``projections/cases_view.py``): a request folds in the
case facts recorded since the view's head and reads the rows it asks for, never the
casebook's history and never the tables' facts. Two writers at once collide on the
casebook's version; the loser catches up and judges again.
"""

from __future__ import annotations

import csv
import io
import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, TypeGuard, get_args

from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, ConfigDict, Field

from audit.store.application import FactStore
from audit.store.casebook import CASEBOOK, Casebook, case_fact_after, casebook_id
from consumers.errors import TablewatchError
from consumers.web.auth import User
from projections.cases_view import (
    CaseFilter,
    CaseHead,
    CasePage,
    case_number,
    catch_up_cases,
    open_cases_view,
)

__all__ = ["CaseFilter", "CasePage", "Cases", "case_number"]
Disposition = Literal["cleared", "procedure_violation", "referred"]
DISPOSITIONS: tuple[Disposition, ...] = get_args(Disposition)


def is_disposition(text: str) -> TypeGuard[Disposition]:
    """Return whether ``text`` names a disposition a case may close with."""
    return text in DISPOSITIONS


_ATTEMPTS = 12
_BACKOFF_S = 0.002
"""A collision's retry waits up to this many seconds times the attempts so far, at random, so
two writers colliding again and again fall out of step."""
MAX_TEXT = 10_000


class CaseError(TablewatchError, ValueError):
    """Raised for a step a case cannot take (a note on a closed case, say): answered 409."""


class CaseNotFoundError(TablewatchError, LookupError):
    """Raised for a case id the casebook does not hold."""


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    at: str
    by: str
    role: str


class CaseOpened(_Fact):
    """A case opened from a finding: the finding's identity and what it was about."""

    type: Literal["case_opened"] = "case_opened"
    finding_id: str
    code: str
    severity: str
    rule: str
    title: str
    table_id: str
    round_id: str | None
    at_stake: str


class CaseNoteAdded(_Fact):
    """A note on an open case."""

    type: Literal["case_note_added"] = "case_note_added"
    text: str = Field(min_length=1, max_length=MAX_TEXT)


class CaseRoundLinked(_Fact):
    """A round linked to an open case as further evidence."""

    type: Literal["case_round_linked"] = "case_round_linked"
    table_id: str
    round_id: str


class CaseClosed(_Fact):
    """A case closed with its disposition."""

    type: Literal["case_closed"] = "case_closed"
    disposition: Disposition
    note: str = Field(default="", max_length=MAX_TEXT)


CaseFact = CaseOpened | CaseNoteAdded | CaseRoundLinked | CaseClosed


def _now() -> str:
    return datetime.now(UTC).isoformat()


class Cases:
    """The store's casebook: record case facts, read cases, through the cases view."""

    def __init__(self, store: FactStore) -> None:
        self.store = store
        self.view = open_cases_view(store)
        self.facts_read = 0
        """Case facts this app read from the store to catch the view up."""

    def _catch_up(self) -> CaseHead:
        head, read = catch_up_cases(self.store, self.view)
        self.facts_read += read
        return head

    def _record(self, make: Callable[[], CaseFact]) -> dict[str, Any]:
        """Record the fact ``make()`` returns, judged on the view as caught up to a head, after
        that head's version; on a collision (another writer recorded first) catch up and judge
        again. Return the case as recorded.

        The view's rows are at least as new as the head (a row is written with the head that
        covers it), so a judgement never rests on a case older than the head; a row newer than
        the head means another writer's fact is stored after it, and the save collides."""
        for attempt in range(_ATTEMPTS):
            head = self._catch_up()
            fact = make()
            text = fact.model_dump_json()
            recorded: Casebook | Casebook.CaseRecorded
            if head.version == 0:  # the first case fact creates the casebook
                recorded = Casebook(CASEBOOK)
                recorded.record(fact.type, text)
            else:
                recorded = case_fact_after(head.version, head.chain_head, fact.type, text)
            try:
                self.store.save(recorded)
            except IntegrityError:
                # another writer recorded first: read what it recorded, judge again
                time.sleep(random.uniform(0, _BACKOFF_S * (attempt + 1)))
                continue
            return self.get(fact.case_id)
        raise CaseError(
            f"other analysts recorded case facts first {_ATTEMPTS} times running; nothing was "
            "recorded: try again"
        )

    def open(self, user: User, finding: dict[str, Any], note: str = "") -> dict[str, Any]:
        """Open a case from a finding (a row of the findings view), with a first note."""

        def make() -> CaseFact:
            return CaseOpened(
                case_id=f"C-{self.view.last_number() + 1:05d}",
                at=_now(),
                by=user.name,
                role=user.role,
                **{
                    k: finding[k]
                    for k in (
                        "finding_id",
                        "code",
                        "severity",
                        "rule",
                        "title",
                        "table_id",
                        "round_id",
                    )
                },
                at_stake=str(finding["at_stake"]),
            )

        case = self._record(make)
        if note.strip():
            case = self.note(user, case["case_id"], note)
        return case

    def _open_case(self, case_id: str) -> dict[str, Any]:
        case = self.view.case(case_id)
        if case is None:
            raise CaseNotFoundError(f"no case {case_id!r}")
        if case["status"] != "open":
            raise CaseError(f"case {case_id} is closed ({case['closed']['disposition']})")
        return case

    def note(self, user: User, case_id: str, text: str) -> dict[str, Any]:
        """Add a note to an open case."""
        if not text.strip():
            raise CaseError("a note needs some text")

        def make() -> CaseFact:
            self._open_case(case_id)
            return CaseNoteAdded(
                case_id=case_id, at=_now(), by=user.name, role=user.role, text=text.strip()
            )

        return self._record(make)

    def link_round(self, user: User, case_id: str, table_id: str, round_id: str) -> dict[str, Any]:
        """Link a round (known to exist: the caller checks the round index) to an open case."""

        def make() -> CaseFact:
            case = self._open_case(case_id)
            if any(r["table_id"] == table_id and r["round_id"] == round_id for r in case["rounds"]):
                raise CaseError(f"round {round_id} at {table_id} is linked to {case_id} already")
            return CaseRoundLinked(
                case_id=case_id,
                at=_now(),
                by=user.name,
                role=user.role,
                table_id=table_id,
                round_id=round_id,
            )

        return self._record(make)

    def close(self, user: User, case_id: str, disposition: str, note: str = "") -> dict[str, Any]:
        """Close an open case with its disposition."""
        if not is_disposition(disposition):
            raise CaseError(
                f"disposition must be one of {', '.join(DISPOSITIONS)}, not {disposition!r}"
            )

        def make() -> CaseFact:
            self._open_case(case_id)
            return CaseClosed(
                case_id=case_id,
                at=_now(),
                by=user.name,
                role=user.role,
                disposition=disposition,
                note=note.strip(),
            )

        return self._record(make)

    def chain_head(self) -> tuple[str, int]:
        """Return the casebook chain's head and how many case facts it covers."""
        head = self._catch_up()
        return head.chain_head, head.facts

    def get(self, case_id: str) -> dict[str, Any]:
        """Return one case with its notes, rounds and closing."""
        self._catch_up()
        case = self.view.case(case_id)
        if case is None:
            raise CaseNotFoundError(f"no case {case_id!r}")
        return case

    def select(
        self, query: CaseFilter, *, limit: int | None = None, before: str | None = None
    ) -> CasePage:
        """Return the cases the filter keeps, newest first: at most ``limit`` of them, older
        than case ``before`` if given, with how many the filter keeps in all (#16: the view's
        indexes answer; a page costs the page)."""
        self._catch_up()
        return self.view.select(query, limit=limit, before=before)

    def facts(self) -> list[dict[str, Any]]:
        """Return every case fact as stored, with its chain link, in order (the export)."""
        found = []
        for event in self.store.events.get(casebook_id()):
            if isinstance(event, Casebook.CaseRecorded):
                found.append(
                    {
                        **json.loads(event.fact_json),
                        "stored_at": event.timestamp.isoformat(),
                        "chain_prev": event.chain_prev,
                        "chain_hash": event.chain_hash,
                    }
                )
        return found


CSV_COLUMNS = (
    "case_id",
    "status",
    "opened_at",
    "opened_by",
    "finding_id",
    "code",
    "severity",
    "rule",
    "table_id",
    "round_id",
    "at_stake",
    "notes",
    "linked_rounds",
    "closed_at",
    "closed_by",
    "disposition",
    "closing_note",
)


def cases_csv(cases: list[dict[str, Any]]) -> str:
    """Return cases as CSV, one row per case (notes joined, rounds as TABLE/ROUND)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for case in cases:
        closed = case["closed"] or {}
        writer.writerow(
            [
                case["case_id"],
                case["status"],
                case["at"],
                case["by"],
                case["finding_id"],
                case["code"],
                case["severity"],
                case["rule"],
                case["table_id"],
                case["round_id"] or "",
                case["at_stake"],
                " | ".join(f"{n['at']} {n['by']}: {n['text']}" for n in case["notes"]),
                " ".join(f"{r['table_id']}/{r['round_id']}" for r in case["rounds"]),
                closed.get("at", ""),
                closed.get("by", ""),
                closed.get("disposition", ""),
                closed.get("note", ""),
            ]
        )
    return buffer.getvalue()
