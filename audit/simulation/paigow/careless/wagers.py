"""Careless-dealer irregularities of wagers: past-posting, betting areas not adjacent, a bank
wagering on a second area (PA 621a.5(c), (d), 621a.9(f)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence

from audit.events.envelope import Event
from audit.events.paigow.wagers import WagerKind, WagerPlaced
from audit.games.money import to_cents, to_dollars
from audit.games.paigow.layout import Position, TableLayout
from audit.games.paigow.settlement import BankingMode
from audit.simulation.paigow.betting import call_no_more_bets, place_wagers
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    seated,
    substitute,
)
from audit.simulation.paigow.state import BANKED_MODES, RoundState, Step


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
            player = seated(round_, self.player_id)
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
        seated(round_, self.player_id).spots = self.spots


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
