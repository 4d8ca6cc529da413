"""Careless-dealer irregularities of setting hands: off the house way, misordered, set again,
surrendered late (PA 621a.8(a)-(e), 621a.10(f)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from audit.events.envelope import Event
from audit.events.paigow.play import HandSet
from audit.games.paigow.dealer_rule import permitted_settings
from audit.games.paigow.layout import Position
from audit.games.paigow.setting import Setting, settings_for
from audit.games.paigow.settlement import BankingMode
from audit.games.wagering import Outcome
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    insert_events,
    new_event_id,
    round_events,
    substitute,
)
from audit.simulation.paigow.dealing import take_surrenders
from audit.simulation.paigow.state import RoundState, Step


def _same_setting(recorded: Setting, expected: Setting, round_: RoundState) -> bool:
    """As the house-way check compares: equal, or two equal hands called high either way."""
    ranking = round_.rule_set.ranking
    if recorded == expected:
        return True
    tied = ranking.key(*recorded.high) == ranking.key(*recorded.low)
    return tied and Setting(recorded.low, recorded.high) == expected


def _house_target(round_: RoundState) -> Position | None:
    """The hand the house sets: the dealer's, or a co-bank's (PA 621a.8(c), (d), 9(e))."""
    if round_.mode is BankingMode.CO_BANK:
        return round_.bank_seat
    if round_.mode in (BankingMode.DEALER, BankingMode.PLAYER_BANK) and round_.dealer_plays:
        return round_.layout.dealer
    return None


def _off_house_way(round_: RoundState, position: Position) -> list[Setting]:
    """The settings of a hand the house-way check would not take for the house way."""
    way, ranking = round_.rule_set.house_way, round_.rule_set.ranking
    return [
        s
        for s in settings_for(round_.hands[position], ranking)
        if not _same_setting(s, way.setting(s.tiles, ranking), round_)
    ]


class DealerOffHouseWay(Plan):
    """The dealer sets the dealer's (or a co-bank's) hand other than the house way
    (PA 621a.8(c), (d), 621a.10(f))."""

    name = "dealer_off_house_way"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        target = _house_target(round_)
        if target is None or not cites(round_, "dealer-reset"):
            return False
        return bool(_off_house_way(round_, target))

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        target = _house_target(round_)
        assert target is not None
        self.target: Position = target
        options = _off_house_way(round_, target)
        self.setting: Setting = options[rng.randrange(len(options))]

    def banker_setting(self, position: Position, house_way: Setting) -> Setting:
        return self.setting if position == self.target else house_way

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        found = [Expect("PG-SET-HOUSE-WAY", self.target)]
        rule_set = round_.rule_set
        dealer = round_.layout.dealer
        own_hand = self.target == dealer and rule_set.regulatory_dealer_rule
        if own_hand and self.setting not in permitted_settings(
            self.setting.tiles, rule_set.ranking
        ):
            found.append(Expect("PG-SET-DEALER-RULE", dealer))
        return found


def _ordered_strictly(round_: RoundState, position: Position) -> bool:
    setting = round_.settings[position]
    ranking = round_.rule_set.ranking
    return ranking.key(*setting.high) > ranking.key(*setting.low)


class HandMisordered(Plan):
    """A player's hand is set high below low and settled as if set right (PA 621a.8(a))."""

    name = "hand_misordered"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(cls.options(preview.round)) and cites(preview.round, "player-setting")

    @staticmethod
    def options(round_: RoundState) -> list[Position]:
        return [p for p in round_.wagers if _ordered_strictly(round_, p)]

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.options(preview.round))

    def shown_setting(self, position: Position, setting: Setting) -> Setting:
        """Record the hand high below low; the round keeps it as set, and settles it so."""
        return Setting(setting.low, setting.high) if position == self.position else setting

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-SET-MISORDERED", self.position)]


class HandSetAgain(Plan):
    """A hand is set, then set again: a player touching the tiles once placed face down,
    or the dealer setting a player's hand again (PA 621a.8(b)); or the dealer resetting
    its own hand (621a.10(f)). The first setting is inserted before the one played, so
    the round plays and settles as it would have."""

    name = "hand_set_again"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(cls.options(preview))

    @staticmethod
    def options(preview: Preview) -> list[Position]:
        round_ = preview.round
        dealer = round_.layout.dealer
        california = round_.mode is BankingMode.CALIFORNIA
        found = []
        for hand in preview.of("hand_set"):
            position = hand.position  # type: ignore[attr-defined]
            if position == dealer and not california:
                rule = "dealer-reset"
            elif position in round_.wagers and position not in (dealer, round_.bank_seat):
                rule = "player-touch"
            else:
                continue
            if cites(round_, rule):
                found.append(position)
        return found

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.options(preview))

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        mine = round_events(round_, events)
        played = next(e for e in mine if isinstance(e, HandSet) and e.position == self.position)
        (a, b), (c, d) = played.high, played.low
        first = replace(played, event_id=new_event_id(self.rng), high=[a, c], low=[b, d])
        return insert_events(round_, events, events.index(played), [first])

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        if self.position == round_.layout.dealer:
            return [Expect("PG-SET-DEALER-RESET", self.position)]
        hands = [e for e in round_events(round_, events) if isinstance(e, HandSet)]
        played = [h for h in hands if h.position == self.position][-1]
        code = "PG-SET-RESET" if played.set_by == "player" else "PG-SET-CORRECTED"
        return [Expect(code, self.position)]


class LateSurrender(Plan):
    """A player surrenders after the hands are revealed, and the dealer takes it
    (PA 621a.8(e))."""

    name = "late_surrender"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(cls.options(preview.round)) and cites(preview.round, "surrender")

    @staticmethod
    def options(round_: RoundState) -> list[Position]:
        standing = [p for p in round_.order() if p not in round_.surrendered]
        losing = [p for p in standing if round_.outcome(p) is Outcome.LOSE]
        return losing or standing

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, self.options(preview.round))

    def steps(self) -> tuple[Step, ...]:
        def surrenders(round_: RoundState) -> None:
            take_surrenders(round_)
            round_.surrendered.append(self.position)

        return substitute({take_surrenders: surrenders})

    def surrenders_late(self, position: Position) -> bool:
        return position == self.position

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-SET-SURRENDER-LATE", self.position)]
