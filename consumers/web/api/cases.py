"""``/api/cases``: open a case from a finding, add notes, link rounds, close it; list, export.

Analysts only. Every change is a POST carrying the session's CSRF token; every read of
a case is in the access log (``case`` with its id; a list or export as ``cases``). A step
a case cannot take (a note on a closed case) is 409; an unknown case, finding or round
404.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from consumers.web.access_log import record_access
from consumers.web.api.findings_query import select_one
from consumers.web.api.inputs import BadInputError
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, check_csrf, require
from consumers.web.cases import MAX_TEXT, CaseFilter, CasePage, Cases, Disposition, cases_csv
from consumers.web.errors import NotFoundError

router = APIRouter(prefix="/api/cases", tags=["cases"])
Analyst = Annotated[User, Depends(require("analyst"))]
CASE_ID = r"^C-\d{5,}$"
CaseId = Annotated[str, Path(pattern=CASE_ID)]
MAX_CASES = 1_000
"""The most cases one JSON answer lists: older ones are asked for with ``before``."""
Changing = [Depends(check_csrf)]


class Note(BaseModel):
    """A note on a case."""

    at: str
    by: str
    text: str


class LinkedRound(BaseModel):
    """A round linked to a case."""

    at: str
    by: str
    table_id: str
    round_id: str


class Closing(BaseModel):
    """How and by whom a case was closed."""

    at: str
    by: str
    disposition: Disposition
    note: str


class CaseOut(BaseModel):
    """A case: the finding it was opened from, its notes and rounds, and its closing."""

    case_id: str
    status: Literal["open", "closed"]
    at: str
    by: str
    finding_id: str
    code: str
    severity: str
    rule: str
    title: str
    table_id: str
    round_id: str | None
    at_stake: Decimal
    notes: list[Note]
    rounds: list[LinkedRound]
    closed: Closing | None


class OpenCase(BaseModel):
    """Open a case from this finding, with an optional first note."""

    finding_id: str = Field(max_length=64)
    note: str = Field(default="", max_length=MAX_TEXT)


class AddNote(BaseModel):
    """A note to add."""

    text: str = Field(min_length=1, max_length=MAX_TEXT)


class LinkRound(BaseModel):
    """A round to link; its table may be left out when the round id is unique."""

    round_id: str = Field(min_length=1, max_length=64)
    table_id: str | None = Field(default=None, max_length=64)


class CloseCase(BaseModel):
    """Close with a disposition and a closing note."""

    disposition: Disposition
    note: str = Field(default="", max_length=MAX_TEXT)


def cases_of(request: Request) -> Cases:
    """Return the app's casebook (a FastAPI dependency)."""
    cases: Cases = request.app.state.cases
    return cases


CasesDep = Annotated[Cases, Depends(cases_of)]
ViewsDep = Annotated[Views, Depends(views_of)]


def round_table(views: Views, round_id: str, table_id: str | None) -> str:
    """Return the table a round was recorded at; 404 if never recorded, 422 if ambiguous."""
    tables = views.round_index.tables_of(round_id)
    if table_id is not None:
        if table_id not in tables:
            raise NotFoundError(f"no round {round_id!r} at table {table_id!r}")
        return table_id
    if not tables:
        raise NotFoundError(f"no round {round_id!r}")
    if len(tables) > 1:
        raise BadInputError(
            "table_id", f"round {round_id!r} was recorded at {sorted(tables)}: name the table"
        )
    return tables[0]


def _out(case: dict[str, Any]) -> CaseOut:
    return CaseOut.model_validate(case)


@router.get("", response_model=list[CaseOut], responses={200: {"content": {"text/csv": {}}}})
def list_cases(
    request: Request,
    user: Analyst,
    cases: CasesDep,
    status: Literal["open", "closed"] | None = None,
    disposition: Disposition | None = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    finding: Annotated[str | None, Query(max_length=64)] = None,
    opened_by: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_CASES, description="at most this many")] = 100,
    before: Annotated[
        str | None, Query(pattern=CASE_ID, description="only cases older than this one")
    ] = None,
    format: Literal["json", "csv"] = "json",
) -> list[CaseOut] | Response:
    """Return the cases matching every filter, newest first: the newest ``limit`` (older ones
    with ``before`` = the last id returned), or with ``format=csv`` every one, to export."""
    query = CaseFilter(
        status=status,
        disposition=disposition,
        table_id=table,
        finding_id=finding,
        opened_by=opened_by,
    )
    if format == "csv":
        return Response(
            cases_csv(case_page(request, user, cases, query, limit=None, before=before).cases),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="cases.csv"'},
        )
    found = case_page(request, user, cases, query, limit=limit, before=before)
    return [_out(case) for case in found.cases]


def case_page(
    request: Request,
    user: User,
    cases: Cases,
    query: CaseFilter,
    *,
    limit: int | None,
    before: str | None,
) -> CasePage:
    """Return a page of cases as the API and the console list them; the read is logged."""
    record_access(request.app.state.db, user, "cases", str(request.url.query) or "all")
    return cases.select(query, limit=limit, before=before)


@router.get("/facts", response_model=list[dict[str, Any]])
def case_facts(request: Request, user: Analyst, cases: CasesDep) -> list[dict[str, Any]]:
    """Export every case fact as stored, with its link in the casebook's hash chain."""
    record_access(request.app.state.db, user, "cases", "facts")
    return cases.facts()


@router.post("", response_model=CaseOut, status_code=201, dependencies=Changing)
def open_case(
    request: Request, user: Analyst, cases: CasesDep, views: ViewsDep, body: OpenCase
) -> CaseOut:
    """Open a case from a finding."""
    finding = select_one(views.findings, body.finding_id)
    if finding is None:
        raise NotFoundError(f"no finding {body.finding_id!r}")
    case = cases.open(user, finding, body.note)
    record_access(request.app.state.db, user, "case", case["case_id"])
    return _out(case)


@router.get("/{case_id}", response_model=CaseOut)
def one_case(request: Request, user: Analyst, cases: CasesDep, case_id: CaseId) -> CaseOut:
    """Return one case."""
    case = cases.get(case_id)
    record_access(request.app.state.db, user, "case", case_id)
    return _out(case)


@router.post("/{case_id}/notes", response_model=CaseOut, dependencies=Changing)
def add_note(user: Analyst, cases: CasesDep, case_id: CaseId, body: AddNote) -> CaseOut:
    """Add a note to an open case."""
    return _out(cases.note(user, case_id, body.text))


@router.post("/{case_id}/rounds", response_model=CaseOut, dependencies=Changing)
def link_round(
    user: Analyst, cases: CasesDep, views: ViewsDep, case_id: CaseId, body: LinkRound
) -> CaseOut:
    """Link a recorded round to an open case."""
    cases.get(case_id)  # an unknown case is 404 before the round is looked up
    table = round_table(views, body.round_id, body.table_id)
    return _out(cases.link_round(user, case_id, table, body.round_id))


@router.post("/{case_id}/close", response_model=CaseOut, dependencies=Changing)
def close_case(user: Analyst, cases: CasesDep, case_id: CaseId, body: CloseCase) -> CaseOut:
    """Close an open case with its disposition."""
    return _out(cases.close(user, case_id, body.disposition, body.note))
