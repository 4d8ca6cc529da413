"""Four-tile deals: all 35,960 of them, their order-free key, and tables over every deal.

A rule that sets or judges four tiles reads only what their kinds give (rank, spots,
pairs): two deals whose ascending tiles have the same kinds in the same order are set
alike, place for place. So a table over every deal computes one deal per kind pattern
and maps the answer onto the others by place (:class:`DealTable`); the house ways
(house_way.py) and the regulatory dealer rule (dealer_rule.py) are tabled so.

>>> len(list(all_deals())) == DEAL_COUNT == 35960
True
>>> deal_of_mask(deal_mask((9, 2, 30, 4))), first_deal(kind_pattern((1, 2, 5, 9)))
((2, 4, 9, 30), (0, 2, 4, 8))
>>> deal_mask((3, 0, 2, 1)) == deal_mask((0, 1, 2, 3)) == 0b1111
True
>>> setting = Setting.of_distinct((9, 2), (30, 4))
>>> place_code(setting), setting_of_place_code((2, 4, 9, 30), place_code(setting)) == setting
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import combinations

from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import KIND_COUNT, TILE_KINDS, Tile

Deal = tuple[Tile, Tile, Tile, Tile]
"""Four distinct tiles, ascending."""

DEAL_COUNT = 35_960
"""C(32, 4): the number of four-tile deals."""


def all_deals() -> Iterator[Deal]:
    """Yield all 35,960 four-tile deals, each as ascending tile numbers."""
    yield from combinations(range(32), 4)


def deal_mask(tiles: Sequence[Tile]) -> int:
    """Return the order-free key of a deal: one bit per tile."""
    return (1 << tiles[0]) | (1 << tiles[1]) | (1 << tiles[2]) | (1 << tiles[3])


def kind_pattern(deal: Sequence[Tile]) -> tuple[int, int, int, int]:
    """Return the kinds of a deal's ascending tiles, in order: what a rule reads of them."""
    a, b, c, d = sorted(deal)
    return TILE_KINDS[a], TILE_KINDS[b], TILE_KINDS[c], TILE_KINDS[d]


# A setting's place code says which of the three splits (splits() in setting.py: the lowest
# tile with the second, third or fourth) it plays, and whether the lowest tile's hand is the
# high one (even) or the low one (odd): 2 * split + side. Settings of deals of one kind
# pattern with the same code are set alike.
def place_code(setting: Setting) -> int:
    """Return a setting's place code (0 to 5) within its own deal (see above)."""
    (h0, h1), (l0, l1) = setting.high, setting.low  # each hand's tiles ascending
    if h0 < l0:  # the lowest tile is high: its partner is h1, the other hand the low
        return 2 * ((l0 < h1) + (l1 < h1))
    return 2 * ((h0 < l1) + (h1 < l1)) + 1


def setting_of_place_code(deal: Deal, code: int) -> Setting:
    """Return the setting of ascending ``deal`` with place code ``code``."""
    a, b, c, d = deal
    first, second = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))[code >> 1]
    return Setting.of_distinct(second, first) if code & 1 else Setting.of_distinct(first, second)


# The tiles of each value of each byte of a mask (tiles 0-7, 8-15, 16-23, 24-31), ascending.
_BYTE_TILES: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
    tuple(tuple(8 * i + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
    for i in range(4)
)


def deal_of_mask(mask: int) -> Deal:
    """Return the ascending tiles of a deal's :func:`deal_mask` (one bit per tile)."""
    t0, t1, t2, t3 = _BYTE_TILES  # a byte at a time: a third of the time of a loop over bits
    return t0[mask & 255] + t1[mask >> 8 & 255] + t2[mask >> 16 & 255] + t3[mask >> 24 & 255]  # type: ignore[return-value]


# Each kind's tiles, ascending: a kind's tiles are numbered together, kinds in order (tiles.py).
_KIND_TILES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(t for t, kind in enumerate(TILE_KINDS) if kind == k) for k in range(KIND_COUNT)
)


def first_deal(kinds: Sequence[int]) -> Deal:
    """Return the first deal (in :func:`all_deals`' order) of a :func:`kind_pattern`."""
    a, b, c, d = kinds  # ascending; a kind repeats at most twice, taking its second tile then
    tiles = _KIND_TILES
    return tiles[a][0], tiles[b][b == a], tiles[c][c == b], tiles[d][d == c]


# The places (high, high, low, low) in an ascending deal of each place code's setting.
_PLACES: tuple[tuple[int, int, int, int], ...] = tuple(
    (first + second if side == 0 else second + first)
    for first, second in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
    for side in (0, 1)
)


class DealTable(Mapping[int, Setting]):
    """A rule's setting of every deal, keyed by :func:`deal_mask`, worked out on first lookup.

    The rule must read only the tiles' kinds and places (as every rule here does). It is
    applied once per kind pattern, to the pattern's :func:`first_deal`, and each deal of the
    pattern is set with its own tiles in the same places (its :func:`place_code`).

    ``codes``, each kind pattern's place code as shipped (pattern_tables.py), spares the
    rule altogether; without them a pattern's first lookup applies the rule once. No deal
    is set up front: a first lookup costs a few microseconds, and after that a deal is one
    dict lookup in :attr:`settings`. Concurrent first lookups are harmless: each writes the
    same values.
    """

    __slots__ = ("_places", "_rule", "settings")

    def __init__(
        self, rule: Callable[[Deal], Setting], codes: Mapping[tuple[int, ...], int] | None = None
    ) -> None:
        self._rule = rule
        self._places: dict[tuple[int, ...], tuple[int, int, int, int]] = {  # by kind pattern
            pattern: _PLACES[code] for pattern, code in (codes or {}).items()
        }
        self.settings: dict[int, Setting] = {}
        """The settings worked out so far, by deal mask: the hot path reads it directly."""

    def lookup(self, mask: int) -> Setting | None:
        """Return the setting of the deal ``mask`` keys, or None if it keys no deal."""
        found = self.settings.get(mask)
        if found is None and type(mask) is int and 0 < mask < 1 << 32 and mask.bit_count() == 4:
            deal = deal_of_mask(mask)
            a, b, c, d = deal
            kinds = TILE_KINDS[a], TILE_KINDS[b], TILE_KINDS[c], TILE_KINDS[d]
            places = self._places.get(kinds)
            if places is None:
                code = place_code(self._rule(first_deal(kinds)))
                places = self._places[kinds] = _PLACES[code]
            h0, h1, l0, l1 = places
            found = Setting.of_distinct((deal[h0], deal[h1]), (deal[l0], deal[l1]))
            self.settings[mask] = found
        return found

    def __getitem__(self, mask: int) -> Setting:
        found = self.lookup(mask)
        if found is None:
            raise KeyError(mask)
        return found

    def __len__(self) -> int:
        return DEAL_COUNT

    def __iter__(self) -> Iterator[int]:
        return map(deal_mask, all_deals())
