"""The careless 21 Baccarat dealer: irregularities injected at a known rate, each with its label.

Each round, with probability ``rate``, one irregularity is chosen uniformly from
those that fit the round, judged on a *preview*: the round played clean on a copy
of the table (as the Pai Gow plans of :mod:`audit.simulation.paigow.careless.plan`
do). The plan is a :class:`~audit.simulation.baccarat21.round.Dealer` that goes
wrong at one step of the round (a draw, a card, a wager, a payout), or a shoe
step undone before the round (the burn, the reshuffle). Its label names every
finding code verification must make of the round as it was really played.

Pure: no I/O. With ``rate`` 0 the table's events are exactly the clean ones.

>>> from audit.simulation.baccarat21.shift import set_up_baccarat_table
>>> from audit.simulation.shift import ShiftConfig
>>> table = set_up_baccarat_table(3, ShiftConfig(), random.Random(7))
>>> labels = []
>>> events = list(B21CarelessDealer(table, 0.3, KINDS, random.Random(1), labels).events(20))
>>> len(labels), [label.kind for label in labels[:2]], labels[1].codes
(7, ['paytable_misfit', 'decks_kept_past_24_hours'], ('B21-SHOE-DECKS-UNCHANGED',))
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import ClassVar, Literal

from audit.events.baccarat21.shoe import CardBurned, ShoeShuffled
from audit.events.envelope import Event
from audit.events.table import DealerChanged
from audit.games.baccarat21.bonus import BONUS_PAYTABLES, BonusHand, BonusPaytable
from audit.games.baccarat21.cards import Card
from audit.games.baccarat21.drawing import (
    STAND_ON,
    DealtCard,
    DrawOrder,
    DrawRule,
    Hand,
    NextCard,
    next_card,
)
from audit.games.baccarat21.hands import hand_total, is_natural
from audit.games.baccarat21.rulesets import RuleSet
from audit.games.baccarat21.settlement import (
    MAIN_BETS,
    Bet,
    RoundResult,
    SettlementLine,
    Wager,
    settle_round,
)
from audit.games.baccarat21.shoe import Shoe
from audit.games.wagering import Outcome
from audit.simulation.accounting import observed
from audit.simulation.baccarat21.round import Dealer, PlayedB21Round, play_b21_round
from audit.simulation.baccarat21.shift import between_b21_rounds, close_b21_table, open_b21_table
from audit.simulation.baccarat21.shoe import burn, load_shoe
from audit.simulation.baccarat21.table import B21Table
from audit.simulation.labels import Label
from audit.simulation.preview import fork

__all__ = ["KINDS", "B21CarelessDealer", "B21Plan", "Expected"]

Expected = tuple[str, int | None]
"""One finding a round must yield: its code and position (None: the round's)."""


# --- The preview ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShoeState:
    """The table's shoe as it stood before the last between-rounds step."""

    shoe: Shoe | None
    out: int
    batch: int
    cover_out: bool

    @classmethod
    def of(cls, table: B21Table) -> ShoeState:
        """Return the table's shoe state now."""
        return cls(table.shoe, table.out, table.batch, table.cover_out)


@dataclass(frozen=True)
class B21Preview:
    """The round as it would be played clean, on a copy of the table."""

    round: PlayedB21Round
    between: tuple[Event, ...]
    """The events recorded between the last round and this one (not yet drained)."""
    before: ShoeState
    """The shoe as it stood before those events."""
    rules: RuleSet
    now: ShoeState
    """The shoe as the round finds it, after those events."""

    @property
    def dealt(self) -> tuple[DealtCard, ...]:
        """Return the previewed round's cards."""
        return self.round.deal.cards

    @property
    def natural(self) -> bool:
        """Return whether either hand's first two cards are a natural (PA 681a.1)."""
        first = self.dealt[:4]
        return any(is_natural([d.card for d in first if d.hand is hand]) for hand in Hand)

    def drew(self, hand: Hand) -> bool:
        """Return whether ``hand`` drew a counting card after the first four."""
        return any(d.hand is hand and not d.bonus_only for d in self.dealt[4:])

    def lines(self, won: bool = False) -> list[SettlementLine]:
        """Return the previewed settlement's lines (the winning ones only, if ``won``)."""
        lines = self.round.settlement.lines
        return [line for line in lines if not won or line.outcome is Outcome.WIN]


# --- The plan ------------------------------------------------------------------------------------


class B21Plan(Dealer, ABC):
    """One irregularity for one round: where the dealer goes wrong, and what must be found.

    A subclass names itself (``name``), says which rounds it fits (:meth:`applies`),
    picks its target from the preview, overrides the :class:`Dealer` step it breaks,
    or undoes a shoe step before the round (:meth:`prepare`), and lists the findings
    the round played must yield (:meth:`expected`).
    """

    name: ClassVar[str] = ""
    at_opening: ClassVar[bool] = False
    """The irregularity is the table's, done as it opens (:meth:`open_table`), not a round's."""

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        self.preview = preview
        self.rng = rng

    @classmethod
    def open_table(cls, table: B21Table, rng: random.Random) -> tuple[str, ...]:
        """Go wrong as the table opens; return the codes the table's label names."""
        raise TypeError(f"{cls.name} is a round's irregularity, not the table's")

    @classmethod
    @abstractmethod
    def applies(cls, preview: B21Preview) -> bool:
        """Return whether this irregularity can be injected into the previewed round."""

    def prepare(self, table: B21Table) -> None:
        """Change the table before the round (the shoe steps between rounds)."""

    def finish(self, table: B21Table) -> None:
        """Set the table right after the round, for the rounds after it."""

    def expected(self, played: PlayedB21Round) -> list[Expected]:
        """Return the findings the round must yield: its own, and the settlement's."""
        paytable = self.preview.rules.paytable
        return [*self.own(played), *settlement_expected(played, self.counted(played), paytable)]

    def own(self, played: PlayedB21Round) -> list[Expected]:
        """Return the irregularity's own findings."""
        return []

    def counted(self, played: PlayedB21Round) -> tuple[DealtCard, ...]:
        """Return the round's cards as the rules let them count (as dealt, unless overridden)."""
        return played.deal.cards


def settlement_expected(
    played: PlayedB21Round, cards: Sequence[DealtCard], paytable: BonusPaytable
) -> list[Expected]:
    """Return the settlement findings of the recorded lines against the engine's on ``cards``:
    a wrong outcome, else wrong money (PA 681a.7(h)-(k), 681a.8)."""
    deal = replace(played.deal, cards=tuple(cards))
    wagers = [line.wager for line in played.settlement.lines]
    rules = settle_round(wagers, RoundResult.from_deal(deal), paytable)
    found: list[Expected] = []
    for right, recorded in zip(rules.lines, played.recorded, strict=True):
        if recorded.outcome is not right.outcome:
            found.append(("B21-SETTLE-OUTCOME", right.wager.position))
        elif (recorded.paid, recorded.collected, recorded.returned) != (
            right.paid,
            right.collected,
            right.returned,
        ):
            found.append(("B21-SETTLE-PAYOUT", right.wager.position))
    return found


# --- The cards -----------------------------------------------------------------------------------


class HandLeftStanding(B21Plan):
    """A hand under 17 left standing without its card: PA 681a.7(g) ("the dealer shall draw
    one additional card ... if either ... has a total value of less than a soft or hard 17")."""

    name = "hand_left_standing"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        one_card = preview.rules.draw_rule is DrawRule.ONE_CARD
        return one_card and not preview.natural and any(preview.drew(h) for h in Hand)

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.hand = rng.choice([hand for hand in Hand if preview.drew(hand)])

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        step = next_card(dealt, bonus, rule)
        if step is not None and len(dealt) >= 4 and step.hand is self.hand:
            # The dealer goes on as if the hand had drawn: one card read as the rule is.
            return next_card([*dealt, DealtCard(dealt[0].card, self.hand)], bonus, rule)
        return step

    def own(self, played: PlayedB21Round) -> list[Expected]:
        found: list[Expected] = [("B21-DRAW-STOOD", None)]
        player_first = self.preview.rules.draw_order is DrawOrder.PLAYER_FIRST
        banker_drew = any(d.hand is Hand.BANKER for d in played.deal.cards[4:])
        if player_first and self.hand is Hand.PLAYER and banker_drew:
            # The Banker's card came while the Player's was owed: out of the house's order.
            found.append(("B21-DEAL-ORDER", None))
        return found


class FirstFourOutOfOrder(B21Plan):
    """The first four cards dealt Player, Player, Banker, Banker: PA 681a.7(e) deals them
    Player, Banker, Player, Banker. Each card stands where it went."""

    name = "first_four_out_of_order"
    _ORDER = (Hand.PLAYER, Hand.PLAYER, Hand.BANKER, Hand.BANKER)

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return len(preview.dealt) >= 4

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        if len(dealt) < 4:
            return NextCard(self._ORDER[len(dealt)])
        return next_card(dealt, bonus, rule)

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-DEAL-ORDER", None)]


class CardOnTheWrongHand(B21Plan):
    """The card the rules call for the one hand that draws laid on the other, which stands,
    and no card more: PA 681a.7(b) places each card "on the appropriate area of the layout".
    The dealer settles the cards as laid; the rules send the card to the hand that called it."""

    name = "card_on_wrong_hand"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        one_card = preview.rules.draw_rule is DrawRule.ONE_CARD
        drawing = [hand for hand in Hand if preview.drew(hand)]
        return one_card and not preview.natural and len(drawing) == 1

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.called = next(hand for hand in Hand if preview.drew(hand))
        self.laid_on = next(hand for hand in Hand if hand is not self.called)

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        if len(dealt) > 4:
            return None  # the misplaced card is out: the dealer deals no more
        step = next_card(dealt, bonus, rule)
        if step is not None and len(dealt) == 4:
            return NextCard(self.laid_on)
        return step

    def counted(self, played: PlayedB21Round) -> tuple[DealtCard, ...]:
        cards = played.deal.cards
        return (*cards[:4], *(replace(d, hand=self.called) for d in cards[4:]))

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-CARD-WRONG-HAND", None)]


class _CardAfterTheDeal(B21Plan):
    """One card more to ``self.hand`` once the rules have dealt the round, counted as dealt."""

    hand: Hand

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        step = next_card(dealt, bonus, rule)
        if step is None and next_card(dealt[:-1], bonus, rule) is not None:
            return NextCard(self.hand)  # the rules' last card is out: one more
        return step

    def counted(self, played: PlayedB21Round) -> tuple[DealtCard, ...]:
        return played.deal.cards[:-1]  # the rules send the extra card to the discard rack


class CardDrawnToSeventeen(_CardAfterTheDeal):
    """A card drawn to a hand at 17 or more, and counted: PA 681a.9(b) sends it to the discard
    rack; 681a.7(g) stands on all 17s."""

    name = "card_drawn_to_17"

    @staticmethod
    def _standing(preview: B21Preview) -> list[Hand]:
        counting = preview.round.deal.hand_cards
        return [hand for hand in Hand if hand_total(counting(hand)) >= STAND_ON]

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return not preview.natural and bool(cls._standing(preview))

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.hand = rng.choice(self._standing(preview))

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-DRAW-EXTRA", None)]


class CardAfterNatural(_CardAfterTheDeal):
    """A card dealt, and counted, after a natural with no Bonus Wager on the table:
    PA 681a.7(f)(1) ("no additional cards shall be dealt")."""

    name = "card_after_natural"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return preview.natural and not preview.round.deal.bonus_on_table

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        counting = preview.round.deal.hand_cards
        under = [hand for hand in Hand if hand_total(counting(hand)) < STAND_ON]
        self.hand = rng.choice(under or list(Hand))  # the hand a dealer would draw to

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-DRAW-AFTER-NATURAL", None)]


class BonusCardCounted(B21Plan):
    """A Bonus-only card dealt as counting, and settled so: PA 681a.7(f)(2) ("shall count only
    for purposes of the Bonus Wager")."""

    name = "bonus_card_counted"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return any(d.bonus_only for d in preview.dealt)

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.hand = rng.choice([d.hand for d in preview.dealt if d.bonus_only])

    def _marked(self, dealt: Sequence[DealtCard]) -> list[DealtCard]:
        return [
            replace(d, bonus_only=True) if i >= 4 and d.hand is self.hand else d
            for i, d in enumerate(dealt)
        ]

    def next_step(self, dealt: Sequence[DealtCard], bonus: bool, rule: DrawRule) -> NextCard | None:
        step = next_card(self._marked(dealt), bonus, rule)
        if step is not None and step.bonus_only and step.hand is self.hand:
            return NextCard(self.hand)  # recorded, and counted, for every wager
        return step

    def counted(self, played: PlayedB21Round) -> tuple[DealtCard, ...]:
        return tuple(self._marked(played.deal.cards))

    def own(self, played: PlayedB21Round) -> list[Expected]:
        # Judged from the money: where counting the card changed no Player, Banker or Tie
        # settlement, the record's "counting" is a data-quality note.
        paytable = self.preview.rules.paytable
        upset = settlement_expected(played, self.counted(played), paytable)
        return [("B21-BONUS-CARD-COUNTED" if upset else "B21-BONUS-FLAG", None)]


class BonusFlagMissing(B21Plan):
    """A Bonus-only card dealt and settled as the rules say, recorded without the device's
    optional flag: a data-quality note, nothing at stake (PA 681a.7(f)(2))."""

    name = "bonus_flag_missing"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return any(d.bonus_only for d in preview.dealt)

    def recorded_flag(self, step: NextCard) -> bool | None:
        return None if step.bonus_only else step.bonus_only

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-BONUS-FLAG", None)]


class FaceUpCardUsed(B21Plan):
    """A card found face up in the shoe and dealt all the same: PA 681a.9(a) ("may not be used
    in that round")."""

    name = "face_up_used"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(preview.dealt)

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.index = rng.randrange(len(preview.dealt))

    def uses_face_up(self, index: int) -> bool:
        return index == self.index

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SHOE-FACE-UP-USED", None)]


# --- Wagers and payouts --------------------------------------------------------------------------


class WagerLate(B21Plan):
    """A Player, Banker or Tie Wager placed after the first card: PA 681a.6(b) (wagers are
    placed "prior to the dealer announcing 'No more bets'" and dealing the first card)."""

    name = "wager_late"

    @staticmethod
    def _wagers(preview: B21Preview) -> list[Wager]:
        # Not a Bonus Wager: it would change the deal (681a.7(f)(2)) the late wager slid into.
        return [line.wager for line in preview.lines() if line.wager.bet not in _BONUS]

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(cls._wagers(preview)) and bool(preview.dealt)

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        wager = rng.choice(self._wagers(preview))
        self.spot = (wager.position, wager.bet)

    def holds_back(self, wager: Wager) -> bool:
        return (wager.position, wager.bet) == self.spot

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-WAGER-LATE", self.spot[0])]


_BONUS = (Bet.BONUS_PLAYER, Bet.BONUS_BANKER)


class WagerTakenBack(B21Plan):
    """A Tie Wager, or a position's only wager, taken back after the first card and never
    settled: PA 681a.6(b) ("may not handle, remove or alter any wagers ... until a decision
    has been rendered"). Never a Bonus Wager (it would change the deal, 681a.7(f)(2)) nor a
    main wager under an optional one (that would leave it without one, 681a.6(d))."""

    name = "wager_taken_back"
    when: ClassVar[Literal["before_first_card", "after_first_card"]] = "after_first_card"
    code: ClassVar[str] = "B21-WAGER-REMOVED"

    @staticmethod
    def _wagers(preview: B21Preview) -> list[Wager]:
        wagers = [line.wager for line in preview.lines()]
        alone = {w.position for w in wagers if sum(v.position == w.position for v in wagers) == 1}
        return [w for w in wagers if w.bet is Bet.TIE or w.position in alone]

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(cls._wagers(preview)) and bool(preview.dealt)

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        wager = rng.choice(self._wagers(preview))
        self.spot = (wager.position, wager.bet)

    def takes_back(self, wager: Wager) -> Literal["before_first_card", "after_first_card"] | None:
        return self.when if (wager.position, wager.bet) == self.spot else None

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [(self.code, self.spot[0])]


class WagerTakenBackEarly(WagerTakenBack):
    """The same, taken back before the first card: 681a.6(b) names no moment before which a
    wager may be taken back, so this is a breach too, of less weight."""

    name = "wager_taken_back_early"
    when = "before_first_card"
    code = "B21-WAGER-REMOVED-EARLY"


class _WrongPayout(B21Plan):
    """A winning wager of ``bets`` paid ``_pays`` instead of the engine's amount."""

    bets: ClassVar[frozenset[Bet]]

    @classmethod
    def _targets(cls, preview: B21Preview) -> list[SettlementLine]:
        return [
            line
            for line in preview.lines(won=True)
            if line.wager.bet in cls.bets and cls._pays(preview, line) != line.paid
        ]

    @classmethod
    @abstractmethod
    def _pays(cls, preview: B21Preview, line: SettlementLine) -> int:
        """Return what the careless dealer pays on a winning line."""

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(cls._targets(preview))

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        line = rng.choice(self._targets(preview))
        self.spot, self.paid = (line.wager.position, line.wager.bet), self._pays(preview, line)

    def record(self, line: SettlementLine) -> SettlementLine:
        if (line.wager.position, line.wager.bet) == self.spot:
            return replace(line, paid=self.paid)
        return line


class SeventeenPaidEven(_WrongPayout):
    """A Player or Banker Wager winning with a 17 paid 1 to 1: PA 681a.8(a) pays it 1 to 2."""

    name = "seventeen_paid_even"
    bets = MAIN_BETS

    @classmethod
    def _pays(cls, preview: B21Preview, line: SettlementLine) -> int:
        result = preview.round.settlement.result
        total = result.player_total if line.wager.bet is Bet.PLAYER else result.banker_total
        return line.wager.amount if total == STAND_ON else line.paid


class TiePaidEightToOne(_WrongPayout):
    """A winning Tie Wager paid 8 to 1, as in baccarat: PA 681a.8(b) pays it 10 to 1."""

    name = "tie_paid_8_to_1"
    bets = frozenset({Bet.TIE})

    @classmethod
    def _pays(cls, preview: B21Preview, line: SettlementLine) -> int:
        return 8 * line.wager.amount


class BonusWrongRow(_WrongPayout):
    """A winning Bonus Wager paid off another row of the paytable (the next one up, or the
    next one down from the top): PA 681a.8(c) pays the hand's own row of the table in force."""

    name = "bonus_wrong_row"
    bets = frozenset(_BONUS)

    @classmethod
    def _pays(cls, preview: B21Preview, line: SettlementLine) -> int:
        result = preview.round.settlement.result
        hand = result.player_bonus if line.wager.bet is Bet.BONUS_PLAYER else result.banker_bonus
        rows: list[BonusHand] = [row for row in BonusHand if row is not BonusHand.NOTHING]
        at = rows.index(hand)
        misread = rows[at - 1] if at else rows[1]
        return preview.rules.paytable.pays(misread, line.wager.amount)


class PaidTwice(B21Plan):
    """A winning wager paid, then paid again: PA 681a.7(h)-(k) settle each wager once, and
    681a.8 pays it once at its odds. The second payout is recorded as it was made."""

    name = "paid_twice"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(preview.lines(won=True))

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        line = rng.choice(preview.lines(won=True))
        self.spot = (line.wager.position, line.wager.bet)

    def pays_again(self, line: SettlementLine) -> bool:
        return (line.wager.position, line.wager.bet) == self.spot

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SETTLE-TWICE", self.spot[0])]


# --- The shoe ------------------------------------------------------------------------------------


def _unrecord(table: B21Table, first: int) -> None:
    """Take the table's pending events from index ``first`` on off the record, as never done."""
    pending = table.recorder.events
    table.recorder.seq -= len(pending) - first
    for event in pending[first:]:
        if isinstance(event, ShoeShuffled) and event.new_decks:
            table.new_decks.add(
                event.batch
            )  # the decks were never opened, as far as any record says
    del pending[first:]


class BurnSkipped(B21Plan):
    """No card burned after a shoe was loaded or a new dealer came in: PA 681a.7(c) ("remove
    the first card and place it in the discard rack"). The card is dealt instead."""

    name = "burn_skipped"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(preview.between) and isinstance(preview.between[-1], CardBurned)

    def prepare(self, table: B21Table) -> None:
        _unrecord(table, len(table.recorder.events) - 1)
        table.out -= 1  # the card stays in the shoe

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SHOE-NO-BURN", None)]


_CARDS_TO_SPARE = 16
"""Cards a shoe must still hold for a round dealt on past its cover card (a round takes at
most six, a burn one more, a card found face up another)."""


class ReshuffleSkipped(B21Plan):
    """A round dealt on from the shoe after the cover card came out: PA 681a.7(d) (the round
    is completed, then the cards are reshuffled). The reshuffle is taken back off the record
    and done after this round instead."""

    name = "reshuffle_skipped"

    @staticmethod
    def _shuffled(events: Sequence[Event]) -> int | None:
        for index, event in enumerate(events):
            if isinstance(event, ShoeShuffled) and event.reason == "cover_card":
                return index
        return None

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        shoe, out = preview.before.shoe, preview.before.out
        left = len(shoe.cards) - out if shoe is not None else 0
        return cls._shuffled(preview.between) is not None and left >= _CARDS_TO_SPARE

    def prepare(self, table: B21Table) -> None:
        pending = table.recorder.events
        at = self._shuffled(pending)
        assert at is not None
        new_dealer = any(isinstance(e, DealerChanged) for e in pending[:at])
        _unrecord(table, at)
        before = self.preview.before
        table.shoe, table.out, table.batch = before.shoe, before.out, before.batch
        table.cover_out = False  # the dealer deals on as if it never came out
        if new_dealer:
            burn(table)  # the new dealer still burns (681a.7(c)), from the old shoe

    def finish(self, table: B21Table) -> None:
        table.cover_out = True  # reshuffled before the next round

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SHOE-NO-RESHUFFLE", None)]


class CardTheShoeCannotHold(B21Plan):
    """A card out of the shoe once more than its decks hold it, such as a fifth ace of spades
    from four decks: PA 681a.3(a) ("four or eight decks of cards"). Every copy of the card has
    already come out of this shoe; a stray one from another deck takes the place of the
    round's first card."""

    name = "card_shoe_cannot_hold"

    @staticmethod
    def _spent(preview: B21Preview) -> list[Card]:
        shoe, out, decks = preview.now.shoe, preview.now.out, preview.rules.decks
        if shoe is None or not preview.dealt:
            return []
        seen = Counter(shoe.cards[:out])  # burns and face-up cards included: they came out
        return sorted(card for card, count in seen.items() if count >= decks)

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return bool(cls._spent(preview))

    def __init__(self, preview: B21Preview, rng: random.Random) -> None:
        super().__init__(preview, rng)
        self.card = rng.choice(self._spent(preview))

    def prepare(self, table: B21Table) -> None:
        shoe = table.shoe
        assert shoe is not None
        cards = list(shoe.cards)
        cards[table.out] = self.card
        table.shoe = replace(shoe, cards=tuple(cards))

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SHOE-CARD-EXCESS", None)]


# --- The table ------------------------------------------------------------------------------------


class PaytableMisfit(B21Plan):
    """The table opens with a paytable for the other deck count, and pays from it: PA 681a.8(c)
    pairs paytables A-C with four decks and D-F with eight. The table's irregularity: its label
    has no round."""

    name = "paytable_misfit"
    at_opening = True

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return False  # never a round's

    @classmethod
    def open_table(cls, table: B21Table, rng: random.Random) -> tuple[str, ...]:
        decks = table.rule_set.decks
        letter = rng.choice([t.letter for t in BONUS_PAYTABLES.values() if t.decks != decks])
        table.rule_set = table.rule_set.with_options(paytable=letter, as_recorded=True)
        table.options = {**table.options, "paytable": letter}
        return ("B21-TABLE-OPTIONS",)


DECKS_KEPT = timedelta(hours=24, minutes=5)
"""How long the decks stay in use, idle, when the dealer keeps them past the daily change."""


class DecksKeptPast24Hours(B21Plan):
    """The table stands idle for a day and deals on from the same decks: PA 681a.3(c) ("shall
    be changed at least once every 24 hours"). After the round, both batches are changed."""

    name = "decks_kept_past_24_hours"

    @classmethod
    def applies(cls, preview: B21Preview) -> bool:
        return preview.now.shoe is not None and bool(preview.dealt)

    def prepare(self, table: B21Table) -> None:
        table.recorder.now += DECKS_KEPT  # the clock only: every draw stays the preview's

    def finish(self, table: B21Table) -> None:
        table.new_decks = {0, 1}
        load_shoe(table, "other")  # the new decks go in before the next round

    def own(self, played: PlayedB21Round) -> list[Expected]:
        return [("B21-SHOE-DECKS-UNCHANGED", None)]


KINDS: tuple[type[B21Plan], ...] = (
    HandLeftStanding,
    FirstFourOutOfOrder,
    CardOnTheWrongHand,
    CardDrawnToSeventeen,
    CardAfterNatural,
    BonusCardCounted,
    BonusFlagMissing,
    FaceUpCardUsed,
    WagerLate,
    WagerTakenBack,
    WagerTakenBackEarly,
    SeventeenPaidEven,
    TiePaidEightToOne,
    BonusWrongRow,
    PaidTwice,
    BurnSkipped,
    ReshuffleSkipped,
    CardTheShoeCannotHold,
    DecksKeptPast24Hours,
    PaytableMisfit,
)
"""Every 21 Baccarat irregularity the careless dealer can inject."""


# --- The dealer ----------------------------------------------------------------------------------


def make_b21_label(table: B21Table, round_id: str, kind: str, found: list[Expected]) -> Label:
    """Return the label of one irregular round: every code, and the position if only one."""
    positions = {position for _, position in found}
    position = positions.pop() if len(positions) == 1 else None
    codes = tuple(sorted({code for code, _ in found}))
    return Label(table.table_id, round_id, kind, codes, position)


@dataclass
class B21CarelessDealer:
    """Deals one 21 Baccarat table's shift, now and then carelessly; labels go to ``labels``."""

    table: B21Table
    rate: float
    kinds: tuple[type[B21Plan], ...]
    rng: random.Random
    """The dealer's own generator: whether and how to go wrong, never the table's play."""
    labels: list[Label] = field(default_factory=list)

    def events(self, rounds: int) -> Iterator[Event]:
        """Yield the table's events: opening, ``rounds`` rounds, closing."""
        table = self.table
        openers = [kind for kind in self.kinds if kind.at_opening]
        if self.rate and openers and self.rng.random() < self.rate:
            kind = self.rng.choice(openers)
            codes = kind.open_table(table, self.rng)
            self.labels.append(Label(table.table_id, None, kind.name, codes, None))
        open_b21_table(table)
        yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]
        for _ in range(rounds):
            before = ShoeState.of(table)
            between_b21_rounds(table)
            self.round(before)
            yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]
        close_b21_table(table)
        yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]

    def round(self, before: ShoeState) -> None:
        """Play the next round, with an irregularity at the dealer's rate."""
        if self.rate and self.rng.random() < self.rate:
            preview = self._preview(before)
            fitting = [kind for kind in self.kinds if kind.applies(preview)]
            if fitting:
                plan = self.rng.choice(fitting)(preview, self.rng)
                plan.prepare(self.table)
                played = play_b21_round(self.table, plan)
                plan.finish(self.table)
                found = plan.expected(played)
                if found:
                    label = make_b21_label(self.table, played.round_id, plan.name, found)
                    self.labels.append(label)
                return
        play_b21_round(self.table)

    def _preview(self, before: ShoeState) -> B21Preview:
        table = self.table
        played = play_b21_round(fork(table, "seating"))
        return B21Preview(
            played, tuple(table.recorder.events), before, table.rule_set, ShoeState.of(table)
        )
