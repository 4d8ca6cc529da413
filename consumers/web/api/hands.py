"""``/api/hands``: the hand history of both games, by table, round, dealer or player.

Each hand is the hand-history view's row (projections/hand_history.py): a Pai Gow
position's tiles, setting and money, or a 21 Baccarat position's wagers with the round's
two hands and result (docs/games.md). A query reads at most ``limit`` rows through the
view's indexes, whatever the history holds.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel

from consumers.web.access_log import record_access
from consumers.web.api.rounds import ROUND_ID, TABLE_ID
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require

router = APIRouter(prefix="/api", tags=["hands"])
Analyst = Annotated[User, Depends(require("analyst"))]
MAX_HANDS = 1_000


class HandOut(BaseModel):
    """One hand: a position in a round, of either game (the other game's fields are null)."""

    table_id: str
    round_id: str
    position: int
    game: str
    round_number: int | None
    dealer_id: str | None
    player_id: str | None
    banking: str
    bank_position: int
    is_bank: bool
    wager: str | None
    outcome: str | None
    paid: str | None
    collected: str | None
    returned: str | None
    started_at: str | None
    completed_at: str | None
    voided: bool
    # Pai Gow
    tiles: str | None
    high: str | None
    high_name: str | None
    low: str | None
    low_name: str | None
    set_by: str | None
    vigorish: str | None
    collection_fee: str | None
    pf_wager: str | None
    pf_outcome: str | None
    pf_paid: str | None
    # 21 Baccarat
    bet: str | None
    player_cards: str | None
    player_total: int | None
    banker_cards: str | None
    banker_total: int | None
    result: str | None
    tie_wager: str | None
    tie_outcome: str | None
    tie_paid: str | None
    bonus_wager: str | None
    bonus_outcome: str | None
    bonus_paid: str | None


@router.get("/hands", response_model=list[HandOut])
def hands(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    table: Annotated[str | None, Query(pattern=TABLE_ID)] = None,
    round_: Annotated[str | None, Query(alias="round", pattern=ROUND_ID)] = None,
    dealer: Annotated[str | None, Query(max_length=64)] = None,
    player: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_HANDS)] = 100,
) -> list[HandOut]:
    """Return the hands matching every filter given, by table, round and position."""
    rows = views.hand_history.select(
        table_id=table, round_id=round_, dealer_id=dealer, limit=limit, player_id=player
    )
    wanted = {"table": table, "round": round_, "dealer": dealer, "player": player}
    ref = " ".join(f"{k}={v}" for k, v in wanted.items() if v is not None) or "all"
    record_access(request.app.state.db, user, "hands", ref)
    return [HandOut.model_validate(row) for row in rows]
