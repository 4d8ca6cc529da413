"""The findings queue and a finding's page.

The queue takes the API's filters (``/api/findings``) from a plain GET form and answers
through the API's own function, so the console and the API never filter differently.
An empty form field means "any". Times typed without a UTC offset are read in the
casino's time zone (the ``TABLEWATCH_TIMEZONE`` setting), as everything on the page is
shown in it; a time with an offset is taken as given.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, get_args
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import HTMLResponse

from consumers.web.access_log import record_access
from consumers.web.api import findings as api
from consumers.web.api.inputs import BadInputError
from consumers.web.api.views import Views, views_of
from consumers.web.cases import CaseFilter
from consumers.web.console.pages import Analyst, page

router = APIRouter()

FILTERS = ("table", "dealer", "player", "code", "code_prefix", "severity", "gaming_day",
           "round", "since", "until")  # fmt: skip
"""The queue's form fields, named as the API's query parameters."""
_CODE = re.compile(api.CODE)
_SEVERITIES = ("info", "warning", "critical")
PER_PAGE = 50
ORDERS: tuple[api.Order, ...] = get_args(api.Order)
"""The queue opens on what just happened; a shift worked through in order asks for oldest."""


def in_casino_time(text: str | None, zone: str) -> str | None:
    """Return a typed time with its UTC offset: one typed without is the casino's local time.

    >>> in_casino_time("2026-11-21T20:00", "America/New_York")
    '2026-11-21T20:00:00-05:00'
    >>> in_casino_time("2026-11-21T20:00+00:00", "America/New_York")
    '2026-11-21T20:00+00:00'
    """
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text  # the API's parser names the field and the problem
    if moment.tzinfo is not None:
        return text
    return moment.replace(tzinfo=ZoneInfo(zone)).isoformat()


def _form(request: Request) -> dict[str, str]:
    """Return the filters the form filled in (empty fields left out)."""
    params = request.query_params
    return {name: params[name].strip() for name in FILTERS if params.get(name, "").strip()}


def _check(form: dict[str, str]) -> None:
    for name in ("code", "code_prefix"):
        if name in form and not _CODE.fullmatch(form[name]):
            raise BadInputError(
                name, f"letters, digits and '-' (e.g. PG-SETTLE), not {form[name]!r}"
            )
    if "severity" in form and form["severity"] not in _SEVERITIES:
        raise BadInputError(
            "severity", f"one of {', '.join(_SEVERITIES)}, not {form['severity']!r}"
        )
    for name in ("table", "dealer", "player", "round"):
        if len(form.get(name, "")) > 64:
            raise BadInputError(name, "at most 64 characters")


def _order(request: Request) -> api.Order:
    """Return the order asked for: newest first unless the analyst asks for oldest."""
    text = request.query_params.get("order", "") or "newest"
    for order in ORDERS:  # the API's own orders, spelt once there
        if text == order:
            return order
    raise BadInputError("order", f"one of {', '.join(ORDERS)}, not {text!r}")


def _page_number(request: Request) -> int:
    text = request.query_params.get("page", "1")
    if not text.isdigit() or int(text) < 1:
        raise BadInputError("page", f"a page number from 1, not {text!r}")
    return int(text)


@router.get("/findings", response_class=HTMLResponse, include_in_schema=False)
def queue(
    request: Request, user: Analyst, views: Annotated[Views, Depends(views_of)]
) -> HTMLResponse:
    """Show the findings queue: filtered, paged, newest first or oldest first."""
    form = _form(request)
    context: dict[str, Any] = {"form": form, "result": None, "error": None, "order": "newest"}
    try:
        _check(form)
        context["order"] = order = _order(request)
        number = _page_number(request)
        zone = request.app.state.settings.timezone
        context["result"] = api.list_findings(
            request, user, views,
            table=form.get("table"), dealer=form.get("dealer"), player=form.get("player"),
            code=form.get("code"), code_prefix=form.get("code_prefix"),
            severity=form.get("severity"),  # type: ignore[arg-type]
            gaming_day_=form.get("gaming_day"), round_=form.get("round"),
            since=in_casino_time(form.get("since"), zone),
            until=in_casino_time(form.get("until"), zone),
            page=number, per_page=PER_PAGE, order=order,
        )  # fmt: skip
    except BadInputError as error:
        context["error"], status = str(error), 422
    else:
        status = 200
    context["link"] = lambda number: (
        "/findings?" + urlencode({**form, "order": context["order"], "page": number})
    )
    return page(request, "findings.html", context, status)


@router.get("/findings/{finding_id}", response_class=HTMLResponse, include_in_schema=False)
def finding_page(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    finding_id: Annotated[str, Path(max_length=64)],
) -> HTMLResponse:
    """Show one finding: its rule, evidence, money at stake; its replay; open a case from it."""
    finding = api.one_finding(request, user, views, finding_id)  # 404s, and logs the view
    # The cases already opened from it, so a second analyst joins one rather than open another.
    cases = request.app.state.cases.select(CaseFilter(finding_id=finding.finding_id)).cases
    if cases:
        record_access(request.app.state.db, user, "cases", f"finding={finding.finding_id}")
    return page(request, "finding.html", {"finding": finding, "cases": cases})
