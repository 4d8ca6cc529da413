"""The 32 Pai Gow tiles: kinds, identities, spots, names and individual ranks.

A *kind* is what a tile shows (``6-6``); a *tile* is one physical piece. The
set holds two tiles of each of the eleven matched kinds and one of each of the
ten others, so the two ``6-6`` tiles are different tiles of one kind
(``6-6a`` and ``6-6b``). Kinds are numbered in the order of the individual
ranking of PA 621a.3(h) / NJ 19:47-10.2(g), highest first, so a lower kind
number never ranks below a higher one.

>>> tile_name(parse_tile("6-6b"))
'6-6b'
>>> KIND_NAMES[tile_kind(parse_tile("1-2"))]
'Gee Joon'
>>> [tile_name(t) for t in parse_tiles("6-6 6-6 2-1 1-3")]
['6-6a', '6-6b', '1-2', '1-3a']
"""

from __future__ import annotations

from collections.abc import Iterable

from audit.games.errors import InvalidTileError

Tile = int
"""A physical tile, ``0`` to ``31``."""

TileKind = int
"""A tile kind, ``0`` (Teen, 6-6) to ``20`` (the Gee Joon 1-2), in individual-rank order."""

# PA 621a.3(h) / NJ 19:47-10.2(g): every kind, highest individual rank first.
KIND_NOTATIONS: tuple[str, ...] = (
    "6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5",
    "3-6", "4-5", "2-6", "3-5", "2-5", "3-4", "2-4", "1-4", "2-3", "1-2",
)  # fmt: skip
KIND_NAMES: tuple[str, ...] = (
    "Teen", "Day", "Yun", "Gor", "Mooy", "Chong", "Bon", "Foo", "Ping", "Tit", "Look",
    "Chop Gow", "Chop Gow", "Chop Bot", "Chop Bot", "Chop Chit", "Chop Chit",
    "Gee Joon", "Chop Ng", "Chop Ng", "Gee Joon",
)  # fmt: skip
# The ordinal of 621a.3(h); mixed kinds share the twelfth to sixteenth places.
KIND_RANKS: tuple[int, ...] = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 13, 13, 14, 14, 15, 16, 16, 17,
)  # fmt: skip
KIND_SPOTS: tuple[int, ...] = tuple(
    sum(int(half) for half in notation.split("-")) for notation in KIND_NOTATIONS
)
KIND_COUNT = len(KIND_NOTATIONS)
MATCHED_KINDS = range(11)
"""The kinds with two tiles in the set (PA 621a.3(c) matched pairs)."""

TEEN: TileKind = 0
DAY: TileKind = 1
YUN: TileKind = 2
GEE_JOON_SIX: TileKind = 17
"""The 2-4 tile of the Supreme Pair."""
GEE_JOON_THREE: TileKind = 20
"""The 1-2 tile of the Supreme Pair."""
GEE_JOON_KINDS = (GEE_JOON_SIX, GEE_JOON_THREE)

# PA 621a.3(f) / NJ 19:47-10.2(e): used apart, each Gee Joon tile counts 3 or 6, and
# its individual rank moves with the count (the 1-2 counted as 6 ranks fifteenth,
# the 2-4 counted as 3 ranks seventeenth).
GEE_JOON_COUNTS: dict[TileKind, tuple[tuple[int, int], ...]] = {
    GEE_JOON_SIX: ((6, 15), (3, 17)),
    GEE_JOON_THREE: ((3, 17), (6, 15)),
}


def _build_tiles() -> tuple[tuple[TileKind, ...], tuple[str, ...]]:
    kinds: list[TileKind] = []
    names: list[str] = []
    for kind, notation in enumerate(KIND_NOTATIONS):
        if kind in MATCHED_KINDS:
            kinds += [kind, kind]
            names += [notation + "a", notation + "b"]
        else:
            kinds.append(kind)
            names.append(notation)
    return tuple(kinds), tuple(names)


TILE_KINDS, TILE_NAMES = _build_tiles()
TILES: tuple[Tile, ...] = tuple(range(len(TILE_KINDS)))
TILE_SPOTS: tuple[int, ...] = tuple(KIND_SPOTS[kind] for kind in TILE_KINDS)
TILE_RANKS: tuple[int, ...] = tuple(KIND_RANKS[kind] for kind in TILE_KINDS)
TILES_OF_KIND: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(t for t in TILES if TILE_KINDS[t] == kind) for kind in range(KIND_COUNT)
)
FULL_SET: frozenset[Tile] = frozenset(TILES)

_KIND_BY_NOTATION = {notation: kind for kind, notation in enumerate(KIND_NOTATIONS)}
_TILE_BY_NAME = {name: tile for tile, name in enumerate(TILE_NAMES)}
TILE_BY_NAME: dict[str, Tile] = _TILE_BY_NAME
"""Each tile by its canonical name (``'6-6a'``, as events carry them): a lookup, not a parse.
Shared: never change it. Any other spelling is :func:`parse_tile`'s."""


def tile_kind(tile: Tile) -> TileKind:
    """Return the kind of a tile."""
    return TILE_KINDS[tile]


def tile_name(tile: Tile) -> str:
    """Return a tile's notation with its copy letter, e.g. ``'6-6a'`` or ``'4-5'``."""
    return TILE_NAMES[tile]


def kind_name(kind: TileKind) -> str:
    """Return a kind's notation, e.g. ``'6-6'``."""
    return KIND_NOTATIONS[kind]


def parse_kind(text: str) -> TileKind:
    """Parse ``'6-6'``, ``'2-1'`` or ``'1:2'`` into a kind; halves may come in either order."""
    halves = text.strip().replace(":", "-").split("-")
    if len(halves) == 2 and all(h.strip().isdigit() for h in halves):
        low, high = sorted(int(h) for h in halves)
        kind = _KIND_BY_NOTATION.get(f"{low}-{high}")
        if kind is not None:
            return kind
    raise InvalidTileError(f"invalid tile kind: {text!r}")


def parse_tile(text: str) -> Tile:
    """Parse one tile; a matched kind without a copy letter means its first copy (``a``)."""
    found = _TILE_BY_NAME.get(text)
    if found is not None:  # the canonical spelling, as every event carries it
        return found
    stripped = text.strip()
    if stripped[-1:] in ("a", "b"):
        try:
            kind = parse_kind(stripped[:-1])
        except InvalidTileError:
            raise InvalidTileError(f"invalid tile: {text!r}") from None
        if kind not in MATCHED_KINDS:
            raise InvalidTileError(f"invalid tile: {text!r} (only one {kind_name(kind)} exists)")
        return TILES_OF_KIND[kind][stripped[-1] == "b"]
    return TILES_OF_KIND[parse_kind(stripped)][0]


def parse_tiles(text: str | Iterable[str]) -> tuple[Tile, ...]:
    """Parse several distinct tiles, giving each unlettered matched kind its next unused copy."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    lettered = [w for w in words if w.strip()[-1:] in ("a", "b")]
    used: set[Tile] = {parse_tile(w) for w in lettered}
    if len(used) != len(lettered):
        raise InvalidTileError(f"a tile appears twice: {text!r}")
    tiles: list[Tile] = []
    for word in words:
        if word in lettered:
            tiles.append(parse_tile(word))
            continue
        free = [t for t in TILES_OF_KIND[parse_kind(word)] if t not in used]
        if not free:
            raise InvalidTileError(f"more {word.strip()!r} tiles than the set holds: {text!r}")
        used.add(free[0])
        tiles.append(free[0])
    return tuple(tiles)


_TILE_NUMBERS = frozenset(TILES)
_is_int = int.__instancecheck__


def check_distinct(tiles: Iterable[Tile], what: str = "tiles") -> tuple[Tile, ...]:
    """Return the tiles as a tuple if each is a real tile and none repeats, else raise."""
    result = tuple(tiles)
    # The usual case, settled by C loops: ints, each a tile's number, none repeated.
    # Anything else (an unhashable value too) goes on to the checks below, which say why.
    try:
        usual = len(set(result)) == len(result) and _TILE_NUMBERS.issuperset(result)
    except TypeError:
        usual = False
    if usual and all(map(_is_int, result)):  # as isinstance(tile, int): 1.0 is not a tile
        return result
    for tile in result:
        if not isinstance(tile, int) or not 0 <= tile < len(TILES):
            raise InvalidTileError(f"invalid tile in {what}: {tile!r}")
    if len(set(result)) != len(result):
        names = [tile_name(t) for t in result]
        raise InvalidTileError(f"a tile appears twice in {what}: {names!r}")
    return result
