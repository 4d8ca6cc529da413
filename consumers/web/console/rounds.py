"""The hand replay page: a round stepped through, expected beside recorded, findings placed.

Pai Gow tiles and 21 Baccarat cards are drawn as pictures; each step shows its time in
the casino's zone, its facts beside the engine's, the settlement's money flows, and the
findings under the step they concern. Each view is written to the access log.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse

from audit.events.games import GAMES
from consumers.replay_text import step_lines
from consumers.web.access_log import record_access
from consumers.web.api.rounds import ROUND_ID, TABLE_ID, position_name, replay_of
from consumers.web.console.pages import Analyst, page

router = APIRouter()


@router.get("/rounds/{round_id}", response_class=HTMLResponse, include_in_schema=False)
def replay_page(
    request: Request,
    user: Analyst,
    round_id: Annotated[str, Path(pattern=ROUND_ID)],
    table: Annotated[str | None, Query(pattern=TABLE_ID)] = None,
) -> HTMLResponse:
    """Show one round's replay, step by step."""
    replay = replay_of(request.app.state.store, round_id, table)
    record_access(request.app.state.db, user, "round", f"{replay.table_id}/{replay.round_id}")
    return page(
        request,
        "replay.html",
        {
            "replay": replay,
            "pieces": GAMES[replay.game].pieces,
            "position_name": lambda p: position_name(replay, p),
            "step_lines": lambda step: step_lines(replay, step),
        },
    )
