"""Four-tile deals: all 35,960 of them, their order-free key, and tables over every deal.

A rule that sets or judges four tiles reads only what their kinds give (rank, spots,
pairs): two deals whose ascending tiles have the same kinds in the same order are set
alike, place for place. So a table over every deal computes one deal per kind pattern
and maps the answer onto the others by place (:func:`tabulate_by_kinds`); the house
ways (house_way.py) and the regulatory dealer rule (dealer_rule.py) are tabled so.

>>> len(list(all_deals()))
35960
>>> deal_mask((3, 0, 2, 1)) == deal_mask((0, 1, 2, 3)) == 0b1111
True
>>> setting = Setting.of_distinct((9, 2), (30, 4))
>>> place_code(setting), setting_of_place_code((2, 4, 9, 30), place_code(setting)) == setting
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations

from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import TILE_KINDS, Tile

Deal = tuple[Tile, Tile, Tile, Tile]
"""Four distinct tiles, ascending."""


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


def tabulate_by_kinds(settings_of: Callable[[Deal], Iterable[Setting]]) -> dict[int, list[Setting]]:
    """Return ``settings_of(deal)`` for every deal, keyed by :func:`deal_mask`, in its order.

    ``settings_of`` must read only the tiles' kinds and places (as every rule here does):
    it is called once per kind pattern, and each other deal of the pattern gets its
    settings with its own tiles put in the same places.
    """
    places_by_kinds: dict[tuple[int, ...], list[tuple[int, int, int, int]]] = {}
    table: dict[int, list[Setting]] = {}
    for deal in all_deals():
        kinds = tuple(TILE_KINDS[t] for t in deal)
        places = places_by_kinds.get(kinds)
        if places is None:
            places = places_by_kinds[kinds] = [
                tuple(deal.index(t) for t in setting.tiles)  # type: ignore[misc]
                for setting in settings_of(deal)
            ]
        table[deal_mask(deal)] = [
            Setting.of_distinct((deal[a], deal[b]), (deal[c], deal[d])) for a, b, c, d in places
        ]
    return table
