"""The regulatory dealer rule (PA 621a.8(d), NJ 19:47-10.7(d)) as the set of settings it permits.

The rule leaves choices open ("any two tiles ... nine, eight or seven"), so it is
modelled as a set: a dealer's setting complies when it is in that set. A
setting of two equal-ranking hands is permitted either way round.

>>> from audit.games.paigow.tiles import parse_tiles
>>> sorted(str(s) for s in permitted_settings(parse_tiles("6-6 6-6 1-2 1-3")))
['6-6a 6-6b / 1-3a 1-2']
>>> rule_clause(parse_tiles("6-6 1-1 1-3 5-5"))
'no-combination'
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.games.paigow.deals import (
    Deal,
    first_deal,
    kind_pattern,
    place_code,
    setting_of_place_code,
)
from audit.games.paigow.hands import PA_RANKING, HandRanking, hand_value, pair_rank
from audit.games.paigow.pattern_tables import shipped, table_name
from audit.games.paigow.setting import Setting, settings_for
from audit.games.paigow.tiles import TILE_RANKS, Tile

# The clause that decides a deal, named for findings and docs (PA 621a.8(d)(1)-(4)).
CLAUSES: dict[str, str] = {
    "supreme-pair": "(1)",
    "pair-wong-gong": "(2)",
    "seven-eight-nine": "(3)",
    "no-combination": "(4)",
}


def _with_ties(settings: Sequence[Setting], ranking: HandRanking) -> frozenset[Setting]:
    """Add the reversed setting wherever both hands rank equal (either may be called high)."""
    result = set(settings)
    for s in settings:
        if ranking.key(*s.high) == ranking.key(*s.low):
            result.add(Setting.of_distinct(s.low, s.high))
    return frozenset(result)


def _is_pair(hand: tuple[int, int]) -> bool:
    return pair_rank(*hand) is not None


def rule_clause(tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING) -> str:
    """Return which paragraph of PA 621a.8(d) governs these four tiles (a key of ``CLAUSES``)."""
    return _clause(settings_for(tiles, ranking))


def _clause(settings: Sequence[Setting]) -> str:
    """Return the governing clause given the deal's three settings (:func:`rule_clause`)."""
    if any(pair_rank(*s.high) == 1 for s in settings):
        return "supreme-pair"
    if any(_is_pair(s.high) for s in settings):
        return "pair-wong-gong"
    if any(hand_value(*s.high) >= 7 for s in settings):
        return "seven-eight-nine"
    return "no-combination"


def permitted_settings(
    tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING
) -> frozenset[Setting]:
    """Return every setting of four tiles that PA 621a.8(d) / NJ 19:47-10.7(d) permits.

    Read from the ranking's table of kind patterns (:func:`permitted_codes`); what is not
    four distinct tiles goes to :func:`naive_permitted_settings`, which says what is wrong.
    """
    if not (len(tiles) == 4 and all(type(t) is int and 0 <= t < 32 for t in tiles)):
        return naive_permitted_settings(tiles, ranking)  # raises, as the rule's reading does
    if len(set(tiles)) != 4:
        return naive_permitted_settings(tiles, ranking)
    deal: Deal = tuple(sorted(tiles))  # type: ignore[assignment]
    codes = permitted_codes(ranking)[kind_pattern(deal)]
    return frozenset(setting_of_place_code(deal, c) for c in range(6) if codes >> c & 1)


def complies(setting: Setting, ranking: HandRanking = PA_RANKING) -> bool:
    """Return whether a dealer's setting is one the regulatory rule permits for its tiles.

    One lookup: the setting's place code in its kind pattern's permitted codes.
    """
    return bool(permitted_codes(ranking)[kind_pattern(setting.tiles)] >> place_code(setting) & 1)


class _PatternCodes(dict[tuple[int, ...], int]):
    """Each kind pattern's permitted place codes, as shipped (pattern_tables.py), or worked
    out on its first lookup where none are."""

    def __init__(self, ranking: HandRanking) -> None:
        super().__init__(shipped(table_name("dealer-rule", ranking.zero_hands_tie)) or {})
        self.ranking = ranking

    def __missing__(self, pattern: tuple[int, ...]) -> int:
        permitted = naive_permitted_settings(first_deal(pattern), self.ranking)
        codes = self[pattern] = sum(1 << place_code(s) for s in permitted)
        return codes


_CODES: dict[bool, _PatternCodes] = {}


def permitted_codes(ranking: HandRanking = PA_RANKING) -> dict[tuple[int, ...], int]:
    """Return each kind pattern's permitted settings, as bits (one table per ranking).

    Bit ``c`` of a pattern's entry is set where the setting of place code ``c`` (deals.py)
    is permitted. The rule reads only kinds and places, so every deal of a pattern is
    permitted alike: an entry is the rule applied to the pattern's first deal (8,130
    patterns, against 35,960 deals), shipped with the code (pattern_tables.py) rather than
    worked out in every process. Index it: were the shipped table missing, ``get`` and
    ``in`` would see only the patterns looked up so far.
    """
    table = _CODES.get(ranking.zero_hands_tie)
    if table is None:
        table = _CODES[ranking.zero_hands_tie] = _PatternCodes(ranking)
    return table


def naive_permitted_settings(
    tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING
) -> frozenset[Setting]:
    """Return the settings PA 621a.8(d) permits, worked out from its four paragraphs."""
    settings = settings_for(tiles, ranking)
    clause = _clause(settings)  # as rule_clause(tiles), without splitting the tiles again
    if clause == "supreme-pair":  # (d)(1): the Supreme Pair is played as the Supreme Pair.
        chosen = [s for s in settings if pair_rank(*s.high) == 1]
    elif clause == "pair-wong-gong":  # (d)(2): always play a pair, wong or gong if possible.
        chosen = [s for s in settings if _is_pair(s.high)]
    elif clause == "seven-eight-nine":  # (d)(3): any two tiles with a value of 9, 8 or 7.
        chosen = [s for s in settings if hand_value(*s.high) >= 7]
    else:  # (d)(4): the highest-ranking tile with the lowest-ranking tile (621a.3(h) ranks).
        ranks = [TILE_RANKS[t] for t in tiles]
        top = {t for t in tiles if TILE_RANKS[t] == min(ranks)}
        bottom = {t for t in tiles if TILE_RANKS[t] == max(ranks)}
        chosen = [
            s
            for s in settings
            if any({h[0], h[1]} & top and {h[0], h[1]} & bottom for h in (s.high, s.low))
        ]
    return _with_ties(chosen, ranking)
