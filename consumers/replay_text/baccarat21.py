"""A 21 Baccarat replay's steps as text: the round, the wagers, the cards one by one beside
where the rules sent them, the totals and Bonus hands, each settlement beside the engine's.

Each step is drawn from its reading (audit/verification/baccarat21/replay.py); the
settlement from its compared facts, which say all a row shows. Rows are laid out to fit
``tablewatch replay``'s columns once indented.
"""

from __future__ import annotations

from collections.abc import Sequence

from audit.games.baccarat21.drawing import Hand
from audit.verification.baccarat21.replay import Cards, Heading, Outcome, PlacedWager, Wagers
from audit.verification.replay_model import Compared, RoundReplay, Step, dollars
from consumers.replay_text.marks import MISMATCH, mark


def step_lines(replay: RoundReplay, step: Step) -> tuple[str, ...]:
    """Return one step of a 21 Baccarat replay as lines of text (seats name themselves).

    >>> from audit.games.baccarat21.drawing import DrawRule
    >>> heading = Heading("B21-01", "B21-01-0001", None, "pa", 8, "A", DrawRule.ONE_CARD)
    >>> replay = RoundReplay("B21-01", "B21-01-0001", (), game="baccarat21")
    >>> for line in step_lines(replay, Step("round", "The round", reading=heading)):
    ...     print(line)
    table B21-01, round B21-01-0001, dealer -
    rules pa: 8 decks, Bonus paytable A, drawing one card
    """
    match step.reading:
        case Heading() as heading:
            return _heading(heading)
        case Wagers() as placed:
            return _wagers(placed.placed)
        case Cards() as cards:
            return _cards(cards)
        case Outcome() as outcome:
            return _outcome(outcome)
    if step.kind == "settlement":
        return _settlement(step.facts)
    return ()  # "other": its findings alone


def _heading(heading: Heading) -> tuple[str, ...]:
    return (
        f"table {heading.table_id}, round {heading.round_id}, dealer {heading.dealer_id or '-'}",
        f"rules {heading.rules}: {heading.decks} decks, Bonus paytable {heading.paytable}, "
        f"drawing {heading.drawing.value.replace('_', ' ')}",
    )


def _wagers(placed: Sequence[PlacedWager]) -> tuple[str, ...]:
    rows = []
    for wager in placed:
        when = "  AFTER THE FIRST CARD" if wager.late else ""
        rows.append(f"seat {wager.position}: {wager.bet.value.replace('_', ' ')} "
                    f"{dollars(wager.amount)}{when}")  # fmt: skip
    return tuple(rows) or ("no wagers",)


def _to(hand: Hand, bonus_only: bool) -> str:
    return hand.value + (" (Bonus only)" if bonus_only else "")


def _cards(cards: Cards) -> tuple[str, ...]:
    rows = []
    for row in cards.rows:
        want = "none: the hand was complete" if row.due is None else _to(*row.due)
        rows.append(f"{row.number:>2}. {row.card:<3} to {_to(row.hand, row.bonus_only):<20} "
                    f"{row.total:<9} rules: {want:<20} {mark(row.same)}")  # fmt: skip
    if cards.owed is not None:
        rows.append(f"    no more cards; rules: {cards.owed.value} was owed one   {MISMATCH}")
    return tuple(rows) or ("no cards dealt",)


def _hand(cards: Sequence[str], total: str) -> str:
    return f"{' '.join(cards)} ({total})" if cards else "-"


def _outcome(outcome: Outcome) -> tuple[str, ...]:
    lines = (
        f"Player's Hand {_hand(outcome.player, outcome.player_total)}, "
        f"Banker's Hand {_hand(outcome.banker, outcome.banker_total)}: {outcome.winner.value}",
        f"Bonus: Player {outcome.player_bonus.value.replace('_', ' ')}, "
        f"Banker {outcome.banker_bonus.value.replace('_', ' ')}",
    )
    if outcome.voided is not None:
        return (*lines, f"round voided: {outcome.voided}")
    return lines


def _settlement(facts: Sequence[Compared]) -> tuple[str, ...]:
    """Return each wager's settlement beside the engine's (PA 681a.8): a fact a row."""
    rows = []
    for fact in facts:
        wager = fact.amounts[0].recorded or 0  # each settlement fact's first sum is the wager
        rows.append(f"{fact.label} {dollars(wager)}: recorded {fact.recorded}; "
                    f"engine {fact.expected}  {mark(bool(fact.same))}")  # fmt: skip
    return tuple(rows) or ("nothing to settle",)
