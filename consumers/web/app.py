"""The web application: the JSON API under ``/api/``, the console, login and logout.

``create_app`` wires a store (opened from the settings unless given) to the routers.
Every read is of a read model (the projections' views), never a replay of the store
per request; the views are kept caught up by ``tablewatch serve``'s projection loop.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, FastAPI
from fastapi.responses import RedirectResponse, Response

from audit.store.application import FactStore
from consumers.settings import Settings
from consumers.web import auth, console
from consumers.web.api import alerts, cases, chain, findings, hands, reports, stats, tables, users
from consumers.web.api import rounds as rounds_api
from consumers.web.api.chain import ChainWatch
from consumers.web.api.views import Views
from consumers.web.cases import Cases
from consumers.web.db import WebDB
from consumers.web.errors import install_error_handlers
from consumers.wiring import open_store


def create_app(settings: Settings, *, store: FactStore | None = None) -> FastAPI:
    """Return the app over ``store`` (by default the store the settings name)."""
    store = store if store is not None else open_store(settings)
    app = FastAPI(
        title="tablewatch",
        summary="Audit and surveillance of casino table games: findings, replays, reports.",
        version="1",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.settings = settings
    app.state.store = store
    app.state.db = WebDB(store)
    app.state.db.ensure_tables()  # on PostgreSQL 'tablewatch db migrate' made them already
    app.state.views = Views.open(store)
    install_error_handlers(app)
    app.include_router(auth.router)
    app.state.chain_watch = ChainWatch(store, full_after_s=settings.chain_full_walk_hours * 3600.0)
    app.state.cases = Cases(store)
    for router in (
        findings.router,
        tables.router,
        reports.router,
        stats.router,
        chain.router,
        alerts.router,
        users.router,
        cases.router,
        rounds_api.router,
        hands.router,
        console.router,  # before the home route below: its "/" answers first
    ):
        app.include_router(router)

    @app.get("/", include_in_schema=False)
    def home(user: Annotated[auth.User, Depends(auth.require(*auth.ROLES))]) -> Response:
        """Send a signed-in user to the API's pages (the console's router answers first)."""
        return RedirectResponse("/api/docs", status_code=303)

    return app
