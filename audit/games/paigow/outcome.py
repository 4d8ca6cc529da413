"""How a Pai Gow wager ends against the dealer or bank (PA 621a.8(g)-(i), NJ 19:47-10.7(h)-(j)).

>>> banker = Setting.from_notation("1-1 3-3 / 2-6 1-5")
>>> wager_outcome(Setting.from_notation("6-6 4-5 / 5-5 1-6"), banker)
<Outcome.WIN: 'win'>
>>> wager_outcome(Setting.from_notation("6-6 4-5 / 5-5 4-6"), banker)
<Outcome.PUSH: 'push'>
"""

from __future__ import annotations

from audit.games.errors import InvalidSettingError
from audit.games.paigow.hands import PA_RANKING, HandRanking
from audit.games.paigow.setting import Setting, check_ordered
from audit.games.wagering import Outcome

_ZERO_KEY_LIMIT = 32
"""Non-pair hands of value zero, and only they, have keys below this (see hands.py)."""


def outcome_from_keys(
    player_high: int, player_low: int, banker_high: int, banker_low: int
) -> Outcome:
    """Decide a wager from the four hands' rank keys (the hot path; no validation)."""
    high_wins = player_high > banker_high  # Copies go to the banker: PA 621a.3(d), (i).
    # PA 621a.8(h)(1) / NJ 10.7(i)1: a player's low hand "has a value of zero" never wins.
    low_wins = player_low > banker_low and player_low >= _ZERO_KEY_LIMIT
    if high_wins and low_wins:
        return Outcome.WIN  # PA 621a.8(i)
    if high_wins or low_wins:
        return Outcome.PUSH  # PA 621a.8(h)
    return Outcome.LOSE  # PA 621a.8(g)


class BankerSetting:
    """A banker's setting with its tiles and hand keys read once, to decide each wager against it.

    ``BankerSetting(banker, ranking).outcome(player)`` is ``wager_outcome(player, banker,
    ranking)``; a round decides every player's wager against the one banker.

    >>> banker = BankerSetting(Setting.from_notation("1-1 3-3 / 2-6 1-5"))
    >>> banker.outcome(Setting.from_notation("6-6 4-5 / 5-5 1-6"))
    <Outcome.WIN: 'win'>
    """

    __slots__ = ("_high", "_keys", "_low", "_tiles", "ranking", "setting")

    def __init__(self, setting: Setting, ranking: HandRanking = PA_RANKING) -> None:
        (e, f), (g, h) = setting.high, setting.low
        # A setting's hands each hold two different tiles, so the key table (as ranking.key
        # reads it) has every hand.
        keys = ranking.keys
        self.setting, self.ranking, self._keys = setting, ranking, keys
        self._tiles = frozenset((e, f, g, h))
        self._high, self._low = keys[e * 32 + f], keys[g * 32 + h]

    def outcome(self, player: Setting) -> Outcome:
        """Return the player's outcome; raise if a setting is out of order or the tiles clash."""
        (a, b), (c, d) = player.high, player.low
        if not self._tiles.isdisjoint((a, b, c, d)):
            raise InvalidSettingError(
                f"player and banker share tiles: {str(player)!r} / {str(self.setting)!r}"
            )
        keys = self._keys
        player_high, player_low = keys[a * 32 + b], keys[c * 32 + d]
        if player_high < player_low:  # check_ordered only to raise
            check_ordered(player, self.ranking)
        if self._high < self._low:
            check_ordered(self.setting, self.ranking)
        return outcome_from_keys(player_high, player_low, self._high, self._low)


def wager_outcome(player: Setting, banker: Setting, ranking: HandRanking = PA_RANKING) -> Outcome:
    """Return the player's outcome; raise if a setting is out of order or the tiles clash."""
    return BankerSetting(banker, ranking).outcome(player)
