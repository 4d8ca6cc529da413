"""Settings: four tiles arranged into a high hand and a low hand.

>>> s = Setting.from_notation("6-6 4-5 / 1-2 1-3")
>>> s
Setting.from_notation('6-6a 4-5 / 1-3a 1-2')
>>> is_ordered(s)
True
>>> [str(x) for x in settings_for(parse_tiles("6-6 6-6 1-2 1-3"))]
['6-6a 6-6b / 1-3a 1-2', '6-6a 1-2 / 6-6b 1-3a', '6-6b 1-2 / 6-6a 1-3a']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from audit.games.errors import InvalidSettingError, InvalidTileError
from audit.games.paigow.hands import PA_RANKING, Hand, HandRanking
from audit.games.paigow.tiles import Tile, check_distinct, parse_tiles, tile_name


@dataclass(frozen=True)
class Setting:
    """A high hand and a low hand, as the owner placed them.

    Which hand is high is never changed here; the order of the two tiles within a
    hand means nothing, so each hand is kept highest-ranking tile first, and two
    settings of the same hands are equal however their tiles were listed.
    """

    high: Hand
    low: Hand

    def __post_init__(self) -> None:
        if len(self.high) != 2 or len(self.low) != 2:
            raise InvalidSettingError(f"each hand needs two tiles: {self.high!r} / {self.low!r}")
        check_distinct((*self.high, *self.low), "a setting")
        object.__setattr__(self, "high", tuple(sorted(self.high)))
        object.__setattr__(self, "low", tuple(sorted(self.low)))

    @classmethod
    def of_distinct(cls, high: Hand, low: Hand) -> Setting:
        """Return the setting of two hands of two tiles each, four distinct real tiles, unchecked.

        For hot paths whose caller has just established that (a parse, a split, a table of
        deals): ``Setting(high, low)`` would check it again. The result is as ``Setting``'s.
        """
        setting = object.__new__(cls)
        (a, b), (c, d) = high, low
        object.__setattr__(setting, "high", (a, b) if a <= b else (b, a))
        object.__setattr__(setting, "low", (c, d) if c <= d else (d, c))
        return setting

    @classmethod
    def from_notation(cls, text: str) -> Setting:
        """Parse ``'HIGH HIGH / LOW LOW'``, e.g. ``'6-6 4-5 / 1-2 1-3'``."""
        if text.count("/") != 1:
            raise InvalidSettingError(f"a setting is 'high high / low low': {text!r}")
        try:
            tiles = parse_tiles(text.replace("/", " "))
        except InvalidTileError as error:
            raise InvalidTileError(f"{error} in setting {text!r}") from None
        if len(tiles) != 4 or len(text.split("/")[0].split()) != 2:
            raise InvalidSettingError(f"a setting is 'high high / low low': {text!r}")
        return cls((tiles[0], tiles[1]), (tiles[2], tiles[3]))

    @property
    def tiles(self) -> tuple[Tile, Tile, Tile, Tile]:
        """Return the four tiles, high hand first."""
        return (*self.high, *self.low)

    def __str__(self) -> str:
        return " ".join(tile_name(t) for t in self.high) + " / " + self.low_notation()

    def low_notation(self) -> str:
        """Return the low hand's notation."""
        return " ".join(tile_name(t) for t in self.low)

    def __repr__(self) -> str:
        return f"Setting.from_notation({str(self)!r})"


def splits(tiles: Sequence[Tile]) -> tuple[tuple[Hand, Hand], ...]:
    """Return the three ways to split four tiles into two hands (the first tile leads each)."""
    deal = check_distinct(tiles, "a deal of four tiles")
    if len(deal) != 4:
        names = [tile_name(t) for t in deal]
        raise InvalidSettingError(f"a deal is four tiles, not {len(deal)}: {names!r}")
    a, b, c, d = deal
    return (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))


def orient(first: Hand, second: Hand, ranking: HandRanking = PA_RANKING) -> Setting:
    """Return the setting with the higher-ranking hand high; equal hands keep their order."""
    if ranking.key(*first) >= ranking.key(*second):
        return Setting(first, second)
    return Setting(second, first)


def settings_for(tiles: Sequence[Tile], ranking: HandRanking = PA_RANKING) -> tuple[Setting, ...]:
    """Return the three correctly ordered settings of four tiles, one per split."""
    keys = ranking.keys  # splits() has checked the four tiles: index the key table directly
    found = []
    for x, y in splits(tiles):
        if keys[x[0] * 32 + x[1]] >= keys[y[0] * 32 + y[1]]:  # as orient(), unchecked
            found.append(Setting.of_distinct(x, y))
        else:
            found.append(Setting.of_distinct(y, x))
    return tuple(found)


def is_ordered(setting: Setting, ranking: HandRanking = PA_RANKING) -> bool:
    """Return whether the high hand ranks at least as high as the low hand (PA 621a.1)."""
    return ranking.key(*setting.high) >= ranking.key(*setting.low)


def check_ordered(setting: Setting, ranking: HandRanking = PA_RANKING) -> Setting:
    """Return the setting, or raise if its "high" hand ranks below its low hand."""
    if not is_ordered(setting, ranking):
        raise InvalidSettingError(f"high hand ranks below the low hand: {str(setting)!r}")
    return setting
