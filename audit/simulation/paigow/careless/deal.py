"""Careless-dealer irregularities of the deal: the first stack, the stacks' order and style,
unwagered stacks, an exposed banker's tile (PA 621a.6(c)-(e), 621a.7, 621a.9(j), (l), 621a.10).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from audit.events.envelope import Event
from audit.events.paigow.play import DeliveryStyleChosen, StackDelivered
from audit.games.paigow.delivery import DeliveryStyle
from audit.games.paigow.layout import Position
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    chosen,
    cites,
    money_moved,
    round_events,
    substitute,
    unwagered,
)
from audit.simulation.paigow.dealer import Delivered
from audit.simulation.paigow.dealing import dealer_names_style
from audit.simulation.paigow.state import BANKED_MODES, RoundState, Step


def _bank_rule(round_: RoundState, key: str) -> str | None:
    return key if round_.mode in BANKED_MODES else None


def _first_delivery(round_: RoundState, events: Sequence[Event]) -> Position:
    return next(
        e.position
        for e in round_events(round_, events)
        if isinstance(e, StackDelivered) and e.order == 0
    )


def wrong_deal(round_: RoundState, events: Sequence[Event]) -> list[Expect]:
    """A first stack to the wrong position, and the wagers settled anyway (PA 621a.10(c))."""
    key = _bank_rule(round_, "bank-starting-position")
    found = [Expect("PG-DEAL-START", _first_delivery(round_, events), key)]
    if money_moved(round_events(round_, events)):
        found.append(Expect("PG-DEAL-SETTLED-AFTER-WRONG-DEAL"))
    return found


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
        return wrong_deal(round_, events)


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
