"""The admin's page: the users and their roles, adding one, and the access log read back.

A password left empty is generated and shown once, on the page that answers the form;
only its argon2 hash is kept. The access log is shown newest first, as recorded: who
viewed which round, finding, case or report, and when (Kansas 112-106-6).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse

from consumers.web.access_log import read_access
from consumers.web.api.users import generated_password
from consumers.web.auth import ROLES, UserError, add_user, check_csrf, list_users
from consumers.web.console.pages import Admin, page

router = APIRouter()
LOG_SHOWN = 200
"""The newest views shown on the page."""


def _users_page(
    request: Request, status: int = 200, *, error: str | None = None, made: dict | None = None
) -> HTMLResponse:
    db = request.app.state.db
    context = {
        "users": list_users(db),
        "roles": ROLES,
        "error": error,
        "made": made,
        "access": read_access(db, limit=LOG_SHOWN),
    }
    return page(request, "users.html", context, status)


@router.get("/admin/users", response_class=HTMLResponse, include_in_schema=False)
def users_page(request: Request, user: Admin) -> HTMLResponse:
    """Show the users and the access log."""
    return _users_page(request)


@router.post(
    "/admin/users",
    response_class=HTMLResponse,
    include_in_schema=False,
    dependencies=[Depends(check_csrf)],
)
def add_user_form(
    request: Request,
    user: Admin,
    name: Annotated[str, Form(max_length=64)] = "",
    role: Annotated[str, Form(max_length=16)] = "",
    password: Annotated[str, Form(max_length=1024)] = "",
) -> HTMLResponse:
    """Add a user from the form; a refused name, role or password is said on the page."""
    chosen = password or generated_password()
    try:
        added = add_user(request.app.state.db, name.strip(), role, chosen)
    except UserError as error:
        return _users_page(request, 400, error=str(error))
    made = {"name": added.name, "role": added.role, "password": None if password else chosen}
    return _users_page(request, 201, made=made)
