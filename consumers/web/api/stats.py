"""``/api/stats``: win rates by table, dealer, position or player against the engine's expectation.

From the win-rate view; each group's observed rate beside the expected one with a
Wilson interval, flagged only when the expected rate lies outside it
(``audit.verification.statistics``). Rates are proportions, not money, so floats; the
money won against the money expected is exact Decimal, its interval an estimate to the cent.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from audit.games.confidence import DEFAULT_CONFIDENCE
from audit.verification.statistics import GroupBy, stats_of
from consumers.web.access_log import record_access
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require

router = APIRouter(prefix="/api", tags=["stats"])
Reader = Annotated[User, Depends(require("analyst", "auditor"))]


class GroupOut(BaseModel):
    """One group's settled wagers and win rates."""

    by: str
    group: str
    n: int
    wins: int
    pushes: int
    losses: int
    observed: float
    expected: float
    low: float
    high: float
    confidence: float
    flagged: bool
    direction: str
    wagered: Decimal
    won: Decimal
    expected_won: Decimal
    won_low: Decimal
    won_high: Decimal
    money_flagged: bool


class Stats(BaseModel):
    """Every group under one grouping."""

    by: str
    confidence: float
    groups: list[GroupOut]
    flagged: int


@router.get("/stats", response_model=Stats)
def stats(
    request: Request,
    user: Reader,
    views: Annotated[Views, Depends(views_of)],
    by: GroupBy = "table",
    confidence: Annotated[float, Query(gt=0, lt=1)] = DEFAULT_CONFIDENCE,
    group: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
) -> Stats:
    """Return win rates per group with their intervals and flags: every group under ``by``,
    or with ``group`` that one alone, read by its key (#16: one player's rate without every
    player ever tallied)."""
    if group is None:
        tallies = views.win_rates.tallies(by)
    else:
        tallies = {name: tally for (_, name), tally in
                   views.win_rates.tallies_of([(by, group)]).items()}  # fmt: skip
    rows = stats_of(tallies, by, confidence)
    record_access(request.app.state.db, user, "stats", by if group is None else f"{by}/{group}")
    return Stats(
        by=by,
        confidence=confidence,
        groups=[GroupOut.model_validate(row.as_dict()) for row in rows],
        flagged=sum(row.flagged for row in rows),
    )
