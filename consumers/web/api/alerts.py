"""``/api/alerts/stream``: live alerts as Server-Sent Events.

Each finding at warning or above (as ``tablewatch alerts`` sends them) is one event:
``id`` is its row in the findings view, ``event: finding``, ``data`` its JSON (the
alert's fields). A new stream starts at the newest finding, so only what arrives from
now on is sent, unless ``Last-Event-ID`` (a browser's reconnection sends it) or
``?after=ROW`` says where to resume. The view is polled every :data:`POLL_S`; a comment
line every :data:`KEEPALIVE_S` keeps proxies from closing a quiet stream. ``?limit=N``
closes the stream after N alerts.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from consumers.alerts import BATCH, MIN_SEVERITY, alert_body
from consumers.web.access_log import record_access
from consumers.web.api.inputs import BadInputError
from consumers.web.api.views import Views, views_of
from consumers.web.auth import User, require
from projections.findings_view import FindingsView

router = APIRouter(prefix="/api/alerts", tags=["alerts"])
Analyst = Annotated[User, Depends(require("analyst"))]
POLL_S = 1.0
KEEPALIVE_S = 15.0


def newest_row(view: FindingsView) -> int:
    """Return the findings view's last row number (0 when empty)."""
    with view.datastore.transaction(commit=False) as cursor:
        cursor.execute("SELECT MAX(row_number) AS n FROM findings")
        row = cursor.fetchone()
    if row is None:  # an aggregate always answers one row; none is an empty view
        return 0
    value = row["n"] if isinstance(row, dict) else row[0]
    return int(value or 0)


def _after(last_event_id: str | None, after: int | None) -> int | None:
    if after is not None:
        return after
    if last_event_id is None:
        return None
    if not last_event_id.isdigit():
        raise BadInputError("Last-Event-ID", f"not a row number: {last_event_id!r}")
    return int(last_event_id)


def _event(row: dict[str, Any]) -> str:
    return f"id: {row['row_number']}\nevent: finding\ndata: {json.dumps(alert_body(row))}\n\n"


@router.get(
    "/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def stream(
    request: Request,
    user: Analyst,
    views: Annotated[Views, Depends(views_of)],
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[int | None, Query(ge=0)] = None,
    limit: Annotated[int | None, Query(ge=1)] = None,
) -> StreamingResponse:
    """Stream each new alert (warning and above) as it is found."""
    start = _after(last_event_id, after)
    if start is None:
        start = await run_in_threadpool(newest_row, views.findings)
    await run_in_threadpool(
        record_access, request.app.state.db, user, "findings", f"alerts stream after {start}"
    )

    async def events() -> AsyncIterator[str]:
        position, sent, quiet_since = start, 0, time.monotonic()
        yield "retry: 3000\n\n"
        while limit is None or sent < limit:
            # a batch at a time: a stream resumed far back never reads its backlog at once (#16)
            rows = await run_in_threadpool(
                views.findings.found_after, position, MIN_SEVERITY, BATCH
            )
            for row in rows[: None if limit is None else limit - sent]:
                yield _event(row)
                position, sent, quiet_since = row["row_number"], sent + 1, time.monotonic()
            if limit is not None and sent >= limit:
                return
            if await request.is_disconnected():
                return
            if time.monotonic() - quiet_since >= KEEPALIVE_S:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
            if len(rows) < BATCH:
                await asyncio.sleep(POLL_S)  # caught up: wait for what is found next

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
