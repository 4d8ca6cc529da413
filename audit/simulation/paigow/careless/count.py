"""Careless-dealer irregularities of the call and the count: the shakes, the dice total, a no
roll read anyway, "no more bets" called late (PA 621a.5(c), 621a.6(a)-(c), 621a.10(a), (b)).

Each plan names the findings it must yield as :mod:`audit.verification.paigow` makes them,
and keeps the rest of the round consistent, so that it yields no other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from audit.events.envelope import Event
from audit.simulation.paigow.betting import call_no_more_bets
from audit.simulation.paigow.careless.deal import wrong_deal
from audit.simulation.paigow.careless.plan import Expect, Plan, Preview, cites, skip, substitute
from audit.simulation.paigow.dealer import NoRoll
from audit.simulation.paigow.dealing import count_positions
from audit.simulation.paigow.state import RoundState, Step


def _dice(preview: Preview) -> bool:
    return preview.round.source == "dice"


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
        return [Expect("PG-DEAL-DICE-TOTAL"), *wrong_deal(round_, events)]


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

        return substitute({call_no_more_bets: skip, count_positions: count_then_call})

    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        return [Expect("PG-DEAL-BEFORE-NO-MORE-BETS")]
