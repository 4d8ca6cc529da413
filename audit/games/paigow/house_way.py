"""Complete house ways: named procedures that return exactly one setting for any four tiles.

A house way is part of a table's configuration (the casino's Rules Submission,
PA 621a.8(b), 621a.10(f); NJ 19:47-10.7(e)). It sets the dealer's and the
co-bank's hands, and players may ask for it. Each way is looked up in a table of all
35,960 four-tile deals (per hand ranking, deals.py), read from the shipped place code of
its kind pattern (pattern_tables.py) as deals are first looked up.

>>> from audit.games.paigow.tiles import parse_tiles
>>> str(CALIFORNIA.setting(parse_tiles("6-6 6-6 4-6 1-4")))
'6-6a 6-6b / 4-6a 1-4'
>>> str(CALIFORNIA.setting(parse_tiles("6-6 6-6 1-2 1-3")))  # Teens split: the low makes 6
'6-6b 1-2 / 6-6a 1-3a'
>>> str(CALIFORNIA.setting(parse_tiles("1-2 2-4 3-3 2-2")))  # Gee Joon split: 6-spot and 4-spot
'3-3a 2-4 / 2-2a 1-2'
>>> str(DEALER_RULE_MAX_LOW.setting(parse_tiles("1-2 2-4 3-3 2-2")))
'2-4 1-2 / 3-3a 2-2a'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from audit.games.errors import InvalidSettingError
from audit.games.paigow.dealer_rule import permitted_settings
from audit.games.paigow.deals import DealTable, all_deals, deal_mask
from audit.games.paigow.hands import PA_RANKING, HandRanking, describe_hand, pair_rank
from audit.games.paigow.pattern_tables import house_way_table, shipped
from audit.games.paigow.setting import Setting, orient, settings_for, splits
from audit.games.paigow.tiles import DAY, TEEN, TILE_KINDS, TILE_RANKS, TILE_SPOTS, Tile

Procedure = Callable[[tuple[Tile, ...], HandRanking], Setting]

_VALUE_SEVEN_KEY = 7 * 32  # Keys at or above this are value 7+ or a pair (see hands.py).
_SUPREME = 1


def _strongest(settings: Sequence[Setting], ranking: HandRanking) -> Setting:
    """Return the setting with the stronger high hand, then low hand, then the earlier split."""
    return max(settings, key=lambda s: (ranking.key(*s.high), ranking.key(*s.low)))


def _best_low(settings: Sequence[Setting], ranking: HandRanking) -> Setting:
    """Return the setting with the stronger low hand, then high hand, then the earlier split."""
    return max(settings, key=lambda s: (ranking.key(*s.low), ranking.key(*s.high)))


def _low_at_least(setting: Setting, value: int, ranking: HandRanking) -> bool:
    """Return whether the low hand is a pair, wong or gong, or has at least ``value``."""
    return pair_rank(*setting.low) is not None or describe_hand(*setting.low).value >= value


def _split_pair(pair: tuple[Tile, Tile], rest: tuple[Tile, Tile], ranking: HandRanking) -> Setting:
    """Return the best way to play each tile of a pair with one of the other two tiles."""
    (p, q), (x, y) = pair, rest
    return _strongest([orient((p, x), (q, y), ranking), orient((p, y), (q, x), ranking)], ranking)


def _should_split_ca(
    pair: tuple[Tile, Tile], rest: tuple[Tile, Tile], ranking: HandRanking
) -> bool:
    """Apply the California posted split rules to one pair and the other two tiles."""
    spots = TILE_SPOTS[pair[0]]
    rest_spots = sorted(TILE_SPOTS[t] for t in rest)
    if pair_rank(*pair) == _SUPREME:
        # "Split paired Supreme Pair if the third tile has 6-spots and the fourth 4, 5 or 6."
        return 6 in rest_spots and rest_spots[1 - rest_spots.index(6)] in (4, 5, 6)
    split = _split_pair(pair, rest, ranking)
    if spots == 7:  # "...if hand has a Teen, Dey and the low hand after the split is 7 or higher."
        has_teen_or_day = any(TILE_KINDS[t] in (TEEN, DAY) for t in rest)
        return has_teen_or_day and _low_at_least(split, 7, ranking)
    if spots == 8:
        return _low_at_least(split, 7, ranking)
    if spots == 9:
        return _low_at_least(split, 9, ranking)
    if spots in (12, 2):  # Teens or Days: low 6 or higher, or the other tiles a 9 and an 11.
        return _low_at_least(split, 6, ranking) or rest_spots == [9, 11]
    return False  # "Never split pairs with tiles that have 4, 5, 6, 10 or 11 spots."


def _california(tiles: tuple[Tile, ...], ranking: HandRanking) -> Setting:
    """Set four tiles by the California posted house way, completed as docs/rules.md records."""
    settings = settings_for(tiles, ranking)
    paired = [
        s
        for s in settings
        if pair_rank(*s.high) is not None and pair_rank(*s.high) <= 16  # type: ignore[operator]
    ]
    two_pairs = [s for s in paired if pair_rank(*s.low) is not None and pair_rank(*s.low) <= 16]  # type: ignore[operator]
    if two_pairs:  # Completion: two pairs are never broken up.
        return _strongest(two_pairs, ranking)
    if paired:  # "Most valuable high hand is a pair", unless a split rule applies.
        kept = _strongest(paired, ranking)
        if _should_split_ca(kept.high, kept.low, ranking):
            return _split_pair(kept.high, kept.low, ranking)
        return kept
    wongs_gongs = [s for s in settings if pair_rank(*s.high) is not None]
    if wongs_gongs:  # Arrangement order 4 and 5: wongs, then gongs.
        return _strongest(wongs_gongs, ranking)
    strongest = _strongest(settings, ranking)
    if ranking.key(*strongest.high) >= _VALUE_SEVEN_KEY:  # "as close to 9 as possible"
        return strongest
    return _highest_with_lowest(tiles, settings, ranking)


def _highest_with_lowest(
    tiles: tuple[Tile, ...], settings: Sequence[Setting], ranking: HandRanking
) -> Setting:
    """Play the highest-ranking tile with the lowest-ranking tile (PA 621a.8(d)(4); CA item 7)."""
    top = min(TILE_RANKS[t] for t in tiles)
    bottom = max(TILE_RANKS[t] for t in tiles)
    matching = [
        s
        for s in settings
        for hand in (s.high, s.low)
        if sorted(TILE_RANKS[t] for t in hand) == [top, bottom]
    ]
    return _strongest(matching, ranking)


def _dealer_rule_max_low(tiles: tuple[Tile, ...], ranking: HandRanking) -> Setting:
    """Set four tiles within the regulatory rule, choosing the strongest low hand it allows."""
    return _best_low(sorted(permitted_settings(tiles, ranking), key=str), ranking)


_TABLES: dict[tuple[str, bool], DealTable] = {}


@dataclass(frozen=True)
class HouseWay:
    """A named, complete house way: one setting for every four tiles."""

    name: str
    title: str
    source: str
    procedure: Procedure = field(repr=False, compare=False)

    def naive_setting(self, tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING) -> Setting:
        """Compute the setting from the procedure, without the precomputed table."""
        deal = tuple(sorted(tiles))
        splits(deal)  # Validates four distinct tiles.
        return self.procedure(deal, ranking)

    def table(self, ranking: HandRanking = PA_RANKING) -> DealTable:
        """Return this way's table under ``ranking``: every deal's setting, keyed by
        :func:`deal_mask`, each worked out on its first lookup (:class:`DealTable`)."""
        cache_key = (self.name, ranking.zero_hands_tie)
        table = _TABLES.get(cache_key)
        if table is None:
            way = self.procedure
            codes = shipped(house_way_table(self.name, ranking.zero_hands_tie))
            table = _TABLES[cache_key] = DealTable(lambda deal: way(deal, ranking), codes)
        return table

    def setting(self, tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING) -> Setting:
        """Return this house way's setting for four tiles (a table lookup)."""
        table = _TABLES.get((self.name, ranking.zero_hands_tie))
        if table is None:
            table = self.table(ranking)
        try:
            mask = deal_mask(tiles) if len(tiles) == 4 else 0
        except (TypeError, ValueError):  # not tile numbers: a negative shift, a string
            mask = 0
        found = table.settings.get(mask) or table.lookup(mask)  # the first: a deal seen before
        if found is None or len(set(tiles)) != 4:
            raise InvalidSettingError(f"a house way sets four distinct tiles: {tuple(tiles)!r}")
        return found


CALIFORNIA = HouseWay(
    name="california-posted",
    title="California posted house way",
    source="ca-pai-gow-tiles-player-dealer.txt 'House Way', completed in docs/rules.md",
    procedure=_california,
)
DEALER_RULE_MAX_LOW = HouseWay(
    name="dealer-rule-max-low",
    title="PA/NJ dealer rule, strongest low hand",
    source="PA 621a.8(d) / NJ 19:47-10.7(d), choosing the strongest low hand the rule permits",
    procedure=_dealer_rule_max_low,
)
HOUSE_WAYS: dict[str, HouseWay] = {way.name: way for way in (CALIFORNIA, DEALER_RULE_MAX_LOW)}


@dataclass(frozen=True)
class Departure:
    """A deal where a house way sets the tiles outside the regulatory rule's permitted set."""

    tiles: tuple[Tile, Tile, Tile, Tile]
    setting: Setting
    permitted: frozenset[Setting]


def departures(way: HouseWay, ranking: HandRanking = PA_RANKING) -> list[Departure]:
    """List every deal where ``way`` departs from PA 621a.8(d) / NJ 19:47-10.7(d)."""
    table = way.table(ranking)
    found = []
    for deal in all_deals():
        setting = table[deal_mask(deal)]
        permitted = permitted_settings(deal, ranking)
        if setting not in permitted:
            found.append(Departure(deal, setting, permitted))
    return found
