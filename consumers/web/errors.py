"""How every failure reaches a user: one message naming the problem, never a stack trace.

The API (``/api/...``) answers JSON ``{"detail": ...}``; the console answers a page.
A malformed filter is 422 naming the field; a missing session is 401 for the API and a
redirect to the login form for a page; a role that is not admitted is 403; anything
unforeseen is 500 with a reference, logged with its traceback on the server only.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from consumers.web.api.inputs import BadInputError
from consumers.web.auth import CsrfError, ForbiddenError, NotAuthenticatedError
from consumers.web.cases import CaseError, CaseNotFoundError
from consumers.web.templating import templates

log = logging.getLogger(__name__)


class NotFoundError(LookupError):
    """Raised by a route for a round, finding, case or report that does not exist."""


class BadRequestError(ValueError):
    """Raised for a request whose content cannot be acted on (400), e.g. a name taken."""


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", ""
    )


def error_response(request: Request, status: int, message: str, **extra: Any) -> Response:
    """Return the error as JSON for the API, as a page for the console."""
    if _wants_json(request):
        return JSONResponse({"detail": message, **extra}, status_code=status)
    titles = {401: "Sign in needed", 403: "Not allowed", 404: "Not found", 422: "Bad request"}
    return templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "title": titles.get(status, "Something went wrong"), "message": message},
        status_code=status,
    )


def field_errors(exc: RequestValidationError) -> list[dict[str, str]]:
    """Return each invalid input as its field's name and what is wrong with it."""
    found = []
    for error in exc.errors():
        location = [
            str(part)
            for part in error.get("loc", ())
            if part not in ("query", "path", "body", "form", "header")
        ]
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        found.append({"field": ".".join(location) or "request", "message": message})
    return found


_SAID_AS_THEY_ARE: dict[type[Exception], int] = {
    ForbiddenError: 403,
    CsrfError: 403,
    BadRequestError: 400,
    CaseNotFoundError: 404,
    CaseError: 409,
    NotFoundError: 404,
}
"""Exceptions answered with their own message, and the status each is answered with."""


def _answering(status: int) -> Callable[[Request, Exception], Awaitable[Response]]:
    async def handler(request: Request, exc: Exception) -> Response:
        return error_response(request, status, str(exc))

    return handler


def install_error_handlers(app: FastAPI) -> None:
    """Make every error a message: JSON under /api/, a page elsewhere."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = field_errors(exc)
        message = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
        return error_response(request, 422, message, errors=errors)

    @app.exception_handler(NotAuthenticatedError)
    async def unauthenticated(request: Request, exc: NotAuthenticatedError) -> Response:
        if _wants_json(request):
            return JSONResponse({"detail": "sign in first: no session"}, status_code=401)
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={_quote(target)}", status_code=303)

    for kind, status in _SAID_AS_THEY_ARE.items():  # the message is the exception's own
        app.add_exception_handler(kind, _answering(status))

    @app.exception_handler(BadInputError)
    async def bad_input(request: Request, exc: BadInputError) -> Response:
        return error_response(
            request, 422, str(exc), errors=[{"field": exc.field, "message": exc.message}]
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such page: {request.url.path}"
        return error_response(request, exc.status_code, detail)

    @app.exception_handler(Exception)
    async def unforeseen(request: Request, exc: Exception) -> Response:
        reference = secrets.token_hex(4)
        log.error("error %s on %s %s", reference, request.method, request.url.path, exc_info=exc)
        return error_response(
            request, 500, f"the server failed to answer (reference {reference}); it is logged"
        )


def _quote(path: str) -> str:
    from urllib.parse import quote

    return quote(path, safe="/")
