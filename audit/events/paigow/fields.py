"""Field types of the Pai Gow events: a position on the layout, and one physical tile."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from audit.games.errors import InvalidTileError
from audit.games.paigow.tiles import MATCHED_KINDS, TILE_KINDS, TILE_NAMES, parse_tile, tile_name

Position = Annotated[int, Field(ge=0, le=7)]
"""A position on the table's layout: 0 the dealer (or player-dealer), 7 the Dead Hand on PA/NJ."""


_TILE_NAME_SET = frozenset(TILE_NAMES)


def _canonical_tile(text: str) -> str:
    # Events name physical tiles: a matched kind needs its copy letter, or "6-6" would
    # not say which of the two 6-6 tiles was seen.
    if text in _TILE_NAME_SET:  # the canonical spelling, as devices send it: no parsing
        return text
    try:
        tile = parse_tile(text)
    except InvalidTileError as error:
        raise ValueError(str(error)) from None
    if TILE_KINDS[tile] in MATCHED_KINDS and text.strip()[-1:] not in ("a", "b"):
        raise ValueError(f"a {text.strip()!r} tile needs its copy letter, a or b")
    return tile_name(tile)


TileName = Annotated[
    str,
    Field(min_length=3, max_length=4, examples=["6-6a", "4-5"]),
    AfterValidator(_canonical_tile),
]
"""One physical tile: its spots and, for a matched kind, the copy letter (``6-6a``)."""
