"""Pai Gow tiles as SVG pictures, their pips drawn from the tile set in ``audit.games.paigow``.

A tile stands upright, its two halves one above the other, each half's pips laid out as
on the tiles themselves: the ones and fours in red, the rest in white. The two Gee Joon
tiles (the 1-2 and the 2-4, PA 621a.3(f)) are drawn with a gold border and the letters
"GJ", so an analyst sees the Supreme Pair at a glance. A name that is no tile (a record
gone wrong) is drawn as a blank tile showing the name, never an error: the replay must
show what was recorded.

>>> 'data-tile="1-2"' in tile_svg("1-2") and "gee-joon" in tile_svg("1-2")
True
>>> tile_svg("6-6a").count('class="pip')
12
"""

from __future__ import annotations

from html import escape

from audit.games.errors import RulesError
from audit.games.paigow.tiles import GEE_JOON_KINDS, KIND_NAMES, kind_name, parse_tile, tile_kind

WIDTH, HEIGHT = 40, 76
"""A tile's size in SVG units; the page scales it."""
_HALF = (HEIGHT - 8) / 2

# Pip centres in a half of unit size, for one to six spots.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.25), (0.5, 0.75)),
    3: ((0.25, 0.2), (0.5, 0.5), (0.75, 0.8)),
    4: ((0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)),
    5: ((0.25, 0.22), (0.75, 0.22), (0.5, 0.5), (0.25, 0.78), (0.75, 0.78)),
    6: ((0.28, 0.18), (0.72, 0.18), (0.28, 0.5), (0.72, 0.5), (0.28, 0.82), (0.72, 0.82)),
}
RED_SPOTS = frozenset({1, 4})
"""The halves whose pips are red on the tiles, as on the dice."""


def tile_halves(name: str) -> tuple[int, int] | None:
    """Return a tile's two halves by its name (``'2-4'`` -> ``(2, 4)``), or None if no tile.

    >>> tile_halves("6-6b"), tile_halves("2-1"), tile_halves("7-7")
    ((6, 6), (1, 2), None)
    """
    try:
        kind = tile_kind(parse_tile(name))
    except (RulesError, IndexError):
        return None
    low, high = (int(half) for half in kind_name(kind).split("-"))
    return low, high


def is_gee_joon(name: str) -> bool:
    """Return whether a tile's name is one of the two Gee Joon tiles (PA 621a.3(f))."""
    try:
        return tile_kind(parse_tile(name)) in GEE_JOON_KINDS
    except (RulesError, IndexError):
        return False


def _pips(spots: int, top: float) -> list[str]:
    colour = "pip red" if spots in RED_SPOTS else "pip white"
    fill = "#c8102e" if spots in RED_SPOTS else "#ffffff"
    radius = 4.2 if spots == 1 else 3.6
    return [
        f'<circle class="{colour}" cx="{4 + x * (WIDTH - 8):.1f}" '
        f'cy="{top + y * _HALF:.1f}" r="{radius}" fill="{fill}"/>'
        for x, y in PIP_LAYOUTS[spots]
    ]


def tile_svg(name: str, *, label: str | None = None) -> str:
    """Return one tile as an inline SVG element, its ``<title>`` naming the tile.

    ``label`` is added to the accessible name (``'6-6a, expected'``).
    """
    halves = tile_halves(name)
    shown = escape(name)
    if halves is None:
        described = f"{shown}: not a tile"
        body = [
            f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 4}" text-anchor="middle" font-size="9" '
            f'fill="#fff">{shown[:6]}</text>'
        ]
        classes = "tile unknown"
    else:
        kind = tile_kind(parse_tile(name))
        gee_joon = kind in GEE_JOON_KINDS
        described = f"{shown} ({escape(KIND_NAMES[kind])})"
        body = [*_pips(halves[0], 4), *_pips(halves[1], 4 + _HALF)]
        body.append(
            f'<line x1="6" y1="{HEIGHT / 2}" x2="{WIDTH - 6}" y2="{HEIGHT / 2}" '
            'stroke="#777" stroke-width="1"/>'
        )
        if gee_joon:
            body.append(
                f'<text class="gee-joon-mark" x="{WIDTH - 3}" y="9" text-anchor="end" '
                'font-size="7" font-weight="bold" fill="#e0b000">GJ</text>'
            )
        classes = "tile gee-joon" if gee_joon else "tile"
    if label:
        described += f", {escape(label)}"
    border = "#e0b000" if "gee-joon" in classes else "#444"
    width = 3 if "gee-joon" in classes else 1.5
    return (
        f'<svg class="{classes}" data-tile="{shown}" role="img" aria-label="{described}" '
        f'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}"><title>{described}</title>'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" fill="#1b1b1b" '
        f'stroke="{border}" stroke-width="{width}"/>' + "".join(body) + "</svg>"
    )
