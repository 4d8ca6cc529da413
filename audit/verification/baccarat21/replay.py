"""The analyst's replay of one 21 Baccarat round, card by card, as data. Pure.

Steps, each with its reading (the dataclasses below), its recorded facts beside the
engine's and the findings that concern it; ``consumers/replay_text/`` draws them as text:

- the round: table, dealer, the rules in force (decks, Bonus paytable, drawing rule);
- the wagers, each marked if it went down after the first card (PA 681a.6(b));
- the cards one by one: the hand each went to, whether it counted for the Bonus
  only, the hand's total after it, and where the rules sent the next card
  (681a.7(e)-(g)) beside where it went;
- the result: both totals and Bonus hands as the rules let the deal stand;
- the settlement: each wager as recorded beside the engine's settlement with the
  table's paytable (681a.8).

The table's context is built by feeding every fact of the table before the round's
last one through a :class:`StreamVerifier`, as the live stream had it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from audit.events.baccarat21.wagers import B21WagerSettled
from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.games.baccarat21.bonus import BonusHand, BonusPaytable
from audit.games.baccarat21.drawing import DealtCard, DrawRule, Hand, next_card
from audit.games.baccarat21.hands import describe_total
from audit.games.baccarat21.outcome import Winner
from audit.games.baccarat21.settlement import Bet, RoundResult, Wager, settle_wager
from audit.games.cards.deck import card_name, parse_card
from audit.games.money import Cents, to_cents
from audit.verification.baccarat21.context import TableContext
from audit.verification.baccarat21.drawing_checks import judge_deal
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.kinds import KINDS
from audit.verification.baccarat21.round_view import RoundView, view_round
from audit.verification.baccarat21.verify import StreamVerifier
from audit.verification.replay_model import (
    Amount,
    Compared,
    RoundReplay,
    Step,
    dollars,
    first_time,
    locate_round,
)

STEPS = (
    ("round", "The round"),
    ("wagers", "Wagers"),
    ("cards", "The cards, one by one"),
    ("result", "Totals and Bonus hands"),
    ("settlement", "Settlement"),
    ("other", "Other findings"),
)
SEATS = tuple(f"seat {n}" for n in range(9))


def step_for(code: str) -> str:
    """Return the step a finding's code belongs under: its catalogue row's, else "other".

    >>> step_for("B21-DRAW-STOOD"), step_for("B21-SETTLE-PAYOUT"), step_for("DATA-SEQ-GAP")
    ('cards', 'settlement', 'other')
    """
    kind = KINDS.get(code)
    return kind.step if kind is not None and kind.step else "other"


def replay_round(
    events: Iterable[Event],
    round_id: str,
    table_id: str | None = None,
    *,
    verifier: StreamVerifier | None = None,
) -> RoundReplay:
    """Replay one round from its table's events (earlier rounds and table events included).

    ``verifier``, if given, already holds the table as it stood before ``events``
    (:meth:`StreamVerifier.restore_table`): the events then start there.
    """
    stream = list(events)
    table, mine = locate_round(stream, round_id, table_id)
    verifier = verifier or StreamVerifier()
    findings: list[Finding] = []
    for event in stream[: mine[-1] + 1]:
        if event.table_id != table:
            continue
        found = verifier.feed(event)
        findings += [f for f in found if f.round_id == round_id]
    if stream[mine[-1]].type_name() != "round_completed":
        findings += [f for f in verifier.finish() if f.round_id == round_id]
    context = verifier.contexts.get(table) or TableContext(table)
    view = view_round(stream[i] for i in mine)
    return _build(view, context, findings)


# --- What each step reads (its text is consumers/replay_text/baccarat21.py's) ------------------


@dataclass(frozen=True)
class Heading:
    """The round step: where the round was dealt, by whom, and the rules in force."""

    table_id: str
    round_id: str
    dealer_id: str | None
    rules: str
    decks: int
    paytable: str
    """The Bonus paytable's letter."""
    drawing: DrawRule


@dataclass(frozen=True)
class PlacedWager:
    """One wager as placed; ``late`` when it went down after the first card (PA 681a.6(b))."""

    position: int
    bet: Bet
    amount: Cents
    late: bool


@dataclass(frozen=True)
class Wagers:
    """The wagers step: every wager as placed, in order."""

    placed: tuple[PlacedWager, ...]


@dataclass(frozen=True)
class CardRow:
    """One card as dealt beside where the rules sent it (PA 681a.7(e)-(g)).

    ``card`` is as recorded; ``total`` the hand's total after it; ``due`` the hand the
    rules sent it to and whether for the Bonus only (``None``: the hand was complete).
    """

    number: int
    card: str
    hand: Hand
    bonus_only: bool
    total: str
    due: tuple[Hand, bool] | None
    same: bool


@dataclass(frozen=True)
class Cards:
    """The cards one by one, and the hand still owed one after the last, if any."""

    rows: tuple[CardRow, ...]
    owed: Hand | None


@dataclass(frozen=True)
class Outcome:
    """Both hands as the rules let the deal stand: cards by name, totals, Bonus hands."""

    player: tuple[str, ...]
    player_total: str
    banker: tuple[str, ...]
    banker_total: str
    winner: Winner
    player_bonus: BonusHand
    banker_bonus: BonusHand
    voided: str | None
    """The reason the round was voided, if it was."""


def _build(view: RoundView, context: TableContext, findings: list[Finding]) -> RoundReplay:
    rules = context.ruleset
    emit = Emit(view.table_id, rules, view.round_id)
    deal = judge_deal(view, rules.draw_rule, emit, rules.draw_order)
    result = RoundResult.from_deal(deal)
    cards = _cards(view, rules.draw_rule)
    hands = {hand: deal.hand_cards(hand) for hand in Hand}
    readings: dict[str, object] = {
        "round": Heading(view.table_id, view.round_id, view.dealer_id or context.dealer_id,
                         rules.name, rules.decks, rules.paytable.letter, rules.draw_rule),
        "wagers": _wagers(view),
        "cards": cards,
        "result": Outcome(
            tuple(card_name(c) for c in hands[Hand.PLAYER]), describe_total(hands[Hand.PLAYER]),
            tuple(card_name(c) for c in hands[Hand.BANKER]), describe_total(hands[Hand.BANKER]),
            result.winner, result.player_bonus, result.banker_bonus,
            None if view.voided is None else view.voided.reason,
        ),
    }  # fmt: skip
    facts: dict[str, list[Compared]] = {kind: [] for kind, _ in STEPS}
    if view.events:
        facts["round"].append(
            Compared("started", f"dealer {view.dealer_id or context.dealer_id or '-'}",
                     at=view.events[0].occurred_at)
        )  # fmt: skip
    facts["wagers"] = _wager_facts(view)
    facts["cards"] = _card_facts(view, cards)
    facts["result"] = [
        Compared(f"{hand.value.capitalize()}'s Hand", describe_total(hands[hand]),
                 pieces=tuple(card_name(c) for c in hands[hand]))
        for hand in (Hand.PLAYER, Hand.BANKER)
    ]  # fmt: skip
    facts["settlement"] = _settlement(view, result, rules.paytable)
    placed: dict[str, list[Finding]] = {kind: [] for kind, _ in STEPS}
    for finding in findings:
        placed[step_for(finding.code)].append(finding)
    steps = tuple(
        Step(
            kind,
            title,
            findings=tuple(placed[kind]),
            facts=tuple(facts[kind]),
            at=first_time(facts[kind]),
            reading=readings.get(kind),
        )
        for kind, title in STEPS
        if kind != "other" or placed[kind]  # every step but "other" always has something to say
    )
    return RoundReplay(view.table_id, view.round_id, steps, SEATS, "baccarat21")


def _wagers(view: RoundView) -> Wagers:
    first = view.first_card
    return Wagers(tuple(
        PlacedWager(event.position, event.bet, to_cents(event.amount),
                    first is not None and index > first)
        for index, event in view.placed
    ))  # fmt: skip


def _wager_facts(view: RoundView) -> list[Compared]:
    """Return each wager as data: PA 681a.6(b) wants it down before the first card."""
    first = view.first_card
    facts = []
    for index, event in view.placed:
        late = first is not None and index > first
        bet = event.bet.value.replace("_", " ")
        when = "after the first card" if late else "before the first card"
        facts.append(Compared(
            f"seat {event.position}", f"{bet} {dollars(to_cents(event.amount))}, {when}",
            "before the first card", not late,
            amounts=(Amount("wager", to_cents(event.amount)),), at=event.occurred_at,
        ))  # fmt: skip
    return facts


def _cards(view: RoundView, rule: DrawRule) -> Cards:
    """Return each card as dealt beside where the rules sent it, the cards so far as dealt."""
    dealt: list[DealtCard] = []
    rows = []
    bonus = view.bonus_on_table()
    for number, (_, event) in enumerate(view.cards, start=1):
        due = next_card(dealt, bonus, rule)
        flagged = event.bonus_only
        if flagged is None:  # the device did not say: as the rules deal it
            flagged = due is not None and due.bonus_only
        dealt.append(DealtCard(parse_card(event.card), event.hand, flagged))
        hand_cards = [d.card for d in dealt if d.hand is event.hand and not d.bonus_only]
        same = due is not None and (due.hand, due.bonus_only) == (event.hand, flagged)
        rows.append(CardRow(
            number, event.card, event.hand, flagged, describe_total(hand_cards),
            None if due is None else (due.hand, due.bonus_only), same,
        ))  # fmt: skip
    after = next_card(dealt, bonus, rule)
    return Cards(tuple(rows), None if after is None else after.hand)


def _card_facts(view: RoundView, cards: Cards) -> list[Compared]:
    """Return each card as data: the hand it went to beside the hand the rules sent it to."""
    facts = []
    for row, (_, event) in zip(cards.rows, view.cards, strict=True):
        got = row.hand.value + (" (Bonus only)" if row.bonus_only else "")
        want = "none: the hand was complete" if row.due is None else (
            row.due[0].value + (" (Bonus only)" if row.due[1] else ""))  # fmt: skip
        facts.append(Compared(
            f"card {row.number}", f"to {got}, {row.total}", want, row.same,
            pieces=(card_name(parse_card(event.card)),), at=event.occurred_at,
        ))  # fmt: skip
    if cards.owed is not None:
        facts.append(Compared("no more cards", "none dealt", f"{cards.owed.value} was owed one",
                              False))  # fmt: skip
    return facts


def _settlement(view: RoundView, result: RoundResult, paytable: BonusPaytable) -> list[Compared]:
    """Return each wager's settlement beside the engine's (PA 681a.8), by seat then bet."""
    recorded: dict[tuple[int, Bet], B21WagerSettled] = {
        (e.position, e.bet): e for _, e in view.settled
    }
    facts = []
    ordered = sorted(view.wagers().items(), key=lambda kv: (kv[0][0], kv[0][1].value))
    for (position, bet), amount in ordered:
        line = settle_wager(Wager(position, bet, amount), result, paytable)
        event = recorded.get((position, bet))
        expected = _money(line.outcome.value, line.paid, line.collected, line.returned)
        if view.voided is not None:
            expected = _money("returned", 0, 0, amount)
        shown = "not settled" if event is None else _money(
            event.outcome, to_cents(event.paid), to_cents(event.collected),
            to_cents(event.returned),
        )  # fmt: skip
        want = (0, 0, amount) if view.voided is not None else (
            line.paid, line.collected, line.returned)  # fmt: skip
        got = (0, 0, 0) if event is None else (
            to_cents(event.paid), to_cents(event.collected), to_cents(event.returned))  # fmt: skip
        names = ("paid", "collected", "returned")
        facts.append(Compared(
            f"seat {position} {bet.value.replace('_', ' ')}", shown, expected, shown == expected,
            amounts=(Amount("wager", amount), *(Amount(n, g, w) for n, g, w in zip(
                names, got, want, strict=True))),
            at=None if event is None else event.occurred_at,
        ))  # fmt: skip
    return facts


def _money(outcome: str, paid: Cents, collected: Cents, returned: Cents) -> str:
    if paid:
        return f"{outcome}, paid {dollars(paid)}"
    if collected:
        return f"{outcome}, collected {dollars(collected)}"
    return f"{outcome}, returned {dollars(returned)}"
