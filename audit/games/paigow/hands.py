"""Two-tile hands: permissible pairs, values, and one comparable rank per hand.

A hand's *rank key* is an ``int``; a higher key is a stronger hand and equal keys
are a copy, which goes to the dealer or bank (PA 621a.3(d), (i)). Keys are
precomputed for every ordered pair of the 32 tiles, so comparing hands is two
tuple lookups.

The regulation's own examples (PA 621a.3(e)(1), (2)):

>>> hand_value(*parse_tiles("1-1 3-3"))
8
>>> hand_value(*parse_tiles("5-6 1-6"))
8
>>> describe_hand(*parse_tiles("6-6 4-5")).name
'Teen Wong'
>>> PA_RANKING.compare(parse_tiles("6-6 6-6"), parse_tiles("1-1 1-1"))
1
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from audit.games.errors import InvalidSettingError
from audit.games.paigow.tiles import (
    DAY,
    GEE_JOON_COUNTS,
    GEE_JOON_SIX,
    GEE_JOON_THREE,
    KIND_COUNT,
    KIND_NAMES,
    KIND_RANKS,
    KIND_SPOTS,
    MATCHED_KINDS,
    TEEN,
    TILE_KINDS,
    TILES,
    TileKind,
    kind_name,
    parse_tiles,
    tile_name,
)

Hand = tuple[int, int]
"""Two distinct tiles."""


def _kinds(*notations: str) -> tuple[TileKind, ...]:
    return tuple(TILE_KINDS[t] for t in parse_tiles(" ".join(notations)))


def _pair_table() -> dict[tuple[TileKind, TileKind], int]:
    """Build PA 621a.3(c) / NJ 19:47-10.2(b): sorted kind pair -> pair rank, 1 (Supreme) to 20."""
    # Mixed pairs, wongs and gongs name their tiles by spots; kinds come from the notation.
    nine_a, nine_b, eight_a, eight_b = _kinds("3-6", "4-5", "2-6", "3-5")
    seven_a, seven_b, five_a, five_b = _kinds("2-5", "3-4", "1-4", "2-3")
    (eight_c,) = _kinds("4-4")
    ranked: list[list[tuple[TileKind, TileKind]]] = [[(GEE_JOON_SIX, GEE_JOON_THREE)]]
    ranked += [[(kind, kind)] for kind in MATCHED_KINDS]
    ranked += [[(nine_a, nine_b)], [(eight_a, eight_b)], [(seven_a, seven_b)], [(five_a, five_b)]]
    for high in (TEEN, DAY):  # Wongs: a Teen or Day with a nine.
        ranked.append([(high, nine_a), (high, nine_b)])
    for high in (TEEN, DAY):  # Gongs: a Teen or Day with an eight.
        ranked.append([(high, eight_a), (high, eight_b), (high, eight_c)])
    return {
        tuple(sorted(pair)): rank  # type: ignore[misc]
        for rank, pairs in enumerate(ranked, start=1)
        for pair in pairs
    }


PAIR_RANKS: dict[tuple[TileKind, TileKind], int] = _pair_table()
PAIR_NAMES: dict[int, str] = {
    1: "Supreme Pair",
    **{2 + kind: f"Pair of {KIND_NAMES[kind]}s" for kind in MATCHED_KINDS},
    13: "Mixed Nines",
    14: "Mixed Eights",
    15: "Mixed Sevens",
    16: "Mixed Fives",
    17: "Teen Wong",
    18: "Day Wong",
    19: "Teen Gong",
    20: "Day Gong",
}
PAIR_CATEGORIES: dict[int, str] = {
    rank: "supreme" if rank == 1 else "matched" if rank <= 12 else "mixed" if rank <= 16 else
    "wong" if rank <= 18 else "gong"
    for rank in range(1, 21)
}  # fmt: skip
WORST_PAIR_RANK = 20

_PAIR_KEY_BASE = 1000
_TILE_SCORE_BASE = 18  # one more than the lowest individual rank, seventeenth


def pair_rank(a: int, b: int) -> int | None:
    """Return the PA 621a.3(c) rank (1-20) if the two tiles form a permissible pair, else None."""
    ka, kb = TILE_KINDS[a], TILE_KINDS[b]
    return PAIR_RANKS.get((ka, kb) if ka <= kb else (kb, ka))


def _counts(kind: TileKind) -> tuple[tuple[int, int], ...]:
    """Yield (spots, individual rank) choices; Gee Joon tiles used apart have two (621a.3(f))."""
    return GEE_JOON_COUNTS.get(kind, ((KIND_SPOTS[kind], KIND_RANKS[kind]),))


def _best_count(ka: TileKind, kb: TileKind) -> tuple[int, int]:
    """Return (value, rank of the highest tile) for a non-pair, counting Gee Joon to advantage."""
    value, negated_top = max(
        ((sa + sb) % 10, -min(ra, rb))  # PA 621a.3(e): the right digit of the spot total.
        for (sa, ra), (sb, rb) in product(_counts(ka), _counts(kb))
    )
    return value, -negated_top


_KIND_VALUES: tuple[int, ...] = tuple(
    _best_count(ka, kb)[0] for ka in range(KIND_COUNT) for kb in range(KIND_COUNT)
)
"""Each ordered pair of kinds' value, indexed ``ka * KIND_COUNT + kb``: 441 entries."""


def hand_value(a: int, b: int) -> int:
    """Return the 0-9 value of two tiles (PA 621a.3(e)), a Gee Joon counted as 3 or 6 to advantage.

    A pair also has a value, but pairs rank by pair rank, never by value.
    """
    return _KIND_VALUES[TILE_KINDS[a] * KIND_COUNT + TILE_KINDS[b]]


def highest_tile_rank(a: int, b: int) -> int:
    """Return the individual rank (1 best) of the higher tile, as counted for the hand's value."""
    return _best_count(TILE_KINDS[a], TILE_KINDS[b])[1]


@dataclass(frozen=True)
class HandInfo:
    """What a two-tile hand is, for display and replay."""

    tiles: Hand
    name: str
    category: str
    pair_rank: int | None
    value: int
    highest_rank: int


def describe_hand(a: int, b: int) -> HandInfo:
    """Describe a hand: its pair rank and name, or its value and highest tile."""
    if a == b:
        raise InvalidSettingError(f"a hand needs two different tiles: {tile_name(a)!r} twice")
    rank = pair_rank(a, b)
    value, top = _best_count(TILE_KINDS[a], TILE_KINDS[b])
    if rank is not None:
        return HandInfo((a, b), PAIR_NAMES[rank], PAIR_CATEGORIES[rank], rank, value, top)
    # The highest tile as counted: a Gee Joon's rank moves with its count (621a.3(f)).
    high = next(
        a if ra <= rb else b
        for (sa, ra), (sb, rb) in product(_counts(TILE_KINDS[a]), _counts(TILE_KINDS[b]))
        if ((sa + sb) % 10, min(ra, rb)) == (value, top)
    )
    name = f"{value} ({kind_name(TILE_KINDS[high])} high)"
    return HandInfo((a, b), name, "value", None, value, top)


@dataclass(frozen=True)
class HandRanking:
    """One jurisdiction's way of ordering two-tile hands.

    ``zero_hands_tie``: PA 621a.3(g) and the California text make any two hands
    of value zero equal (so the banker wins the copy). NJ 19:47-10.2 has no such
    clause, so NJ breaks a zero-zero tie on the highest tile like any other value;
    NJ's "or has a value of zero" (10.7(h), (i)) is applied in the wager outcome.
    """

    zero_hands_tie: bool

    def __post_init__(self) -> None:
        # Precompute every ordered tile pair; the hot path then only indexes a tuple.
        by_kind = [self._kind_key(ka, kb) for ka in range(KIND_COUNT) for kb in range(KIND_COUNT)]
        keys = tuple(
            by_kind[TILE_KINDS[a] * KIND_COUNT + TILE_KINDS[b]] if a != b else -1
            for a in TILES
            for b in TILES
        )
        object.__setattr__(self, "_keys", keys)

    def _kind_key(self, ka: TileKind, kb: TileKind) -> int:
        rank = PAIR_RANKS.get((ka, kb) if ka <= kb else (kb, ka))
        if rank is not None:  # PA 621a.3(c): any permissible pair outranks every non-pair.
            return _PAIR_KEY_BASE + WORST_PAIR_RANK + 1 - rank
        value, top = _best_count(ka, kb)
        if value == 0 and self.zero_hands_tie:  # PA 621a.3(g): zero-zero is equally bad.
            return 0
        return value * 32 + _TILE_SCORE_BASE - top  # PA 621a.3(g), (i): value, then top tile.

    @property
    def keys(self) -> tuple[int, ...]:
        """Return the flat key table, indexed ``a * 32 + b`` (``-1`` where ``a == b``)."""
        return self._keys  # type: ignore[attr-defined,no-any-return]

    def key(self, a: int, b: int) -> int:
        """Return the rank key of the hand ``a, b``: higher is stronger, equal is a copy."""
        if a == b:
            raise InvalidSettingError(f"a hand needs two different tiles: {tile_name(a)!r} twice")
        return self._keys[a * 32 + b]  # type: ignore[attr-defined,no-any-return]

    def compare(self, x: Hand, y: Hand) -> int:
        """Return 1 if hand ``x`` ranks higher, -1 if lower, 0 if the two are a copy."""
        kx, ky = self.key(*x), self.key(*y)
        return (kx > ky) - (kx < ky)


PA_RANKING = HandRanking(zero_hands_tie=True)
"""PA 621a.3 and the California text."""
NJ_RANKING = HandRanking(zero_hands_tie=False)
"""NJ 19:47-10.2."""
