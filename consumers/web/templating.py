"""The one Jinja2 environment every page renders with, and its filters.

- ``local_time``: a stored UTC ISO time shown in the casino's time zone
  (``TABLEWATCH_TIMEZONE``, default UTC), with the zone's abbreviation, so a
  surveillance analyst reads the floor's clock while the store keeps UTC.
- ``money``: dollars from a ``Decimal`` or its text (``"-12.5"`` shows as
  ``-$12.50``); a float is refused, as everywhere money is handled.

Templates get ``csrf_token`` and ``current_user`` from the request's session
(``consumers/web/auth.py``), and, for a signed-in user, ``views_behind``: how many stored
events the views lack, when enough to say so (``consumers/web/freshness.py``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from starlette.requests import Request

TEMPLATES_DIR = Path(__file__).parent / "templates"


def _context(request: Request) -> dict[str, Any]:
    from consumers.web.auth import csrf_context  # auth renders templates too
    from consumers.web.freshness import behind_notice

    context = csrf_context(request)
    if context["current_user"] is not None:
        state = request.app.state
        context["views_behind"] = behind_notice(state.store, state.views)
    return context


def to_local(value: str | datetime | None, zone: str) -> str:
    """Return a UTC time (ISO text or aware datetime) as ``YYYY-MM-DD HH:MM:SS TZ`` in ``zone``.

    >>> to_local("2026-11-21T14:05:00+00:00", "America/New_York")
    '2026-11-21 09:05:00 EST'
    >>> to_local(None, "UTC")
    ''
    """
    if value is None or value == "":
        return ""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # the store keeps UTC
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S %Z")


def money(value: Decimal | str | int | None) -> str:
    """Return dollars as ``$1,234.50`` (``-$12.00`` when negative).

    >>> money("1234.5"), money(Decimal("-12")), money(None)
    ('$1,234.50', '-$12.00', '')
    """
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        raise TypeError(f"money is never a float: {value!r}")
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise ValueError(f"not an amount of money: {value!r}") from None
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


@pass_context
def _local_time(context: Any, value: str | datetime | None) -> str:
    request: Request | None = context.get("request")
    zone = request.app.state.settings.timezone if request is not None else "UTC"
    return to_local(value, zone)


templates = Jinja2Templates(directory=str(TEMPLATES_DIR), context_processors=[_context])
templates.env.filters["local_time"] = _local_time
templates.env.filters["money"] = money
