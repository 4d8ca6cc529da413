"""Careless-dealer irregularities of play: the call, the dice, the deal, wagers, tiles, setting,
the banking rotation, equipment and the record itself.

Each plan names the findings it must yield as the checks of
:mod:`audit.verification.paigow` make them, and keeps the rest of the round
consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from audit.events.envelope import Event
from audit.events.paigow.equipment import TileSetInspected, TileSetReceived, TileSetReplaced
from audit.events.paigow.play import (
    BankAccepted,
    BankDeclined,
    BankOffered,
    DeliveryStyleChosen,
    HandSet,
    StackDelivered,
    TilesMixed,
)
from audit.events.paigow.wagers import DealerWagerAgainstBank, WagerKind, WagerPlaced
from audit.events.rounds import RoundStarted
from audit.games.money import to_cents, to_dollars
from audit.games.paigow.banking import dealer_wager_limit
from audit.games.paigow.dealer_rule import permitted_settings
from audit.games.paigow.delivery import DeliveryStyle, Stacks
from audit.games.paigow.layout import Position, TableLayout
from audit.games.paigow.outcome import Outcome
from audit.games.paigow.setting import Setting, settings_for
from audit.games.paigow.settlement import BankingMode
from audit.games.paigow.tiles import TILE_NAMES, Tile
from audit.simulation.paigow.bank_rotation import next_first_offer
from audit.simulation.paigow.betting import (
    call_no_more_bets,
    place_dealer_wager,
    place_wagers,
    select_bank,
)
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    insert_events,
    money_moved,
    new_event_id,
    round_events,
    substitute,
    unwagered,
)
from audit.simulation.paigow.dealer import Delivered, NoRoll
from audit.simulation.paigow.dealing import (
    count_positions,
    dealer_names_style,
    take_surrenders,
)
from audit.simulation.paigow.players import DOLLAR, Player
from audit.simulation.paigow.round import ROUND_STEPS
from audit.simulation.paigow.settlement import close_books, complete_round
from audit.simulation.paigow.state import BANKED_MODES, RoundState, Step
from audit.simulation.paigow.table import SimTable
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS


def _dice(preview: Preview) -> bool:
    return preview.round.source == "dice"


def _bank_rule(round_: RoundState, key: str) -> str | None:
    return key if round_.mode in BANKED_MODES else None


# --- The dice and the count --------------------------------------------------------------------


class FewShakes(Plan):
    """The dice are read after one or two shakes (PA 621a.6(a)(2), 621a.9(i))."""

    name = "few_shakes"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return _dice(preview) and cites(preview.round, "shake")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.times: int = rng.choice((1, 2))

    def shakes(self, drawn: int) -> int:
        return self.times

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-SHAKES", rule_key="shake")]


class DiceTotalMiscalled(Plan):
    """The dice total is announced one off, though the deal follows the dice (PA 621a.6(b))."""

    name = "dice_total_miscalled"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return _dice(preview) and cites(preview.round, "starting-position")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.miscall: int = rng.choice((-1, 1))

    def announced(self, total: int) -> int:
        """Return the total one off (the other way at the ends of 3-18)."""
        wrong = total + self.miscall
        return wrong if 3 <= wrong <= 18 else total - self.miscall

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-DICE-TOTAL")]


def _first_delivery(round_: RoundState, events: Sequence[Event]) -> Position:
    return next(
        e.position
        for e in round_events(round_, events)
        if isinstance(e, StackDelivered) and e.order == 0
    )


def _wrong_deal(round_: RoundState, events: Sequence[Event]) -> list[Expect]:
    """A first stack to the wrong position, and the wagers settled anyway (PA 621a.10(c))."""
    key = _bank_rule(round_, "bank-starting-position")
    found = [Expect("PG-DEAL-START", _first_delivery(round_, events), key)]
    if money_moved(round_events(round_, events)):
        found.append(Expect("PG-DEAL-SETTLED-AFTER-WRONG-DEAL"))
    return found


class CountedFromMiscall(DiceTotalMiscalled):
    """The dice total is announced one off and the dealer counts from it: the first stack goes
    to the wrong position and the round is settled, not voided (PA 621a.6(b), (c), 621a.10(c))."""

    name = "counted_from_miscall"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        # A California count also moves the action button, and with it the settlement order.
        layout_has_button = preview.round.layout.button_on_dealer is not None
        return _dice(preview) and not layout_has_button and cites(preview.round, "wrong-deal")

    def counts_from(self, total: int, announced: int) -> int:
        return announced

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-DICE-TOTAL"), *_wrong_deal(round_, events)]


class NoRollNotCalled(Plan):
    """A die lands tilted or out of the shaker and the throw is read anyway (PA 621a.10(a), (b))."""

    name = "no_roll_not_called"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return _dice(preview) and cites(preview.round, "no-roll")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.fault: NoRoll = rng.choice(("not_flat", "fell_out"))

    def misread(self) -> NoRoll | None:
        return self.fault

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-NO-ROLL")]


class NoMoreBetsLate(Plan):
    """ "No more bets" is called only after the count (PA 621a.5(c), 621a.6(a))."""

    name = "no_more_bets_late"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "wager-timing")

    def steps(self) -> tuple[Step, ...]:
        def count_then_call(round_: RoundState) -> None:
            count_positions(round_)
            call_no_more_bets(round_)

        return substitute({call_no_more_bets: _nothing, count_positions: count_then_call})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-BEFORE-NO-MORE-BETS")]


def _nothing(round_: RoundState) -> None:
    """A step the careless dealer skips."""


# --- The deal ----------------------------------------------------------------------------------


class WrongStart(Plan):
    """The first stack goes to the wrong position and the round is played and settled
    instead of voided (PA 621a.6(c), 621a.9(j), 621a.10(c))."""

    name = "wrong_start"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "starting-position")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.to: Position = chosen(rng, (p for p in round_.layout.ring if p != round_.start))

    def first_stack(self, start: Position) -> Position:
        return self.to

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return _wrong_deal(round_, events)


class MisdeliveredStacks(Plan):
    """Two stacks go to each other's positions (PA 621a.6(d), 621a.7)."""

    name = "misdelivered_stacks"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "delivery")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        one, two = sorted(rng.sample(range(8), 2))
        self.swap = (one, two)

    def delivered(self, dealt: Delivered) -> Delivered:
        (one, two), swapped = self.swap, list(dealt)
        (p1, t1), (p2, t2) = dealt[one], dealt[two]
        swapped[one], swapped[two] = (p1, t2), (p2, t1)
        return swapped

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        rule_set = round_.rule_set
        alternative = round_.style is not rule_set.default_delivery_style
        key = (
            "alternative-delivery"
            if alternative and cites(round_, "alternative-delivery")
            else None
        )
        return [Expect("PG-DEAL-STACK-ORDER", None, key)]  # one finding for the two stacks


class StyleNotAllowed(Plan):
    """The dealer delivers in a style the dealer may not use (NJ 19:47-10.6(d)) or the table
    does not offer (the California text: house way from the right)."""

    name = "style_not_allowed"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        named_by_dealer = round_.mode not in BANKED_MODES
        return named_by_dealer and bool(_disallowed(round_)) and cites(round_, "delivery")

    def steps(self) -> tuple[Step, ...]:
        style = self.rng.choice(_disallowed(self.preview.round))

        def name_style(round_: RoundState) -> None:
            round_.style, round_.style_named = style, True
            round_.emit(DeliveryStyleChosen, (1, 3), style=style, chosen_by="dealer")

        return substitute({dealer_names_style: name_style})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-STYLE", rule_key="delivery")]


def _disallowed(round_: RoundState) -> list[DeliveryStyle]:
    allowed = round_.rule_set.styles_when_dealer_banks & round_.rule_set.delivery_styles
    return sorted((s for s in DeliveryStyle if s not in allowed), key=lambda s: s.value)


class UnwageredNotCollected(Plan):
    """A position without a wager keeps its stack (PA 621a.6(e), 621a.9(l))."""

    name = "unwagered_not_collected"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(unwagered(preview.round)) and cites(preview.round, "unwagered-stacks")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.left: Position = chosen(rng, unwagered(preview.round))

    def collected(self, positions: Sequence[Position]) -> Sequence[Position]:
        return [p for p in positions if p != self.left]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-UNWAGERED", self.left)]


class ExposedNotVoided(Plan):
    """A tile of the banker's stack is turned over in the deal and play goes on (PA 621a.10(e))."""

    name = "exposed_not_voided"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "exposed-dealer-tile")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.at = round_.bank_seat if round_.mode in BANKED_MODES else round_.layout.dealer

    def exposes(self, position: Position) -> bool:
        return position == self.at

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-EXPOSED-NOT-VOIDED", self.at)]


# --- Wagers ------------------------------------------------------------------------------------


class PastPosting(Plan):
    """A player raises a Pai Gow wager after "no more bets" (PA 621a.5(c)).

    The dealer settles only the amount legally in action and hands the raise back
    apart, so the player's past-post is the one finding. Only where the dealer or
    California's player-dealer banks: a PA/NJ player bank would have to cover the
    raise with the chips it showed when it took the bank.
    """

    name = "past_posting"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        house_or_california = round_.mode in (BankingMode.DEALER, BankingMode.CALIFORNIA)
        return house_or_california and bool(round_.wagers) and cites(round_, "wager-timing")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.position: Position = chosen(rng, preview.round.wagers)

    def steps(self) -> tuple[Step, ...]:
        def call_then_raise(round_: RoundState) -> None:
            call_no_more_bets(round_)
            raise_by = round_.table.limits.minimum  # never in action: not added to the wager
            round_.emit(
                WagerPlaced,
                (0.5, 2),
                position=self.position,
                amount=to_dollars(raise_by),
                kind=WagerKind.PAI_GOW,
                player_id=round_.player(self.position).player_id,
            )

        return substitute({call_no_more_bets: call_then_raise})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-WAGER-PAST-POST", self.position)]


def _areas_line(layout: TableLayout) -> tuple[Position, ...]:
    """The betting areas side by side from the dealer's one side round to the other."""
    start = layout.ring.index(layout.dealer)
    walked = layout.ring[start:] + layout.ring[:start]
    return tuple(p for p in walked if p in layout.betting)


def _free(round_: RoundState) -> list[Position]:
    return round_.table.seating.free(round_.layout.betting)


def _seated(round_: RoundState, player_id: str) -> Player:
    return next(p for p in round_.table.seating.players if p.player_id == player_id)


class _ExtraSpot(Plan):
    """A player wagers on one more area, for this round only; the spots are restored after."""

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.player_id, self.spot = chosen(rng, self.options(preview.round))
        self.spots: tuple[Position, ...] = ()

    @staticmethod
    @abstractmethod
    def options(round_: RoundState) -> list[tuple[str, Position]]:
        """Return the (player, spot) pairs the irregularity could use."""

    def steps(self) -> tuple[Step, ...]:
        def place_and_add(round_: RoundState) -> None:
            place_wagers(round_)
            player = _seated(round_, self.player_id)
            self.spots = player.spots
            player.spots = (*player.spots, self.spot)
            amount = round_.table.limits.minimum
            round_.planned[self.spot] = round_.wagers[self.spot] = amount
            round_.emit(
                WagerPlaced,
                (0.5, 2.5),
                position=self.spot,
                amount=to_dollars(amount),
                kind=WagerKind.PAI_GOW,
                player_id=self.player_id,
            )

        return substitute({place_wagers: place_and_add})

    def finish(self, round_: RoundState) -> None:
        _seated(round_, self.player_id).spots = self.spots


class SpotNotAdjacent(_ExtraSpot):
    """A player wagers on a second area not next to the first (PA 621a.5(d))."""

    name = "spot_not_adjacent"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        dealer_banks = round_.mode is BankingMode.DEALER
        return dealer_banks and cites(round_, "adjacent-spots") and bool(cls.options(round_))

    @staticmethod
    def options(round_: RoundState) -> list[tuple[str, Position]]:
        line = _areas_line(round_.layout)
        return [
            (player.player_id, spot)
            for player in round_.table.seating.players
            if len(player.spots) == 1 and player.spots[0] in round_.wagers
            for spot in _free(round_)
            if abs(line.index(spot) - line.index(player.spots[0])) > 1
        ]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-WAGER-SPOTS", self.spot)]


class BankSecondSpot(_ExtraSpot):
    """A player bank also wagers on another area (PA 621a.9(f)); its chips cover the table."""

    name = "bank_second_spot"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        if round_.mode not in BANKED_MODES or not cites(round_, "bank-one-spot"):
            return False
        accepted = preview.of("bank_accepted")
        chips = accepted[0].chips_on_table if accepted else None  # type: ignore[attr-defined]
        action = sum(round_.wagers.values()) + round_.table.limits.minimum
        return chips is not None and to_cents(chips) >= action and bool(cls.options(round_))

    @staticmethod
    def options(round_: RoundState) -> list[tuple[str, Position]]:
        if round_.bank is None:
            return []
        return [(round_.bank.player_id, spot) for spot in _free(round_)]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-WAGER-BANK-SPOTS", self.spot)]


# --- Tiles -------------------------------------------------------------------------------------


def _never_set(round_: RoundState) -> list[Position]:
    """Positions dealt a stack no one sets: the Dead Hand and the unwagered."""
    return sorted(p for p in round_.hands if p not in round_.settings)


def _switch(tiles: Sequence[Tile], out: Tile, into: Tile) -> tuple[Tile, ...]:
    return tuple(into if tile == out else tile for tile in tiles)


class TileSwitched(Plan):
    """A player's hand is set with a tile from a stack no one plays, in place of one of its own
    (PA 621a.8(a))."""

    name = "tile_switched"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return bool(round_.wagers and _never_set(round_)) and cites(round_, "player-setting")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position: Position = chosen(rng, round_.wagers)
        into = chosen(rng, round_.hands[chosen(rng, _never_set(round_))])
        hand = round_.hands[self.position]
        self.tiles = _switch(hand, chosen(rng, hand), into)

    def tiles_for(self, position: Position, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        return self.tiles if position == self.position else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-TILE-HAND-MISMATCH", self.position)]


class TileDuplicated(Plan):
    """A player's hand is set with a copy of a tile another player holds (PA 621a.3(a), 8(a))."""

    name = "tile_duplicated"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return len(round_.wagers) >= 2 and cites(round_, "player-setting")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.position, holder = rng.sample(sorted(round_.wagers), 2)
        hand = round_.hands[self.position]
        self.tiles = _switch(hand, chosen(rng, hand), chosen(rng, round_.hands[holder]))
        self.holder: Position = holder

    def tiles_for(self, position: Position, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        return self.tiles if position == self.position else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        # The duplicate is reported at whichever of the two hands was set later.
        hands = [
            e
            for e in round_events(round_, events)
            if isinstance(e, HandSet) and e.position in (self.position, self.holder)
        ]
        later = max(hands, key=lambda e: e.seq).position
        return [
            Expect("PG-TILE-DUPLICATE", later),
            Expect("PG-TILE-HAND-MISMATCH", self.position),
        ]


class TileSetTampered(Plan):
    """A copy of one tile replaces another in the set: the stacks hold one tile twice and miss
    one (PA 621a.3(a)); the copy lands in a stack no one plays."""

    name = "tile_set_tampered"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        return bool(_never_set(round_) and round_.settings) and cites(round_, "tile-set")

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        round_ = preview.round
        self.at: Position = chosen(rng, _never_set(round_))
        self.missing: Tile = chosen(rng, round_.hands[self.at])
        self.copy: Tile = chosen(rng, round_.hands[chosen(rng, round_.settings)])

    def shown_stacks(self, stacks: Stacks) -> Stacks:
        return tuple(_switch(stack, self.missing, self.copy) for stack in stacks)

    def shown_stack(self, position: Position, tiles: Sequence[Tile]) -> Sequence[Tile]:
        return _switch(tiles, self.missing, self.copy) if position == self.at else tiles

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-TILE-DUPLICATE", self._later(round_, events)), Expect("PG-TILE-MISSING")]

    def _later(self, round_: RoundState, events: Sequence[Event]) -> Position:
        name = TILE_NAMES[self.copy]
        holders = [
            e.position
            for e in round_events(round_, events)
            if isinstance(e, StackDelivered) and name in e.tiles
        ]
        return holders[-1]


# --- Setting -----------------------------------------------------------------------------------


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


# --- The bank ----------------------------------------------------------------------------------


class DealerWagerOverLimit(Plan):
    """The dealer wagers more against a player bank than the bank's last wager (PA 621a.9(h))."""

    name = "dealer_wager_over_limit"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        player_bank = round_.mode is BankingMode.PLAYER_BANK and round_.bank_seat is not None
        known = player_bank and round_.bank_seat in preview.notes.last_dealer_wagers
        return known and cites(round_, "dealer-wager-vs-bank")

    def steps(self) -> tuple[Step, ...]:
        over = self.rng.choice((1, 5, 25)) * DOLLAR
        recorded = self.preview.notes.last_dealer_wagers

        def place(round_: RoundState) -> None:
            bank, seat = round_.bank, round_.bank_seat
            if bank is None or seat is None:
                raise ValueError(f"round {round_.round_id!r} has no player bank")
            last = round_.table.rotation.last_dealer_round[bank.player_id]
            limit = max(dealer_wager_limit(last), recorded[seat])
            round_.dealer_wager = limit + over
            round_.emit(DealerWagerAgainstBank, (2, 4), amount=to_dollars(round_.dealer_wager))

        return substitute({place_dealer_wager: place})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-BANK-DEALER-WAGER-LIMIT", round_.bank_seat)]


class BankWithoutCover(Plan):
    """The bank is taken by a player whose chips on the table do not cover the other players'
    wagers (PA 621a.9(d)(2))."""

    name = "bank_without_cover"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        round_ = preview.round
        action = sum(round_.wagers.values())
        return (
            bool(preview.of("bank_accepted"))
            and action >= 2 * DOLLAR
            and cites(round_, "bank-eligibility")
        )

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        accepted = next(e for e in round_events(round_, events) if isinstance(e, BankAccepted))
        action = sum(
            to_cents(e.amount)
            for e in round_events(round_, events)
            if isinstance(e, WagerPlaced)
            and e.kind is WagerKind.PAI_GOW
            and e.position != accepted.position
        )
        shown = to_dollars(action // 2 - action // 2 % DOLLAR)
        edited = replace(accepted, **{"chips_on_table": shown})
        return [edited if e is accepted else e for e in events]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-ROT-INSUFFICIENT-CHIPS", round_.bank_seat)]


class BankOfferedOutOfTurn(Plan):
    """The first player offered the bank is offered it again out of turn (PA 621a.9(c))."""

    name = "bank_offered_out_of_turn"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("bank_offered")) and cites(preview.round, "bank-rotation")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        offers = [i for i, e in enumerate(events) if isinstance(e, BankOffered)]
        first = events[offers[0]]
        assert isinstance(first, BankOffered)
        self.position: Position = first.position
        at = offers[-1]
        envelope = {
            "table_id": first.table_id,
            "round_id": first.round_id,
            "occurred_at": events[at].occurred_at,
            "recorded_by": events[at].recorded_by,
            "position": self.position,
        }
        seq = events[at].seq
        inserted = [
            BankOffered(event_id=new_event_id(self.rng), seq=seq, **envelope),
            BankDeclined(event_id=new_event_id(self.rng), seq=seq + 1, **envelope),
        ]
        return insert_events(round_, events, at, inserted)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-ROT-OUT-OF-ORDER", self.position)]


class _ForcedBank(Plan):
    """The dealer lets a player bank whom the rules do not let bank: one offer, accepted.

    Everything else about the bank is in order (one spot, chips covering the table,
    the dealer's wager within the bank's last wager), so the one rule it breaks
    is the plan's ``code``.
    """

    code: ClassVar[str] = ""
    dealer_wagers: ClassVar[bool] = True
    """Whether the dealer wagers against the bank as the bank allows (PA 621a.9(h))."""

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        table, round_ = preview.table, preview.round
        if not round_.rule_set.player_banking or table.has_player_dealer:
            return False
        cited = cites(round_, FINDING_KINDS[cls.code].rule_key)
        return cited and len(table.seating.players) >= 2 and bool(cls.candidates(preview))

    @classmethod
    @abstractmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        """Return the seats and players the dealer might let bank."""

    @staticmethod
    def banks_in_order(preview: Preview, seat: Position, player: Player) -> bool:
        """Return whether the player has one spot and chips to cover the table and the dealer's
        wager, and verification reads the same last wager against the dealer as the table."""
        planned = preview.round.planned
        cover = sum(planned.values()) - planned.get(seat, 0)
        last = preview.table.rotation.last_dealer_round.get(player.player_id)
        recorded = preview.notes.last_dealer_wagers.get(seat)
        if last is None or recorded is None or dealer_wager_limit(last) > recorded:
            return False
        return player.spots == (seat,) and player.chips >= cover + last

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.seat, self.player_id = chosen(rng, self.candidates(preview))

    def steps(self) -> tuple[Step, ...]:
        def force(round_: RoundState) -> None:
            player = _seated(round_, self.player_id)
            round_.emit(BankOffered, (1, 3), position=self.seat)
            round_.emit(
                BankAccepted,
                (1, 3),
                position=self.seat,
                player_id=player.player_id,
                chips_on_table=to_dollars(player.chips),
            )
            round_.bank, round_.bank_seat = player, self.seat
            round_.mode = BankingMode.PLAYER_BANK
            round_.table.rotation.first_offer = next_first_offer(round_.layout, self.seat)

        replacements: dict[Step, Step] = {select_bank: force}
        if not self.dealer_wagers:
            replacements[place_dealer_wager] = _nothing
        return substitute(replacements)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect(self.code, self.seat)]


def _streak_seat(table: SimTable) -> Position | None:
    """The seat of the player who banked the last round, if one did."""
    return table.rotation.bank_seat if table.rotation.last_bank is not None else None


class BankAtStartOfGame(_ForcedBank):
    """A new tile set goes in (inspected: a new game) and a player banks its first round
    (PA 621a.9(b))."""

    name = "bank_at_start_of_game"
    code = "PG-ROT-START-OF-GAME"

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table = preview.table
        rotation, most = table.rotation, preview.round.rule_set.max_consecutive_banks
        found = []
        for player in table.seating.players:
            seat = player.spots[0]
            if not cls.banks_in_order(preview, seat, player):
                continue
            if rotation.banked_in_a_row(player) < most and _streak_seat(table) != seat:
                found.append((seat, player.player_id))
        return found

    def steps(self) -> tuple[Step, ...]:
        return (self._new_tile_set, *super().steps())

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        """Record the new set's arrival, inspection and replacement before the round starts."""
        table = round_.table
        at = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
        started = events[at]
        envelope = {"table_id": table.table_id, "occurred_at": started.occurred_at}
        by = {"recorded_by": table.floorperson}
        new, old = table.tile_set_id, self.old_set
        ids = [new_event_id(self.rng) for _ in range(3)]
        seq = started.seq
        inserted: list[Event] = [
            TileSetReceived(event_id=ids[0], seq=seq, tile_set_id=new, **envelope, **by),
            TileSetInspected(
                event_id=ids[1],
                seq=seq + 1,
                tile_set_id=new,
                inspected_by=table.dealer_id,
                verified_by=table.floorperson,
                suitable=True,
                **envelope,
                **by,
            ),
            TileSetReplaced(
                event_id=ids[2],
                seq=seq + 2,
                old_tile_set_id=old,
                new_tile_set_id=new,
                reason="scheduled_change",
                **envelope,
                **by,
            ),
        ]
        return insert_events(round_, events, at, inserted)

    def _new_tile_set(self, round_: RoundState) -> None:
        """Put a new set in play (recorded by :meth:`edit`); a new game begins (PA 621a.9(b))."""
        table = round_.table
        self.old_set = table.tile_set_id
        table.tile_sets += 1
        table.tile_set_id = f"TS-{table.number:02d}-{table.tile_sets:02d}"
        table.tile_set_since = table.recorder.now
        table.rotation.start_game()


class BankTwiceRunning(_ForcedBank):
    """The last round's bank banks again (PA 621a.9(c))."""

    name = "bank_twice_running"
    code = "PG-ROT-CONSECUTIVE"

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table = preview.table
        rotation, most = table.rotation, preview.round.rule_set.max_consecutive_banks
        if rotation.rounds_in_game == 0:
            return []
        return [
            (player.spots[0], player.player_id)
            for player in table.seating.players
            if player.player_id == rotation.last_bank
            and rotation.banked_in_a_row(player) >= most
            and player.spots[0] == rotation.bank_seat
            and cls.banks_in_order(preview, player.spots[0], player)
        ]


class BankWithoutPriorWager(_ForcedBank):
    """A player banks who had no wager in the last round the dealer banked (PA 621a.9(d)(1));
    the bank directs no dealer wager, having no last wager to match."""

    name = "bank_without_prior_wager"
    code = "PG-ROT-NO-PRIOR-WAGER"
    dealer_wagers = False

    @classmethod
    def candidates(cls, preview: Preview) -> list[tuple[Position, str]]:
        table, notes = preview.table, preview.notes
        if table.rotation.rounds_in_game == 0 or not notes.last_dealer_wagers:
            return []
        planned = preview.round.planned
        return [
            (player.spots[0], player.player_id)
            for player in table.seating.players
            if len(player.spots) == 1
            and player.spots[0] not in notes.last_dealer_wagers
            and player.spots[0] != _streak_seat(table)
            and player.chips >= sum(planned.values()) - planned.get(player.spots[0], 0)
        ]


# --- Equipment and the record ------------------------------------------------------------------


def _replace_set_uninspected(round_: RoundState) -> None:
    """Put a new tile set in play with no inspection (PA 621a.4(a)); a new game begins (9(b))."""
    table = round_.table
    old = table.tile_set_id
    table.tile_sets += 1
    table.tile_set_id = f"TS-{table.number:02d}-{table.tile_sets:02d}"
    table.emit(TileSetReceived, (20, 60), table.floorperson, tile_set_id=table.tile_set_id)
    table.tile_set_since = table.recorder.now
    table.emit(
        TileSetReplaced,
        (5, 15),
        table.floorperson,
        old_tile_set_id=old,
        new_tile_set_id=table.tile_set_id,
        reason="scheduled_change",
    )
    table.rotation.start_game()


class OptionMisspelt(Plan):
    """The table opens with an option misspelt, so the rule set's own value stands (the
    verification reports it, PG-TABLE-OPTION). The table's irregularity: its label has no
    round."""

    name = "option_misspelt"
    at_opening = True
    MISSPELT: ClassVar[dict[str, str]] = {
        "vig_roundng": "quarter", "house_wey": "dealer-rule-max-low", "co_baking": "false",
    }  # fmt: skip

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return False  # never a round's

    @classmethod
    def open_table(cls, table: SimTable, rng: random.Random) -> tuple[str, ...]:
        key = rng.choice(sorted(cls.MISSPELT))
        table.options = {**table.options, key: cls.MISSPELT[key]}
        return ("PG-TABLE-OPTION",)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return []


class TilesNotInspected(Plan):
    """A new tile set goes into play without being inspected (PA 621a.4(a))."""

    name = "tiles_not_inspected"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "tile-inspection")

    def steps(self) -> tuple[Step, ...]:
        return (_replace_set_uninspected, *ROUND_STEPS)

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-EQ-NOT-INSPECTED")]


class RoundNotCompleted(Plan):
    """The round is played and settled but never completed, whoever banked it: the
    verifier judges a round left open against the table as it stood when the round began."""

    name = "round_not_completed"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return cites(preview.round, "records")

    def steps(self) -> tuple[Step, ...]:
        return tuple(s for s in ROUND_STEPS if s not in (complete_round, close_books))

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-ROUND-INCOMPLETE")]


class SequenceGap(Plan):
    """An event of the round never reaches the record (the mixing): a gap in ``seq``."""

    name = "sequence_gap"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("tiles_mixed")) and cites(preview.round, "records")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        mixed = next(e for e in round_events(round_, events) if isinstance(e, TilesMixed))
        return [e for e in events if e is not mixed]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-SEQ-GAP")]


class EventIdReused(Plan):
    """The device records the mixing under the round start's event id."""

    name = "event_id_reused"

    @classmethod
    def applies(cls, preview: Preview) -> bool:
        return bool(preview.of("tiles_mixed")) and cites(preview.round, "records")

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        mine = round_events(round_, events)
        started = next(e for e in mine if isinstance(e, RoundStarted))
        mixed = next(e for e in mine if isinstance(e, TilesMixed))
        reused = replace(mixed, **{"event_id": started.event_id})
        return [reused if e is mixed else e for e in events]

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("DATA-ID-REUSED")]


PLAY_KINDS: tuple[type[Plan], ...] = (
    FewShakes,
    DiceTotalMiscalled,
    CountedFromMiscall,
    NoRollNotCalled,
    NoMoreBetsLate,
    WrongStart,
    MisdeliveredStacks,
    StyleNotAllowed,
    UnwageredNotCollected,
    ExposedNotVoided,
    PastPosting,
    SpotNotAdjacent,
    BankSecondSpot,
    TileSwitched,
    TileDuplicated,
    TileSetTampered,
    DealerOffHouseWay,
    HandMisordered,
    HandSetAgain,
    LateSurrender,
    DealerWagerOverLimit,
    BankWithoutCover,
    BankOfferedOutOfTurn,
    BankAtStartOfGame,
    BankTwiceRunning,
    BankWithoutPriorWager,
    TilesNotInspected,
    OptionMisspelt,
    RoundNotCompleted,
    SequenceGap,
    EventIdReused,
)
"""The irregularities of play, each a :class:`Plan`."""
