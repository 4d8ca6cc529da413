"""The cards: dealing order, drawing and the Bonus-only card (PA 681a.7(e)-(g), 681a.9(b)).

:func:`judge_deal` walks the recorded cards with the engine's
:func:`~audit.games.baccarat21.drawing.next_card` and returns the deal as the
rules let it stand, which settlement is judged against:

- a card drawn to a hand that must stand does not count: 681a.9(b) sends a card
  drawn to a 17 to the discard rack, and we read every card the rules did not
  call for the same way;
- a card the rules deal for the Bonus only (681a.7(f)(2)) counts for the Bonus
  only, however it was recorded; whether the dealer counted it anyway is judged
  from the settlement (:mod:`.bonus_card_checks`), never from the device's
  optional ``bonus_only`` flag alone;
- a hand left standing under 17 stands as dealt: no card can be invented for it.

A card the rules call for one hand, laid on the other hand, which is owed none,
is judged by what the dealer did next. If the called hand later took a card, the
misplaced card was one drawn to a hand that must stand and does not count (above).
If it never did, the card out of the shoe for it is this one: judged where the rules
send it (681a.7(b) places each card "on the appropriate area of the layout"), on
the called hand, reported as ``B21-CARD-WRONG-HAND`` with nothing at stake of its
own; a settlement that followed the card where it was laid is a settlement finding,
which carries the money.

A card to a hand that was owed one anyway stands. After the first four cards
(681a.7(e)) the text gives no order: under the one-card rule and after a natural
either hand may take its card first, unless the table's ``draw_order`` option
requires the Player's first (a house procedure). The draws to 17 name their order
in the rule itself. A card out of the order required is an order finding.
"""

from __future__ import annotations

from collections.abc import Callable

from audit.events.baccarat21.play import B21CardDealt
from audit.games.baccarat21.cards import Card, parse_card
from audit.games.baccarat21.drawing import (
    STAND_ON,
    Action,
    Deal,
    DealtCard,
    DrawOrder,
    DrawRule,
    Hand,
    NextCard,
    hand_action,
    next_card,
)
from audit.games.baccarat21.hands import describe_total, hand_total, is_natural
from audit.games.baccarat21.settlement import Bet
from audit.games.money import Cents
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.round_view import B21RoundView

_NAMES = {Hand.PLAYER: "Player's Hand", Hand.BANKER: "Banker's Hand"}
_BONUS_BET = {Hand.PLAYER: Bet.BONUS_PLAYER, Hand.BANKER: Bet.BONUS_BANKER}
_COUNTING_BETS = (Bet.PLAYER, Bet.BANKER, Bet.TIE)


def _first_two(dealt: list[DealtCard]) -> dict[Hand, list[Card]]:
    return {hand: [d.card for d in dealt[:4] if d.hand is hand] for hand in Hand}


def _counting(dealt: list[DealtCard], hand: Hand) -> list[Card]:
    return [d.card for d in dealt if d.hand is hand and not d.bonus_only]


def _has_natural(dealt: list[DealtCard]) -> bool:
    return len(dealt) >= 4 and any(is_natural(c) for c in _first_two(dealt).values())


def owed(dealt: list[DealtCard], hand: Hand, bonus: bool, rule: DrawRule) -> NextCard | None:
    """Return the card ``hand`` is still owed after the first four, whatever the turn, or None.

    >>> from audit.games.baccarat21.cards import parse_cards
    >>> P, B = Hand.PLAYER, Hand.BANKER
    >>> dealt = [DealtCard(c, h) for c, h in zip(parse_cards("TS 9H 5D 9C"), [P, B, P, B])]
    >>> owed(dealt, P, False, DrawRule.ONE_CARD), owed(dealt, B, False, DrawRule.ONE_CARD)
    (NextCard(hand=<Hand.PLAYER: 'player'>, bonus_only=False), None)
    """
    if _has_natural(dealt):
        if not bonus:
            return None  # PA 681a.7(f)(1)
        has_card = any(d.hand is hand and d.bonus_only for d in dealt[4:])
        below = hand_total(_first_two(dealt)[hand]) < STAND_ON
        return NextCard(hand, bonus_only=True) if below and not has_card else None
    return NextCard(hand) if hand_action(_counting(dealt, hand), rule) is Action.DRAW else None


class _Walk:
    """The recorded cards judged one by one, building the deal as the rules let it stand."""

    def __init__(
        self, view: B21RoundView, rule: DrawRule, emit: Emit, order: DrawOrder = DrawOrder.ANY
    ) -> None:
        self.view, self.rule, self.emit, self.order = view, rule, emit, order
        self.bonus = view.bonus_on_table()
        self.dealt: list[DealtCard] = []
        self.order_reported = False
        self.counting_stake = view.staked(_COUNTING_BETS)
        self.misplaced: list[tuple[B21CardDealt, NextCard, list[tuple[str, dict]]]] = []
        """Cards the rules called for one hand laid on the other, which was owed none: each
        with the call, and the findings it makes if the called hand takes a card later."""
        self.unflagged: list[tuple[B21CardDealt, int]] = []
        """Bonus-only cards recorded without the flag or as counting, with their index in
        the deal: the settlement says whether they were counted."""

    def _bonus_stake(self, hand: Hand) -> Cents:
        return self.view.staked((_BONUS_BET[hand],))

    def _total(self, hand: Hand) -> str:
        return describe_total(_counting(self.dealt, hand))

    def card(self, event: B21CardDealt) -> None:
        card, hand = parse_card(event.card), event.hand
        step = next_card(self.dealt, self.bonus, self.rule)
        if len(self.dealt) < 4:  # PA 681a.7(e): P, B, P, B; the card stands where it went
            if step is not None and step.hand is not hand:
                self._order(event, step)
            if event.bonus_only:
                self._mismarked(event)
            self.dealt.append(DealtCard(card, hand))
            return
        if step is None or step.hand is not hand:
            due = owed(self.dealt, hand, self.bonus, self.rule)
            if step is None:
                self._extra(event, self.emit)
                return
            if due is None:  # called for the other hand: see finish
                held: list[tuple[str, dict]] = []
                self._extra(event, lambda code, **kw: held.append((code, kw)))
                self.misplaced.append((event, step, held))
                return
            if self._ordered():
                self._order(event, step)
            step = due
        if step.bonus_only and not event.bonus_only:
            self.unflagged.append((event, len(self.dealt)))
        elif event.bonus_only and not step.bonus_only:
            self._mismarked(event)
        self.dealt.append(DealtCard(card, hand, step.bonus_only))

    def _ordered(self) -> bool:
        """Return whether the cards after the first four have an order to keep."""
        free = self.rule is DrawRule.ONE_CARD or _has_natural(self.dealt)
        return not free or self.order is DrawOrder.PLAYER_FIRST

    def _order(self, event: B21CardDealt, step: NextCard) -> None:
        if self.order_reported:
            return
        self.order_reported = True
        number = len(self.dealt) + 1
        house = self.rule is DrawRule.ONE_CARD or _has_natural(self.dealt)
        self.emit(
            "B21-DEAL-ORDER",
            exposure=self.counting_stake,
            events=[event],
            rule_key="deal-order" if number <= 4 else "draw-order" if house else "draw",
            recorded=f"card {number}, {event.card}, to the {_NAMES[event.hand]}",
            expected=f"card {number} to the {_NAMES[step.hand]}",
        )

    def _mismarked(self, event: B21CardDealt) -> None:
        self.emit(
            "B21-BONUS-CARD-MISMARKED",
            exposure=self.counting_stake,
            events=[event],
            recorded=f"{event.card} to the {_NAMES[event.hand]} recorded as Bonus-only",
            expected="a Bonus-only card only after a natural; this card counts for every wager",
        )

    def _extra(self, event: B21CardDealt, emit: Callable[..., None]) -> None:
        hand = event.hand
        total = hand_total(_counting(self.dealt, hand))
        shown = f"{event.card} to the {_NAMES[hand]} at {self._total(hand)}"
        if _has_natural(self.dealt) and not self.bonus:
            emit(
                "B21-DRAW-AFTER-NATURAL",
                at_stake=self.counting_stake,
                events=[event],
                recorded=f"{shown} after a natural",
                expected="no card after a natural with no Bonus Wager on the table",
            )
        elif _has_natural(self.dealt):
            emit(
                "B21-DRAW-EXTRA",
                rule_key="bonus-card",
                events=[event],
                at_stake=self._bonus_stake(hand),
                recorded=f"{shown} after a natural",
                expected="after a natural, one Bonus-only card to each hand under 17 and no other",
            )
        elif total >= STAND_ON:
            emit(
                "B21-DRAW-EXTRA",
                rule_key="extra-card",
                events=[event],
                at_stake=self.counting_stake,
                recorded=shown,
                expected=f"the {_NAMES[hand]} stands on {self._total(hand)}; a card "
                "drawn to it goes to the discard rack",
            )
        else:
            emit(
                "B21-DRAW-EXTRA",
                at_stake=self.counting_stake,
                events=[event],
                recorded=f"{shown}, a second card drawn to it",
                expected="one additional card to a hand under 17, then it stands",
            )

    def finish(self, voided: bool) -> Deal:
        if voided:  # dealing may stop anywhere once the round is called off
            return Deal(tuple(self.dealt), self.bonus)
        last = [self.view.cards[-1][1]] if self.view.cards else self.view.events[-1:]
        if len(self.dealt) < 4:
            self.emit(
                "B21-DRAW-STOOD",
                rule_key="deal-order",
                at_stake=self.counting_stake,
                events=last,
                recorded=f"the round ended after {len(self.dealt)} cards",
                expected="two cards to each hand",
            )
            return Deal(tuple(self.dealt), self.bonus)
        for event, called, held in self.misplaced:
            due = owed(self.dealt, called.hand, self.bonus, self.rule)
            if due is None:  # the called hand took its card after all: this one was extra
                for code, kw in held:
                    self.emit(code, **kw)
                continue
            self.dealt.append(DealtCard(parse_card(event.card), called.hand, due.bonus_only))
            self.emit(
                "B21-CARD-WRONG-HAND",
                exposure=self.counting_stake,  # judged where the rules send it: money right
                events=[event],
                recorded=f"{event.card} laid on the {_NAMES[event.hand]}, which was owed no card",
                expected=f"the card called for the {_NAMES[called.hand]}, which took no other: "
                f"judged there, at {self._total(called.hand)}",
            )
        for hand in Hand:
            due = owed(self.dealt, hand, self.bonus, self.rule)
            if due is None:
                continue
            if due.bonus_only:
                self.emit(
                    "B21-BONUS-CARD-MISSING",
                    exposure=self._bonus_stake(hand),
                    events=last,
                    recorded=f"the {_NAMES[hand]} stood at "
                    f"{self._total(hand)} after a natural with a Bonus Wager on the table",
                    expected="one Bonus-only card to a hand under 17",
                )
            else:
                self.emit(
                    "B21-DRAW-STOOD",
                    at_stake=self.counting_stake,
                    events=last,
                    recorded=f"the {_NAMES[hand]} stood at {self._total(hand)}",
                    expected="one card to a hand under a soft or hard 17",
                )
        return Deal(tuple(self.dealt), self.bonus)


def walk_deal(
    view: B21RoundView, rule: DrawRule, emit: Emit, order: DrawOrder = DrawOrder.ANY
) -> tuple[Deal, list[tuple[B21CardDealt, int]]]:
    """Report every card dealt against the rules; return the deal as the rules let it stand,
    and the Bonus-only cards not flagged so, each with its index in that deal."""
    walk = _Walk(view, rule, emit, order)
    for _, event in view.cards:
        walk.card(event)
    return walk.finish(voided=view.voided is not None), walk.unflagged


def judge_deal(
    view: B21RoundView, rule: DrawRule, emit: Emit, order: DrawOrder = DrawOrder.ANY
) -> Deal:
    """Report every card dealt against the rules; return the deal as the rules let it stand."""
    return walk_deal(view, rule, emit, order)[0]
