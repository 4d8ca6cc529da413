"""The console's static files (CSS, plain JavaScript): served as they are, no build step."""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse

from consumers.web.errors import NotFoundError

STATIC_DIR = FilePath(__file__).resolve().parent.parent / "static"
_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}

router = APIRouter()


@router.get("/static/{name}", include_in_schema=False)
def static_file(name: Annotated[str, Path(pattern=r"^[a-z0-9_-]+\.(css|js|svg)$")]) -> FileResponse:
    """Return one file of the static directory (no sub-directories, no other kinds)."""
    found = STATIC_DIR / name
    if not found.is_file():
        raise NotFoundError(f"no static file {name!r}")
    return FileResponse(found, media_type=_TYPES[found.suffix],
                        headers={"Cache-Control": "max-age=300"})  # fmt: skip
