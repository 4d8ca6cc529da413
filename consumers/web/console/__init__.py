"""The web console: server-rendered pages for analysts, auditors and admins (no build step).

``router`` is mounted at ``/`` by ``consumers.web.app.create_app``. Pages read the read
models (the projections' views) and the replay, never the store fact by fact per view;
every view of a round, a finding, a case or a report is written to the access log.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from consumers.web.auth import NotAuthenticatedError, request_session
from consumers.web.console import admin, cases, findings, floor, reports, rounds, static
from consumers.web.console.pages import HOME

router = APIRouter()
router.include_router(static.router)
router.include_router(findings.router)
router.include_router(floor.router)
router.include_router(reports.router)
router.include_router(admin.router)
router.include_router(cases.router)
router.include_router(rounds.router)


@router.get("/", include_in_schema=False)
def home(request: Request) -> Response:
    """Send a signed-in user to the page of their role, anyone else to the login form."""
    session = request_session(request)
    if session is None:
        raise NotAuthenticatedError  # to the login form, coming back here after

    return RedirectResponse(HOME[session.user.role], status_code=303)
