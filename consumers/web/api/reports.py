"""``/api/reports``: the auditors' Master Game Report and variance report per gaming day.

Each as JSON (pydantic models, money as decimal strings) or CSV (``?format=csv``, the
same CSV ``tablewatch report`` prints, served as a download). Read from the findings
and reconciliation views only; auditors alone may read them, and every read is
recorded in the access log as ``report`` ``mgr/DAY`` or ``variance/DAY``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from audit.accounting.report import MgrLine, render_csv
from consumers.report_cli import mgr_of, variance_csv, variances_of
from consumers.web.access_log import record_access
from consumers.web.api.inputs import gaming_day
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require
from consumers.web.errors import NotFoundError

router = APIRouter(prefix="/api/reports", tags=["reports"])
Auditor = Annotated[User, Depends(require("auditor"))]
Format = Literal["json", "csv"]


class MgrRow(BaseModel):
    """One shift (``row_type`` shift) or a total (``total``) of the MGR; dollars.

    A column the MGR gains (``audit/accounting/report.py``'s ``COLUMNS``) passes through.
    """

    model_config = ConfigDict(extra="allow")

    row_type: Literal["shift", "total"]
    gaming_day: str
    table: str
    game: str
    shift: str
    opener: Decimal | None
    fills: Decimal | None
    credits: Decimal | None
    drop: Decimal | None
    closer: Decimal | None
    win: Decimal | None
    hold_pct: Decimal | None
    hold_band: str | None
    hold_band_low_pct: Decimal | None = None
    """The hold % the game's own variance allows at least (a shift's band, low edge)."""
    hold_band_high_pct: Decimal | None = None
    replayed_win: Decimal | None
    variance: Decimal | None
    vig_uncollected: Decimal | None
    findings: int


class Mgr(BaseModel):
    """The Master Game Report of a gaming day (or of every day stored)."""

    gaming_day: str | None
    rows: list[MgrRow]
    totals: list[MgrRow]


class Variance(BaseModel):
    """One variance: the finding, the rule cited, money at stake and its evidence."""

    code: str
    severity: str
    rule: str
    title: str
    table_id: str
    recorded: str
    expected: str
    at_stake: Decimal
    exposure: Decimal = Decimal("0.00")
    """Money a late or procedural record put in play, never added to money at stake."""
    evidence: dict[str, Any]


class VarianceReport(BaseModel):
    """Every variance of a gaming day (or of every day stored)."""

    gaming_day: str | None
    variances: list[Variance]


class GamingDays(BaseModel):
    """The gaming days with shift ledgers, oldest first."""

    gaming_days: list[str]


def _band(line: MgrLine) -> tuple[Decimal | None, Decimal | None]:
    if line.band is None or not line.drop:
        return None, None
    low, high = (Decimal(edge * 100 / line.drop).quantize(Decimal("0.1")) for edge in line.band)
    return low, high


def _ledgers(views: Views, day: str | None) -> list[dict[str, Any]]:
    ledgers = views.reconciliation.ledgers(day)
    if day is not None and not ledgers:
        raise NotFoundError(f"no shift ledgers for gaming day {day!r}")
    return ledgers


def _csv(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/gaming-days", response_model=GamingDays)
def gaming_days(
    user: Auditor,
    views: Annotated[Views, Depends(views_of)],
    limit: Annotated[int | None, Query(ge=1, le=10_000, description="the newest this many")] = None,
) -> GamingDays:
    """Return the gaming days the reports can be asked for (with ``limit``, the newest ones:
    read from the newest end of the ledgers' day index, so the cost is the days asked for)."""
    if limit is None:
        sql, params = "SELECT DISTINCT gaming_day FROM shift_ledgers ORDER BY 1", []
    else:
        sql = "SELECT DISTINCT gaming_day FROM shift_ledgers ORDER BY 1 DESC LIMIT {p}"
        params = [limit]
    rows = views.reconciliation.query(sql, params)
    days = [row[0] for row in rows]
    return GamingDays(gaming_days=days if limit is None else days[::-1])


@router.get("/mgr", response_model=Mgr, responses={200: {"content": {"text/csv": {}}}})
def mgr(
    request: Request,
    user: Auditor,
    views: Annotated[Views, Depends(views_of)],
    gaming_day_: Annotated[str | None, Query(alias="gaming_day")] = None,
    format: Format = "json",
) -> Mgr | Response:
    """Return the MGR: per table and shift, win by accounting beside replayed win, hold band."""
    day = gaming_day(gaming_day_)
    lines, totals = mgr_of(views.findings, _ledgers(views, day))
    record_access(request.app.state.db, user, "report", f"mgr/{day or 'all'}")
    if format == "csv":
        return _csv(render_csv(lines, totals), f"mgr-{day or 'all'}.csv")
    rows = []
    for line in lines:
        low, high = _band(line)
        rows.append(
            MgrRow(
                row_type="shift", **line.values(), hold_band_low_pct=low, hold_band_high_pct=high
            )
        )
    return Mgr(
        gaming_day=day,
        rows=rows,
        totals=[MgrRow(row_type="total", **total.values()) for total in totals],
    )


@router.get(
    "/variance", response_model=VarianceReport, responses={200: {"content": {"text/csv": {}}}}
)
def variance(
    request: Request,
    user: Auditor,
    views: Annotated[Views, Depends(views_of)],
    gaming_day_: Annotated[str | None, Query(alias="gaming_day")] = None,
    format: Format = "json",
) -> VarianceReport | Response:
    """Return every variance with its evidence: slips, box, counts, events, rounds."""
    day = gaming_day(gaming_day_)
    rows = variances_of(views.findings, _ledgers(views, day), day)
    record_access(request.app.state.db, user, "report", f"variance/{day or 'all'}")
    if format == "csv":
        return _csv(variance_csv(rows), f"variance-{day or 'all'}.csv")
    return VarianceReport(gaming_day=day, variances=[Variance.model_validate(r) for r in rows])
