"""The Pair Fortunes wager (PA 621a.8(j), as amended 2019): pairs among a player's four tiles.

"Irrespective of how the player's hand was set", the wager wins if the four
tiles contain a Gee Joon Pair (1-2 with 2-4), a Heaven Pair (6-6 with 6-6), an
Identical Pair (two tiles of another matched kind) or a Mixed Pair (3-6/4-5,
2-6/3-5, 2-5/3-4, 1-4/2-3), and loses otherwise. Each tile has exactly one
partner kind, so the pairs in four distinct tiles never overlap: there are
none, one, or two that use all four tiles. :class:`PairFortunesCategory` names
every combination that can occur, best first by the rank of the pairs (not by
what they pay).

The payouts are in PA 621a.11(b), which we do not hold, so the
:class:`Paytable` is a parameter. :data:`ILLUSTRATIVE_PAYTABLE` is an
illustration for tests and examples, NOT the regulatory table.

Pair Fortunes is banked by the house in every round: the dealer pays or collects
it (8(j)), even for a player who surrendered the Pai Gow wager (8(e)).

>>> from audit.games.paigow.tiles import parse_tiles
>>> classify_pairs(parse_tiles("1-2 2-4 6-6 6-6")).name
'GEE_JOON_AND_HEAVEN'
>>> settle_pair_fortunes(parse_tiles("3-6 4-5 1-1 5-6"), 500, ILLUSTRATIVE_PAYTABLE)
PairFortunesResult(category=PairFortunesCategory.MIXED_PAIR, wager=500, paid=2000, collected=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from audit.games.errors import InvalidSettlementError, InvalidTileError
from audit.games.money import Cents
from audit.games.paigow.tiles import (
    GEE_JOON_SIX,
    GEE_JOON_THREE,
    KIND_COUNT,
    MATCHED_KINDS,
    TEEN,
    TILE_KINDS,
    Tile,
    TileKind,
    check_distinct,
    parse_kind,
)
from audit.games.wagering import Odds, check_stake, dataclass_repr


class PairType(Enum):
    """The four kinds of pair Pair Fortunes pays on, best first."""

    GEE_JOON = "gee_joon"
    HEAVEN = "heaven"
    IDENTICAL = "identical"
    MIXED = "mixed"


class PairFortunesCategory(Enum):
    """Every pair combination four distinct tiles can hold, best first.

    Two Gee Joon or two Heaven pairs need tiles the set does not have twice, and
    one mixed pair cannot occur twice, so those combinations are absent.
    """

    GEE_JOON_AND_HEAVEN = "gee_joon_and_heaven"
    GEE_JOON_AND_IDENTICAL = "gee_joon_and_identical"
    GEE_JOON_AND_MIXED = "gee_joon_and_mixed"
    HEAVEN_AND_IDENTICAL = "heaven_and_identical"
    HEAVEN_AND_MIXED = "heaven_and_mixed"
    TWO_IDENTICAL = "two_identical"
    IDENTICAL_AND_MIXED = "identical_and_mixed"
    TWO_MIXED = "two_mixed"
    GEE_JOON_PAIR = "gee_joon_pair"
    HEAVEN_PAIR = "heaven_pair"
    IDENTICAL_PAIR = "identical_pair"
    MIXED_PAIR = "mixed_pair"
    NO_PAIR = "no_pair"


_MIXED_PAIRS = ("3-6 4-5", "2-6 3-5", "2-5 3-4", "1-4 2-3")


def _pair_tables() -> tuple[tuple[TileKind | None, ...], tuple[PairType | None, ...]]:
    """Build each kind's partner kind and the type of pair the two make."""
    partner: list[TileKind | None] = [None] * KIND_COUNT
    pair_type: list[PairType | None] = [None] * KIND_COUNT
    for kind in MATCHED_KINDS:
        partner[kind] = kind
        pair_type[kind] = PairType.HEAVEN if kind == TEEN else PairType.IDENTICAL
    couples = [(GEE_JOON_THREE, GEE_JOON_SIX, PairType.GEE_JOON)]
    for text in _MIXED_PAIRS:
        one, other = map(parse_kind, text.split())
        couples.append((one, other, PairType.MIXED))
    for one, other, kind_of_pair in couples:
        partner[one], partner[other] = other, one
        pair_type[one] = pair_type[other] = kind_of_pair
    return tuple(partner), tuple(pair_type)


_PARTNER, _PAIR_TYPE = _pair_tables()
_PAIR_OF_KINDS: tuple[PairType | None, ...] = tuple(
    _PAIR_TYPE[a] if _PARTNER[a] == b else None
    for a in range(KIND_COUNT)
    for b in range(KIND_COUNT)
)
"""The pair two kinds make (``None``: none), indexed ``a * KIND_COUNT + b``: 441 entries."""

_P = PairType
_C = PairFortunesCategory
_CATEGORY_OF_PAIRS: dict[tuple[PairType, ...], PairFortunesCategory] = {
    (): _C.NO_PAIR,
    (_P.GEE_JOON,): _C.GEE_JOON_PAIR,
    (_P.HEAVEN,): _C.HEAVEN_PAIR,
    (_P.IDENTICAL,): _C.IDENTICAL_PAIR,
    (_P.MIXED,): _C.MIXED_PAIR,
    (_P.GEE_JOON, _P.HEAVEN): _C.GEE_JOON_AND_HEAVEN,
    (_P.GEE_JOON, _P.IDENTICAL): _C.GEE_JOON_AND_IDENTICAL,
    (_P.GEE_JOON, _P.MIXED): _C.GEE_JOON_AND_MIXED,
    (_P.HEAVEN, _P.IDENTICAL): _C.HEAVEN_AND_IDENTICAL,
    (_P.HEAVEN, _P.MIXED): _C.HEAVEN_AND_MIXED,
    (_P.IDENTICAL, _P.IDENTICAL): _C.TWO_IDENTICAL,
    (_P.IDENTICAL, _P.MIXED): _C.IDENTICAL_AND_MIXED,
    (_P.MIXED, _P.MIXED): _C.TWO_MIXED,
}
_CATEGORY_OF_FOUND = {
    **_CATEGORY_OF_PAIRS,
    **{pairs[::-1]: category for pairs, category in _CATEGORY_OF_PAIRS.items()},
}
"""The categories by the pairs found, best first or not (two pairs may come either way)."""
_PAIR_ORDER = tuple(PairType)


def _check_four(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    hand = check_distinct(tiles, "pair fortunes hand")
    if len(hand) != 4:
        raise InvalidTileError(f"pair fortunes needs four tiles: {hand!r}")
    return hand


def _found_pairs(hand: Sequence[Tile]) -> tuple[PairType, ...]:
    """Return the pairs among four distinct tiles, in the order their first tiles come."""
    kind, pair, n = TILE_KINDS, _PAIR_OF_KINDS, KIND_COUNT
    a, b, c, d = hand
    a, b, c, d = kind[a], kind[b], kind[c], kind[d]
    candidates = (
        *(pair[a * n + b], pair[a * n + c], pair[a * n + d]),
        *(pair[b * n + c], pair[b * n + d], pair[c * n + d]),
    )
    return tuple([found for found in candidates if found is not None])


def pairs_in(tiles: Iterable[Tile]) -> tuple[PairType, ...]:
    """Return the Pair Fortunes pairs among four distinct tiles, best first.

    >>> from audit.games.paigow.tiles import parse_tiles
    >>> [pair.name for pair in pairs_in(parse_tiles("2-3 1-1 1-4 1-1"))]
    ['IDENTICAL', 'MIXED']
    """
    return tuple(sorted(_found_pairs(_check_four(tiles)), key=_PAIR_ORDER.index))


def classify_pairs(tiles: Iterable[Tile]) -> PairFortunesCategory:
    """Return the Pair Fortunes category of four distinct tiles, however they were set."""
    return classify_distinct(_check_four(tiles))


def classify_distinct(hand: Sequence[Tile]) -> PairFortunesCategory:
    """Return the category of four distinct real tiles, unchecked.

    For hot paths whose caller has just established that (a lookup of four names, then a
    count of the distinct tiles): :func:`classify_pairs` would check it again. The result
    is as ``classify_pairs``'.
    """
    return _CATEGORY_OF_FOUND[_found_pairs(hand)]


@dataclass(frozen=True, repr=False)
class Paytable:
    """What each winning :class:`PairFortunesCategory` pays; every one needs odds."""

    odds: Mapping[PairFortunesCategory, Odds] = field(hash=False)

    __repr__ = dataclass_repr

    def __post_init__(self) -> None:
        if not isinstance(self.odds, Mapping):
            raise InvalidSettlementError(f"paytable odds must be a mapping: {self.odds!r}")
        odds = dict(self.odds)
        missing = [c for c in PairFortunesCategory if c is not _C.NO_PAIR and c not in odds]
        if missing:
            raise InvalidSettlementError(f"paytable lacks odds for: {missing!r}")
        for category, value in odds.items():
            if not isinstance(category, PairFortunesCategory) or category is _C.NO_PAIR:
                raise InvalidSettlementError(f"paytable has no winning category: {category!r}")
            if not isinstance(value, Odds):
                raise InvalidSettlementError(f"paytable odds must be odds: {value!r}")
        # A private copy, so a caller's later edits cannot change a frozen table.
        object.__setattr__(self, "odds", odds)


_TWO_PAIRS = Odds(25)
ILLUSTRATIVE_PAYTABLE = Paytable(
    {
        _C.GEE_JOON_AND_HEAVEN: Odds(300),
        _C.GEE_JOON_AND_IDENTICAL: _TWO_PAIRS,
        _C.GEE_JOON_AND_MIXED: _TWO_PAIRS,
        _C.HEAVEN_AND_IDENTICAL: _TWO_PAIRS,
        _C.HEAVEN_AND_MIXED: _TWO_PAIRS,
        _C.TWO_IDENTICAL: _TWO_PAIRS,
        _C.IDENTICAL_AND_MIXED: _TWO_PAIRS,
        _C.TWO_MIXED: _TWO_PAIRS,
        _C.GEE_JOON_PAIR: Odds(8),
        _C.HEAVEN_PAIR: Odds(3),
        _C.IDENTICAL_PAIR: Odds(3),
        _C.MIXED_PAIR: Odds(4),
    }
)
"""ILLUSTRATIVE ONLY, not PA 621a.11(b): a table shaped like published Pair Fortunes
paytables, for tests and examples. Use the house's approved paytable in production."""


@dataclass(frozen=True, repr=False)
class PairFortunesResult:
    """A settled Pair Fortunes wager: the category, and what was paid or collected."""

    category: PairFortunesCategory
    wager: Cents
    paid: Cents
    collected: Cents

    __repr__ = dataclass_repr

    @property
    def net(self) -> Cents:
        """Return the player's gain (positive) or loss (negative); the house has the opposite."""
        return self.paid - self.collected


def pair_fortunes_payout(
    category: PairFortunesCategory, amount: Cents, paytable: Paytable
) -> tuple[Cents, Cents]:
    """Return what a Pair Fortunes wager of ``amount`` on ``category`` is paid and collected.

    PA 621a.8(j): a pair wins "in accordance with § 621a.11(b)" (here ``paytable``);
    no pair loses and is collected. A winner keeps the wager and is paid the odds.

    >>> pair_fortunes_payout(PairFortunesCategory.MIXED_PAIR, 500, ILLUSTRATIVE_PAYTABLE)
    (2000, 0)
    >>> pair_fortunes_payout(PairFortunesCategory.NO_PAIR, 500, ILLUSTRATIVE_PAYTABLE)
    (0, 500)
    """
    if category is _C.NO_PAIR:
        return 0, amount
    return paytable.odds[category].pays(amount), 0


def settle_pair_fortunes(
    tiles: Iterable[Tile], amount: Cents, paytable: Paytable
) -> PairFortunesResult:
    """Settle a Pair Fortunes wager of ``amount`` on four tiles against the house.

    The four tiles' category (:func:`classify_pairs`) is paid by the paytable
    (:func:`pair_fortunes_payout`).
    """
    check_stake(amount, "pair fortunes wager")
    if not isinstance(paytable, Paytable):
        raise InvalidSettlementError(f"not a paytable: {paytable!r}")
    category = classify_pairs(tiles)
    paid, collected = pair_fortunes_payout(category, amount, paytable)
    return PairFortunesResult(category, amount, paid=paid, collected=collected)
