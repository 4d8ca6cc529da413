"""Who may see what: users with roles, argon2 password hashes, server-side sessions, CSRF.

- Roles: ``analyst`` (findings, replay, cases), ``auditor`` (reports), ``admin`` (users).
  A route names the roles it admits (:func:`require`); no role implies another, so an
  analyst never reaches an auditor's report nor an admin's page, and an admin manages
  users without reading surveillance material.
- Sessions are rows in the store's database keyed by the SHA-256 of a random token: the
  cookie holds the token, so a leaked database does not yield live sessions. The cookie
  is HttpOnly and SameSite=Lax, and Secure when ``TABLEWATCH_SECURE_COOKIES`` is set or
  the request came over TLS. A session ends at logout or after :data:`SESSION_HOURS`.
- CSRF: each session has its own token, shown to templates as ``csrf_token``; every
  request that is not GET/HEAD/OPTIONS must echo it in the ``X-CSRF-Token`` header or a
  ``csrf_token`` form field (:func:`check_csrf`). The login form, before any session,
  uses a double-submit cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Depends, Form, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel

from consumers.errors import TablewatchError
from consumers.web.db import SESSIONS, USERS, WebDB
from consumers.web.templating import templates

ROLES = ("analyst", "auditor", "admin")
SESSION_COOKIE = "tablewatch_session"
LOGIN_CSRF_COOKIE = "tablewatch_login_csrf"
SESSION_HOURS = 12
"""A shift and a half: long enough for a shift's work, short enough to end with it."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")

_hasher = PasswordHasher()
_DUMMY_HASH = _hasher.hash("not a password anyone has")
"""Verified against when the name is unknown, so a wrong name costs what a wrong password does."""


class UserError(TablewatchError, ValueError):
    """Raised for a user name, role or password that cannot be used."""


class NotAuthenticatedError(Exception):
    """Raised by :func:`require` when the request carries no live session."""


class ForbiddenError(Exception):
    """Raised by :func:`require` when the user's role is not admitted."""

    def __init__(self, user: User, roles: tuple[str, ...]) -> None:
        needed = " or ".join(roles)
        super().__init__(f"{user.role} {user.name!r} may not open this; it needs {needed}")


class CsrfError(Exception):
    """Raised by :func:`check_csrf` when a changing request lacks the session's token."""


@dataclass(frozen=True)
class User:
    """A signed-in user: who, and in which role."""

    name: str
    role: str


@dataclass(frozen=True)
class Session:
    """A live session: its user and its CSRF token."""

    user: User
    csrf_token: str


def _now() -> datetime:
    return datetime.now(UTC)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    """Return ``name`` if usable as a user name (lowercase letters, digits, . _ -)."""
    if not 1 <= len(name) <= 64 or not set(name) <= _NAME_CHARS:
        raise UserError(
            f"a user name is 1 to 64 lowercase letters, digits, '.', '_' or '-', not {name!r}"
        )
    return name


def check_role(role: str) -> str:
    """Return ``role`` if it is one of :data:`ROLES`."""
    if role not in ROLES:
        raise UserError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    return role


def add_user(db: WebDB, name: str, role: str, password: str) -> User:
    """Create a user with an argon2 hash of ``password``; refuse a name already taken."""
    user = User(check_name(name), check_role(role))
    if len(password) < 12:
        raise UserError("a password needs at least 12 characters")
    if db.query(f"SELECT 1 FROM {USERS} WHERE name = {{p}}", [name]):
        raise UserError(f"user {name!r} exists already")
    db.execute(
        f"INSERT INTO {USERS} (name, role, password_hash, created_at) "
        "VALUES ({p}, {p}, {p}, {p})",
        [user.name, user.role, _hasher.hash(password), _now().isoformat()],
    )
    return user


def list_users(db: WebDB) -> list[dict[str, str]]:
    """Return every user's name, role and creation time (never the hash)."""
    rows = db.query(f"SELECT name, role, created_at FROM {USERS} ORDER BY name")
    return [{"name": n, "role": r, "created_at": c} for n, r, c in rows]


def authenticate(db: WebDB, name: str, password: str) -> User | None:
    """Return the user if ``password`` is theirs, else None (in comparable time either way)."""
    rows = db.query(f"SELECT role, password_hash FROM {USERS} WHERE name = {{p}}", [name])
    stored = rows[0][1] if rows else _DUMMY_HASH
    try:
        _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return None
    return User(name, rows[0][0]) if rows else None


def open_session(db: WebDB, user: User) -> tuple[str, Session]:
    """Store a new session for ``user``; return the cookie's token and the session."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = _now()
    _sweep(db)
    db.execute(
        f"INSERT INTO {SESSIONS} (token_hash, user_name, csrf_token, created_at, expires_at) "
        "VALUES ({p}, {p}, {p}, {p}, {p})",
        [
            _token_hash(token),
            user.name,
            csrf,
            now.isoformat(),
            (now + timedelta(hours=SESSION_HOURS)).isoformat(),
        ],
    )
    return token, Session(user, csrf)


def find_session(db: WebDB, token: str) -> Session | None:
    """Return the live session the cookie's token opens, if any."""
    rows = db.query(
        f"SELECT u.name, u.role, s.csrf_token, s.expires_at FROM {SESSIONS} s "
        f"JOIN {USERS} u ON u.name = s.user_name WHERE s.token_hash = {{p}}",
        [_token_hash(token)],
    )
    if not rows or rows[0][3] <= _now().isoformat():
        return None
    name, role, csrf, _ = rows[0]
    return Session(User(name, role), csrf)


def close_session(db: WebDB, token: str) -> None:
    """End a session (and sweep expired ones while at it)."""
    db.execute(f"DELETE FROM {SESSIONS} WHERE token_hash = {{p}}", [_token_hash(token)])
    _sweep(db)


def _sweep(db: WebDB) -> None:
    """Delete the sessions that have expired, by the expiry's index: a browser closed without
    signing out leaves its session, and the table would hold every one ever opened (#16)."""
    db.execute(f"DELETE FROM {SESSIONS} WHERE expires_at <= {{p}}", [_now().isoformat()])


def request_session(request: Request) -> Session | None:
    """Return the request's session, looked up once per request."""
    if not hasattr(request.state, "session"):
        token = request.cookies.get(SESSION_COOKIE)
        db: WebDB = request.app.state.db
        request.state.session = find_session(db, token) if token else None
    session: Session | None = request.state.session
    return session


def require(*roles: str) -> Callable[[Request], User]:
    """Return a dependency admitting a signed-in user of one of ``roles``; it returns the user."""
    for role in roles:
        check_role(role)

    def dependency(request: Request) -> User:
        session = request_session(request)
        if session is None:
            raise NotAuthenticatedError
        if session.user.role not in roles:
            raise ForbiddenError(session.user, roles)
        return session.user

    return dependency


async def check_csrf(request: Request) -> None:
    """Refuse a changing request without the session's CSRF token (header or form field)."""
    if request.method in SAFE_METHODS:
        return
    session = request_session(request)
    if session is None:
        raise NotAuthenticatedError
    sent = request.headers.get("x-csrf-token")
    if sent is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()  # Starlette keeps it: the route reads it again
        field = form.get("csrf_token")
        sent = field if isinstance(field, str) else None
    if not sent or not hmac.compare_digest(sent, session.csrf_token):
        raise CsrfError("missing or wrong CSRF token: reload the page and try again")


def csrf_context(request: Request) -> dict[str, Any]:
    """Give every template the CSRF token and the user (a Jinja2 context processor)."""
    session = request_session(request)
    if session is None:
        return {"csrf_token": getattr(request.state, "login_csrf", ""), "current_user": None}
    return {"csrf_token": session.csrf_token, "current_user": session.user}


def _secure(request: Request) -> bool:
    return bool(request.app.state.settings.secure_cookies) or request.url.scheme == "https"


def _safe_next(target: str | None) -> str:
    """Return a local path to go to after login: never another site (``//host``, ``http:``)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


router = APIRouter()


@router.get("/login", response_class=HTMLResponse, include_in_schema=False)
def login_page(request: Request, next: str = "/") -> Response:
    """Show the login form, with a double-submit CSRF token of its own."""
    return _login_form(request, next, error=None, status=200)


def _login_form(request: Request, next_path: str, error: str | None, status: int) -> Response:
    token = secrets.token_urlsafe(32)
    request.state.login_csrf = token
    response = templates.TemplateResponse(
        request, "login.html", {"next": _safe_next(next_path), "error": error}, status_code=status
    )
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
        path="/login",
    )
    return response


@router.post("/login", include_in_schema=False)
def login(
    request: Request,
    name: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
    csrf_token: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    """Check the password; on success open a session and go where the user was going."""
    expected = request.cookies.get(LOGIN_CSRF_COOKIE, "")
    if not expected or not hmac.compare_digest(csrf_token, expected):
        return _login_form(request, next, "the form expired: please sign in again", 403)
    db: WebDB = request.app.state.db
    user = authenticate(db, name.strip(), password)
    if user is None:
        return _login_form(request, next, "wrong user name or password", 401)
    token, _ = open_session(db, user)
    response = RedirectResponse(_safe_next(next), status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_HOURS * 3600,
        httponly=True,
        samesite="lax",
        secure=_secure(request),
        path="/",
    )
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/login")
    return response


@router.post("/logout", include_in_schema=False, dependencies=[Depends(check_csrf)])
def logout(request: Request) -> Response:
    """End the session and return to the login form."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        close_session(request.app.state.db, token)
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


class Me(BaseModel):
    """The signed-in user."""

    name: str
    role: str


@router.get("/api/me", tags=["access"], response_model=Me)
def me(user: Annotated[User, Depends(require(*ROLES))]) -> Me:
    """Return who is signed in, and in which role."""
    return Me(name=user.name, role=user.role)
