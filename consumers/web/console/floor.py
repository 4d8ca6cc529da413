"""The floor: each table's state as the table-state view holds it, with alerts arriving live.

The page is the API's floor (``/api/floor``) rendered; new alerts (warning and above)
arrive by Server-Sent Events from ``/api/alerts/stream`` and are put at the top of the
list and on their table's row by a little plain JavaScript (``static/floor.js``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from consumers.web.api import tables as api
from consumers.web.api.views import Views, views_of
from consumers.web.console.pages import Analyst, page

router = APIRouter()


@router.get("/floor", response_class=HTMLResponse, include_in_schema=False)
def floor_page(
    request: Request, user: Analyst, views: Annotated[Views, Depends(views_of)]
) -> HTMLResponse:
    """Show every table's state and the floor's alerts, live."""
    return page(request, "floor.html", {"floor": api.floor(request, user, views)})
