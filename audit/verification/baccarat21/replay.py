"""The analyst's replay of one 21 Baccarat round, card by card. Pure.

Steps, each with the findings that concern it:

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

from collections.abc import Iterable, Sequence

from audit.events.baccarat21.wagers import B21WagerSettled
from audit.events.envelope import Event
from audit.findings.finding import Finding
from audit.games.baccarat21.bonus import BonusPaytable
from audit.games.baccarat21.cards import card_name, parse_card
from audit.games.baccarat21.drawing import DealtCard, DrawRule, Hand, next_card
from audit.games.baccarat21.hands import describe_total
from audit.games.baccarat21.settlement import Bet, RoundResult, Wager, settle_wager
from audit.games.money import Cents, to_cents
from audit.verification.baccarat21.context import B21TableContext
from audit.verification.baccarat21.drawing_checks import judge_deal
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.kinds import KINDS
from audit.verification.baccarat21.round_view import B21RoundView, view_b21_round
from audit.verification.baccarat21.verify import StreamVerifier
from audit.verification.replay_model import (
    MISMATCH,
    Amount,
    Compared,
    RoundReplay,
    Step,
    dollars,
    first_time,
    locate_round,
    mark,
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


def replay_b21_round(
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
    context = verifier.contexts.get(table) or B21TableContext(table)
    view = view_b21_round(stream[i] for i in mine)
    return _build(view, context, findings)


def _build(view: B21RoundView, context: B21TableContext, findings: list[Finding]) -> RoundReplay:
    rules = context.ruleset
    lines: dict[str, list[str]] = {
        "round": [
            f"table {view.table_id}, round {view.round_id}, dealer "
            f"{view.dealer_id or context.dealer_id or '-'}",
            f"rules {rules.name}: {rules.decks} decks, Bonus paytable {rules.paytable.letter}, "
            f"drawing {rules.draw_rule.value.replace('_', ' ')}",
        ],
        "wagers": _wagers(view),
        "cards": _cards(view, rules.draw_rule),
    }
    facts: dict[str, list[Compared]] = {kind: [] for kind, _ in STEPS}
    if view.events:
        facts["round"].append(
            Compared("started", f"dealer {view.dealer_id or context.dealer_id or '-'}",
                     at=view.events[0].occurred_at)
        )  # fmt: skip
    facts["wagers"] = _wager_facts(view)
    facts["cards"] = _card_facts(view, rules.draw_rule)
    emit = Emit(view.table_id, rules, view.round_id)
    deal = judge_deal(view, rules.draw_rule, emit, rules.draw_order)
    result = RoundResult.from_deal(deal)
    lines["result"] = [
        f"Player's Hand {_hand(deal.hand_cards(Hand.PLAYER))}, "
        f"Banker's Hand {_hand(deal.hand_cards(Hand.BANKER))}: {result.winner.value}",
        f"Bonus: Player {result.player_bonus.value.replace('_', ' ')}, "
        f"Banker {result.banker_bonus.value.replace('_', ' ')}",
    ]
    facts["result"] = [
        Compared(f"{hand.value.capitalize()}'s Hand", describe_total(deal.hand_cards(hand)),
                 pieces=tuple(card_name(c) for c in deal.hand_cards(hand)))
        for hand in (Hand.PLAYER, Hand.BANKER)
    ]  # fmt: skip
    lines["settlement"] = _settlement(view, result, rules.paytable, facts["settlement"])
    if view.voided is not None:
        lines["result"].append(f"round voided: {view.voided.reason}")
    placed: dict[str, list[Finding]] = {kind: [] for kind, _ in STEPS}
    for finding in findings:
        placed[step_for(finding.code)].append(finding)
    steps = tuple(
        Step(
            kind,
            title,
            tuple(lines.get(kind, [])),
            tuple(placed[kind]),
            tuple(facts[kind]),
            first_time(facts[kind]),
        )
        for kind, title in STEPS
        if lines.get(kind) or placed[kind]
    )
    return RoundReplay(view.table_id, view.round_id, steps, SEATS, "baccarat21")


def _hand(cards: Sequence[int]) -> str:
    shown = " ".join(card_name(c) for c in cards) or "-"
    return f"{shown} ({describe_total(cards)})" if cards else shown


def _wagers(view: B21RoundView) -> list[str]:
    first = view.first_card
    rows = []
    for index, event in view.placed:
        late = first is not None and index > first
        when = "  AFTER THE FIRST CARD" if late else ""
        rows.append(f"seat {event.position}: {event.bet.value.replace('_', ' ')} "
                    f"{dollars(to_cents(event.amount))}{when}")  # fmt: skip
    return rows or ["no wagers"]


def _wager_facts(view: B21RoundView) -> list[Compared]:
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


def _card_facts(view: B21RoundView, rule: DrawRule) -> list[Compared]:
    """Return each card as data: the hand it went to beside the hand the rules sent it to."""
    dealt: list[DealtCard] = []
    facts = []
    bonus = view.bonus_on_table()
    for number, (_, event) in enumerate(view.cards, start=1):
        due = next_card(dealt, bonus, rule)
        flagged = event.bonus_only
        if flagged is None:  # the device did not say: as the rules deal it
            flagged = due is not None and due.bonus_only
        dealt.append(DealtCard(parse_card(event.card), event.hand, flagged))
        hand_cards = [d.card for d in dealt if d.hand is event.hand and not d.bonus_only]
        got = event.hand.value + (" (Bonus only)" if flagged else "")
        want = "none: the hand was complete" if due is None else (
            due.hand.value + (" (Bonus only)" if due.bonus_only else ""))  # fmt: skip
        same = due is not None and (due.hand, due.bonus_only) == (event.hand, flagged)
        facts.append(Compared(
            f"card {number}", f"to {got}, {describe_total(hand_cards)}", want, same,
            pieces=(card_name(parse_card(event.card)),), at=event.occurred_at,
        ))  # fmt: skip
    after = next_card(dealt, bonus, rule)
    if after is not None:
        facts.append(Compared("no more cards", "none dealt", f"{after.hand.value} was owed one",
                              False))  # fmt: skip
    return facts


def _cards(view: B21RoundView, rule: DrawRule) -> list[str]:
    dealt: list[DealtCard] = []
    rows = []
    bonus = view.bonus_on_table()
    for number, (_, event) in enumerate(view.cards, start=1):
        due = next_card(dealt, bonus, rule)
        flagged = event.bonus_only
        if flagged is None:  # the device did not say: as the rules deal it
            flagged = due is not None and due.bonus_only
        card = DealtCard(parse_card(event.card), event.hand, flagged)
        dealt.append(card)
        hand_cards = [d.card for d in dealt if d.hand is event.hand and not d.bonus_only]
        want = "none: the hand was complete" if due is None else (
            f"{due.hand.value}" + (" (Bonus only)" if due.bonus_only else ""))  # fmt: skip
        got = event.hand.value + (" (Bonus only)" if flagged else "")
        same = due is not None and (due.hand, due.bonus_only) == (event.hand, flagged)
        rows.append(f"{number:>2}. {event.card:<3} to {got:<20} {describe_total(hand_cards):<9} "
                    f"rules: {want:<20} {mark(same)}")  # fmt: skip
    after = next_card(dealt, bonus, rule)
    if after is not None:
        rows.append(f"    no more cards; rules: {after.hand.value} was owed one   {MISMATCH}")
    return rows or ["no cards dealt"]


def _settlement(
    view: B21RoundView, result: RoundResult, paytable: BonusPaytable, facts: list[Compared]
) -> list[str]:
    """Return each wager's settlement beside the engine's (PA 681a.8); note each in ``facts``."""
    recorded: dict[tuple[int, Bet], B21WagerSettled] = {
        (e.position, e.bet): e for _, e in view.settled
    }
    rows = []
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
        rows.append(f"seat {position} {bet.value.replace('_', ' ')} {dollars(amount)}: "
                    f"recorded {shown}; engine {expected}  {mark(shown == expected)}")  # fmt: skip
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
    return rows or ["nothing to settle"]


def _money(outcome: str, paid: Cents, collected: Cents, returned: Cents) -> str:
    if paid:
        return f"{outcome}, paid {dollars(paid)}"
    if collected:
        return f"{outcome}, collected {dollars(collected)}"
    return f"{outcome}, returned {dollars(returned)}"
