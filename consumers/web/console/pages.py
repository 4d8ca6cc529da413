"""What every console page shares: rendering a template, the roles' dependencies, the pictures.

Pages are server-rendered Jinja2 (``consumers/web/templates/``) with a little plain
JavaScript from ``consumers/web/static/``: no build step. The SVG renderers are given to
templates as ``tile_svg``, ``card_svg`` and ``hold_chart_svg``; templates mark their SVG
``|safe``, which they are: the renderers escape every text they draw themselves.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from audit.verification.replay_model import dollars
from consumers.web.auth import User, require
from consumers.web.render.cards import card_svg
from consumers.web.render.hold_chart import hold_chart_svg
from consumers.web.render.tiles import tile_svg
from consumers.web.templating import templates

Analyst = Annotated[User, Depends(require("analyst"))]
"""Findings, replays, the floor and cases."""
Auditor = Annotated[User, Depends(require("auditor"))]
"""The MGR and the variance report."""
Admin = Annotated[User, Depends(require("admin"))]
"""Users."""

HOME = {"analyst": "/findings", "auditor": "/reports/mgr", "admin": "/admin/users"}
"""Where each role lands after signing in."""


def cents(amount: int | None) -> str:
    """Return integer cents as dollars for a page; ``-`` where there is no amount.

    >>> cents(123456), cents(-250), cents(None)
    ('$1,234.56', '-$2.50', '-')
    """
    return "-" if amount is None else dollars(amount)


templates.env.globals.update(tile_svg=tile_svg, card_svg=card_svg, hold_chart_svg=hold_chart_svg)
templates.env.filters["cents"] = cents


def page(request: Request, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """Return a template rendered for the request (the user and CSRF token come with it)."""
    response: HTMLResponse = templates.TemplateResponse(request, name, context, status_code=status)
    return response
