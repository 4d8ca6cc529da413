"""Cases: an analyst opens one from a finding, adds notes, links rounds, and closes it.

Each step is a case fact recorded in the store's casebook (``audit/store/casebook.py``):
append-only, hash-chained, verified by ``tablewatch verify-chain``. A closed case takes
no further notes or rounds; its disposition is one of :data:`DISPOSITIONS`:

- ``cleared``: looked into, nothing wrong (the finding was a recording slip, say);
- ``procedure_violation``: the game was run against its procedures (PA 621a, NJ
  19:47-10, the table's rules), dealt with in house;
- ``referred``: passed on (to the gaming control board or law enforcement).

Reading the casebook loads its own stream only (a few events per case), never the
tables' facts. Two writers at once collide on the casebook's version; the loser
reloads and tries again.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, TypeGuard, TypeVar, get_args

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError
from pydantic import BaseModel, ConfigDict, Field

from audit.facts.chain import GENESIS
from audit.store.application import FactStore
from audit.store.casebook import CASEBOOK, Casebook, casebook_id
from consumers.errors import TablewatchError
from consumers.web.auth import User

_T = TypeVar("_T")
Disposition = Literal["cleared", "procedure_violation", "referred"]
DISPOSITIONS: tuple[Disposition, ...] = get_args(Disposition)


def is_disposition(text: str) -> TypeGuard[Disposition]:
    """Return whether ``text`` names a disposition a case may close with."""
    return text in DISPOSITIONS


_ATTEMPTS = 5
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


@dataclass(frozen=True)
class CaseFilter:
    """What a list of cases is narrowed by; every field narrows."""

    status: Literal["open", "closed"] | None = None
    disposition: str | None = None
    table_id: str | None = None
    finding_id: str | None = None
    opened_by: str | None = None

    def keeps(self, case: dict[str, Any]) -> bool:
        """Return whether ``case`` passes the filter."""
        closed = case["closed"] or {}
        return (
            (self.status is None or case["status"] == self.status)
            and (self.disposition is None or closed.get("disposition") == self.disposition)
            and (
                self.table_id is None
                or case["table_id"] == self.table_id
                or any(r["table_id"] == self.table_id for r in case["rounds"])
            )
            and (self.finding_id is None or case["finding_id"] == self.finding_id)
            and (self.opened_by is None or case["by"] == self.opened_by)
        )


@dataclass(frozen=True)
class CasePage:
    """Cases, newest first, and how many the filter keeps in all."""

    cases: list[dict[str, Any]]
    total: int
    more: bool
    """Older cases the filter keeps follow the last one shown."""


def case_number(case_id: str) -> int:
    """Return a case id's number (``C-00042`` is 42): cases sort by it, past C-99999 too."""
    return int(case_id.removeprefix("C-"))


def _now() -> str:
    return datetime.now(UTC).isoformat()


class Cases:
    """The store's casebook: record case facts, read cases.

    The casebook is one stream, so loading it replays every case fact ever recorded. The app
    keeps the casebook it last read and reads only the facts recorded since, by any writer
    (#16: a request costs the facts since the last one, not the casebook's history). What it
    keeps is never handed to a writer: a fact is recorded on a fork (sharing the cases the
    fact does not change), which is kept only once it is saved, so a collision leaves nothing
    half-applied behind.
    """

    def __init__(self, store: FactStore) -> None:
        self.store = store
        self._kept: Casebook | None = None
        self._lock = threading.Lock()
        self.facts_read = 0
        """Casebook events read from the store (a full load counts every one)."""

    def _read(self, take: Callable[[Casebook | None], _T]) -> _T:
        """Return ``take`` of the casebook as stored now, under the lock: the kept casebook is
        brought up to date in place, so no reader may hold it outside (take copies)."""
        with self._lock:
            book = self._kept
            if book is None:
                try:
                    book = self.store.repository.get(casebook_id())
                except AggregateNotFoundError:
                    return take(None)
                self.facts_read += book.version
            else:
                for event in self.store.events.get(casebook_id(), gt=book.version):
                    if not isinstance(event, Casebook.CaseRecorded):  # every one after Created
                        raise TypeError(f"the casebook holds a {type(event).__name__}")
                    event.mutate(book)
                    self.facts_read += 1
            self._kept = book
            return take(book)

    def _record(self, make: Any) -> dict[str, Any]:
        """Record the fact ``make(book)`` returns, retrying a collision; return its case."""
        for attempt in range(_ATTEMPTS):
            current = self._read(lambda book: None if book is None else book.fork())
            book = current if current is not None else Casebook(CASEBOOK)
            fact: CaseFact = make(book)
            book.record(fact.type, fact.model_dump_json())
            try:
                self.store.save(book)
            except IntegrityError:
                if attempt == _ATTEMPTS - 1:
                    raise
                continue  # another writer recorded first: read what it recorded, judge again
            with self._lock:
                if self._kept is None or self._kept.version < book.version:
                    self._kept = book
            return copy.deepcopy(book.cases[fact.case_id])
        raise AssertionError("unreachable")

    def open(self, user: User, finding: dict[str, Any], note: str = "") -> dict[str, Any]:
        """Open a case from a finding (a row of the findings view), with a first note."""

        def make(book: Casebook) -> CaseFact:
            return CaseOpened(
                case_id=f"C-{len(book.cases) + 1:05d}",
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

    def _open_case(self, book: Casebook, case_id: str) -> dict[str, Any]:
        case = book.cases.get(case_id)
        if case is None:
            raise CaseNotFoundError(f"no case {case_id!r}")
        if case["status"] != "open":
            raise CaseError(f"case {case_id} is closed ({case['closed']['disposition']})")
        return case

    def note(self, user: User, case_id: str, text: str) -> dict[str, Any]:
        """Add a note to an open case."""
        if not text.strip():
            raise CaseError("a note needs some text")

        def make(book: Casebook) -> CaseFact:
            self._open_case(book, case_id)
            return CaseNoteAdded(
                case_id=case_id, at=_now(), by=user.name, role=user.role, text=text.strip()
            )

        return self._record(make)

    def link_round(self, user: User, case_id: str, table_id: str, round_id: str) -> dict[str, Any]:
        """Link a round (known to exist: the caller checks the round index) to an open case."""

        def make(book: Casebook) -> CaseFact:
            case = self._open_case(book, case_id)
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

        def make(book: Casebook) -> CaseFact:
            self._open_case(book, case_id)
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
        return self._read(
            lambda book: (GENESIS, 0) if book is None else (book.chain_head, book.count)
        )

    def get(self, case_id: str) -> dict[str, Any]:
        """Return one case with its notes, rounds and closing."""
        case = self._read(lambda book: None if book is None else copy.deepcopy(
            book.cases.get(case_id)))  # fmt: skip
        if case is None:
            raise CaseNotFoundError(f"no case {case_id!r}")
        return case

    def select(
        self, query: CaseFilter, *, limit: int | None = None, before: str | None = None
    ) -> CasePage:
        """Return the cases the filter keeps, newest first: at most ``limit`` of them, older
        than case ``before`` if given, with how many the filter keeps in all.

        Only the cases returned are copied (#16: a page of a casebook of years costs the page;
        the filter itself is a pass over the cases in memory, about a microsecond a case)."""
        below = None if before is None else case_number(before)

        def kept(book: Casebook | None) -> CasePage:
            cases = [] if book is None else [c for c in book.cases.values() if query.keeps(c)]
            cases.sort(key=lambda c: case_number(c["case_id"]), reverse=True)
            older = cases if below is None else [
                c for c in cases if case_number(c["case_id"]) < below
            ]  # fmt: skip
            shown = older if limit is None else older[:limit]
            return CasePage(copy.deepcopy(shown), len(cases), len(older) > len(shown))

        return self._read(kept)

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
