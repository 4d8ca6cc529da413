"""The cases pages: open a case from a finding, add notes, link rounds, close it; list them.

Plain HTML forms (each with the session's CSRF token) answered through the API's own
functions (``consumers/web/api/cases.py``), so a case changed from a page is the same
fact in the same hash-chained casebook as one changed through the API; every change
ends in a redirect to the case's page (post, redirect, get), and every read of a case is
in the access log. A form's bad field is named on the error page, never a traceback.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ValidationError

from consumers.web.api import cases as api
from consumers.web.api.findings_query import select_one
from consumers.web.api.inputs import BadInputError
from consumers.web.api.views import Views, views_of
from consumers.web.auth import check_csrf
from consumers.web.cases import DISPOSITIONS, CaseFilter, Cases
from consumers.web.console.pages import Analyst, page

router = APIRouter()
CasesDep = Annotated[Cases, Depends(api.cases_of)]
ViewsDep = Annotated[Views, Depends(views_of)]
CaseId = Annotated[str, Path(pattern=api.CASE_ID)]
Changing = [Depends(check_csrf)]
PER_PAGE = 50
M = TypeVar("M", bound=BaseModel)


def _body(model: type[M], **fields: Any) -> M:
    """Return the API's request body from form fields; a bad field is a 422 naming it."""
    try:
        return model(**fields)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "form"
        raise BadInputError(field, str(first["msg"]).removeprefix("Value error, ")) from None


def _one_of(value: str, allowed: tuple[str, ...], field: str) -> str | None:
    if value == "":
        return None
    if value not in allowed:
        raise BadInputError(field, f"one of {', '.join(allowed)}, not {value!r}")
    return value


def _to_case(case_id: str) -> RedirectResponse:
    return RedirectResponse(f"/cases/{case_id}", status_code=303)


@router.get("/cases", response_class=HTMLResponse, include_in_schema=False)
def cases_page(request: Request, user: Analyst, cases: CasesDep) -> HTMLResponse:
    """List cases, newest first, a page at a time, narrowed by status, disposition and table."""
    params = request.query_params
    form = {name: params.get(name, "").strip() for name in ("status", "disposition", "table")}
    before = params.get("before", "").strip() or None
    if before is not None and not re.fullmatch(api.CASE_ID, before):
        raise BadInputError("before", f"a case id such as C-00042, not {before!r}")
    query = CaseFilter(
        status=_one_of(form["status"], ("open", "closed"), "status"),  # type: ignore[arg-type]
        disposition=_one_of(form["disposition"], DISPOSITIONS, "disposition"),
        table_id=form["table"][:64] or None,
    )
    found = api.case_page(request, user, cases, query, limit=PER_PAGE, before=before)
    shown = {k: v for k, v in form.items() if v}
    export = "/api/cases?" + urlencode({**shown, "format": "csv"})
    older = None
    if found.more:
        older = "/cases?" + urlencode({**shown, "before": found.cases[-1]["case_id"]})
    return page(request, "cases.html", {"cases": found.cases, "total": found.total,
                                        "older": older, "newest": "/cases?" + urlencode(shown),
                                        "newer": before is not None,
                                        "form": form, "export": export,
                                        "dispositions": DISPOSITIONS})  # fmt: skip


@router.post("/cases", include_in_schema=False, dependencies=Changing)
def open_case(
    request: Request,
    user: Analyst,
    cases: CasesDep,
    views: ViewsDep,
    finding_id: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Open a case from a finding (the finding's page posts here)."""
    body = _body(api.OpenCase, finding_id=finding_id, note=note)
    return _to_case(api.open_case(request, user, cases, views, body).case_id)


@router.get("/cases/{case_id}", response_class=HTMLResponse, include_in_schema=False)
def case_page(
    request: Request, user: Analyst, cases: CasesDep, views: ViewsDep, case_id: CaseId
) -> HTMLResponse:
    """Show one case: its finding, notes, linked rounds and closing, with the forms to go on.

    The case keeps the finding as it was when opened. The findings view may say otherwise
    since: history judged again after a rules change (``serve --rebuild-views``) may no
    longer make the finding, or make it under another severity; the page says so beside it."""
    case = api.one_case(request, user, cases, case_id)
    now = select_one(views.findings, case.finding_id)
    context = {"case": case, "dispositions": DISPOSITIONS, "finding_now": now,
               "finding_gone": now is None}  # fmt: skip
    return page(request, "case.html", context)


@router.post("/cases/{case_id}/notes", include_in_schema=False, dependencies=Changing)
def add_note(
    user: Analyst, cases: CasesDep, case_id: CaseId, text: Annotated[str, Form()] = ""
) -> RedirectResponse:
    """Add a note to an open case."""
    api.add_note(user, cases, case_id, _body(api.AddNote, text=text))
    return _to_case(case_id)


@router.post("/cases/{case_id}/rounds", include_in_schema=False, dependencies=Changing)
def link_round(
    user: Analyst,
    cases: CasesDep,
    views: ViewsDep,
    case_id: CaseId,
    round_id: Annotated[str, Form()] = "",
    table_id: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Link a recorded round to an open case."""
    body = _body(api.LinkRound, round_id=round_id.strip(), table_id=table_id.strip() or None)
    api.link_round(user, cases, views, case_id, body)
    return _to_case(case_id)


@router.post("/cases/{case_id}/close", include_in_schema=False, dependencies=Changing)
def close_case(
    user: Analyst,
    cases: CasesDep,
    case_id: CaseId,
    disposition: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> RedirectResponse:
    """Close an open case with its disposition."""
    api.close_case(user, cases, case_id, _body(api.CloseCase, disposition=disposition, note=note))
    return _to_case(case_id)
