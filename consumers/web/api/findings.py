"""``/api/findings``: the findings queue, filtered and paged, and one finding by id.

Filters: table, dealer, player, code or code prefix, least severity, gaming day, round,
and a time range ``since``/``until`` each given with its UTC offset (the view keeps UTC
and compares in UTC). Sorted by when the finding's event occurred, oldest first (a queue
worked in order, and a script paging to the end) or, with ``order=newest``, newest first
(the console's default: what just happened at the tables). A page is asked for by number (up
to the count's cap) or by the ``next`` cursor of the page before it (``after``: any depth).
Every answer is recorded in the access log: the list as ``findings`` with its query, one
finding as ``finding`` with its id.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel

from audit.findings.finding import Severity
from consumers.web.access_log import record_access
from consumers.web.api import findings_query
from consumers.web.api.findings_query import select_one, select_page
from consumers.web.api.inputs import BadInputError, gaming_day, moment
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require
from consumers.web.errors import NotFoundError
from projections.findings_view import FindingFilter

router = APIRouter(prefix="/api/findings", tags=["findings"])
Analyst = Annotated[User, Depends(require("analyst"))]
CODE = r"^[A-Z0-9][A-Z0-9-]*$"
MAX_PER_PAGE = 500
Order = Literal["oldest", "newest"]


class FindingOut(BaseModel):
    """One finding: what was recorded, what the rules expected, the rule cited, money at stake."""

    finding_id: str
    code: str
    severity: Literal["info", "warning", "critical"]
    rule: str
    title: str
    table_id: str
    round_id: str | None
    position: int | None
    dealer_id: str | None
    recorded: str
    expected: str
    at_stake: Decimal
    occurred_at: str | None
    event_ids: list[str]
    exposure: Decimal | None = None
    """Money a finding put in play without moving it wrongly (with the findings view's column)."""
    gaming_day: str | None = None
    player_id: str | None = None


class FindingsPage(BaseModel):
    """One page of the queue."""

    findings: list[FindingOut]
    page: int
    per_page: int
    total: int
    total_exact: bool = True
    """False: more than ``total`` findings match (a count stops at 10,000); narrow the filter."""
    pages: int
    next: str | None = None
    """The cursor of the page after this one (give it as ``after``), or None at the end: a
    client pages on by it past any count, each page as quick as the first."""


def _out(row: dict[str, object]) -> FindingOut:
    return FindingOut.model_validate(row)


@router.get("", response_model=FindingsPage)
def list_findings(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    table: Annotated[str | None, Query(max_length=64)] = None,
    dealer: Annotated[str | None, Query(max_length=64)] = None,
    player: Annotated[str | None, Query(max_length=64)] = None,
    code: Annotated[str | None, Query(pattern=CODE, max_length=64)] = None,
    code_prefix: Annotated[str | None, Query(pattern=CODE, max_length=64)] = None,
    severity: Annotated[
        Literal["info", "warning", "critical"] | None,
        Query(description="this severity and above"),
    ] = None,
    gaming_day_: Annotated[str | None, Query(alias="gaming_day")] = None,
    round_: Annotated[str | None, Query(alias="round", max_length=64)] = None,
    since: Annotated[str | None, Query(description="ISO 8601 with its UTC offset")] = None,
    until: Annotated[str | None, Query(description="ISO 8601 with its UTC offset")] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 50,
    order: Annotated[Order, Query(description="oldest first, or newest first")] = "oldest",
    after: Annotated[
        str | None, Query(max_length=200, description="a page's next cursor: the page after it")
    ] = None,
) -> FindingsPage:
    """Return a page of findings matching every filter given, as their events occurred."""
    cap = findings_query.COUNT_CAP
    start_after = None
    if after is not None:
        if page != 1:
            raise BadInputError("after", "a cursor names its page: give it without page")
        try:
            start_after = findings_query.After.read(after)
        except ValueError as error:
            raise BadInputError("after", str(error)) from None
    if (page - 1) * per_page >= cap:
        # A page is read by OFFSET: past the count's cap each would read ever more rows (#16).
        raise BadInputError(
            "page",
            f"pages reach the first {cap:,} findings of a filter: page on with each page's "
            f"next cursor (after), or narrow it (since, until, gaming_day), not page {page}",
        )
    start, end = moment(since, "since"), moment(until, "until")
    if start is not None and end is not None and end <= start:
        raise BadInputError("until", f"must be after since ({since!r}): {until!r}")
    day = gaming_day(gaming_day_)
    query = FindingFilter(
        table_id=table,
        dealer_id=dealer,
        code=code,
        min_severity=Severity(severity) if severity else None,
        since=start,
        until=end,
        gaming_day=day,
        player_id=player,
        by_time=True,
        newest_first=order == "newest",
    )
    found = select_page(
        views.findings,
        query,
        round_id=round_,
        code_prefix=code_prefix,
        limit=per_page,
        offset=(page - 1) * per_page,
        after=start_after,
    )
    record_access(request.app.state.db, user, "findings", str(request.url.query) or "all")
    return FindingsPage(
        findings=[_out(row) for row in found.rows],
        page=page,
        per_page=per_page,
        total=found.total,
        total_exact=found.total_exact,
        pages=max(1, -(-found.total // per_page)),
        next=None if found.after is None else found.after.token(),
    )


@router.get("/{finding_id}", response_model=FindingOut)
def one_finding(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    finding_id: Annotated[str, Path(max_length=64)],
) -> FindingOut:
    """Return one finding by its stable id."""
    row = select_one(views.findings, finding_id)
    if row is None:
        raise NotFoundError(
            f"no finding {finding_id!r} in the findings view: not judged yet, if the views are "
            "catching up, or no longer made by the rules, if history was judged again since"
        )
    record_access(request.app.state.db, user, "finding", finding_id)
    return _out(row)
