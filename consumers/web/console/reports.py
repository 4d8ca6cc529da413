"""The auditors' pages: the MGR per gaming day with its hold chart, and the variance list.

Both answer through the API's own functions (``consumers/web/api/reports.py``), so the
page, the JSON and the CSV download never disagree and each read is logged as the API
logs it. Without a gaming day the page shows the newest day stored, and lists the others.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from consumers.web.api import reports as api
from consumers.web.api.inputs import gaming_day
from consumers.web.api.views import Views, views_of
from consumers.web.console.pages import Auditor, page
from consumers.web.render.hold_chart import HoldRow

router = APIRouter()


RECENT_DAYS = 62
"""Gaming days the picker links to, the newest; any other is asked for by its date."""


def _day(request: Request, user: Auditor, views: Views) -> tuple[str | None, list[str]]:
    """Return the day asked for (the newest stored when none is) and the newest days stored:
    the page costs those days, not every day in history (#16)."""
    days = api.gaming_days(user, views, limit=RECENT_DAYS).gaming_days
    asked = gaming_day(request.query_params.get("gaming_day") or None)
    return asked or (days[-1] if days else None), days


@router.get("/reports/mgr", response_class=HTMLResponse, include_in_schema=False)
def mgr_page(
    request: Request, user: Auditor, views: Annotated[Views, Depends(views_of)]
) -> HTMLResponse:
    """Show the MGR of a gaming day: each table's hold against its band, rows and totals."""
    day, days = _day(request, user, views)
    report = api.mgr(request, user, views, gaming_day_=day) if day else None
    chart = [
        HoldRow(
            f"{row.table} {row.shift}",
            row.hold_pct,
            None
            if row.hold_band_low_pct is None or row.hold_band_high_pct is None
            else (row.hold_band_low_pct, row.hold_band_high_pct),
        )
        for row in (report.rows if report else [])  # type: ignore[union-attr]
    ]
    return page(request, "mgr.html", {"day": day, "days": days, "report": report, "chart": chart})


@router.get("/reports/variance", response_class=HTMLResponse, include_in_schema=False)
def variance_page(
    request: Request, user: Auditor, views: Annotated[Views, Depends(views_of)]
) -> HTMLResponse:
    """Show every variance of a gaming day with its evidence."""
    day, days = _day(request, user, views)
    report = api.variance(request, user, views, gaming_day_=day) if day else None
    return page(request, "variance.html", {"day": day, "days": days, "report": report})
