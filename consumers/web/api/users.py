"""``/api/users`` (admin) and ``/api/access-log`` (auditor, admin).

An admin lists users and adds them; a password left out is generated and returned once.
The access log is read newest first, narrowed by user, kind and reference: who looked
at what is itself an audit record, so auditors read it as well as admins.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from consumers.web.access_log import KINDS, read_access
from consumers.web.auth import User, UserError, add_user, check_csrf, list_users, require
from consumers.web.errors import BadRequestError

router = APIRouter(prefix="/api", tags=["access"])
Admin = Annotated[User, Depends(require("admin"))]
LogReader = Annotated[User, Depends(require("auditor", "admin"))]


class UserOut(BaseModel):
    """A user: name, role, since when (never the password's hash)."""

    name: str
    role: str
    created_at: str


class NewUser(BaseModel):
    """A user to add; without a password one is generated."""

    name: str = Field(max_length=64)
    role: str
    password: str | None = Field(default=None, min_length=12, max_length=1024)


class CreatedUser(BaseModel):
    """The user added, with the generated password (shown this once) if one was made."""

    name: str
    role: str
    password: str | None


class AccessOut(BaseModel):
    """One recorded view."""

    id: int
    at: str
    user: str
    role: str
    kind: str
    ref: str


def generated_password() -> str:
    """Return a random password of about 128 bits, typeable."""
    return secrets.token_urlsafe(16)


@router.get("/users", response_model=list[UserOut])
def users(request: Request, user: Admin) -> list[UserOut]:
    """Return every user."""
    return [UserOut.model_validate(u) for u in list_users(request.app.state.db)]


@router.post(
    "/users", response_model=CreatedUser, status_code=201, dependencies=[Depends(check_csrf)]
)
def create_user(request: Request, user: Admin, new: NewUser) -> CreatedUser:
    """Add a user; a password not given is generated and returned once."""
    password = new.password or generated_password()
    try:
        made = add_user(request.app.state.db, new.name, new.role, password)
    except UserError as error:
        raise BadRequestError(str(error)) from None
    return CreatedUser(name=made.name, role=made.role, password=None if new.password else password)


@router.get("/access-log", response_model=list[AccessOut])
def access_log(
    request: Request,
    user: LogReader,
    who: Annotated[str | None, Query(alias="user", max_length=64)] = None,
    kind: Annotated[str | None, Query(pattern="^(" + "|".join(KINDS) + ")$")] = None,
    ref: Annotated[str | None, Query(max_length=256)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> list[AccessOut]:
    """Return recorded views, newest first."""
    found = read_access(request.app.state.db, user=who, kind=kind, ref=ref, limit=limit)
    return [
        AccessOut(id=a.id, at=a.at, user=a.user, role=a.role, kind=a.kind, ref=a.ref) for a in found
    ]
