"""Judge 21 Baccarat rounds against their table's rules: ``verify_b21_round`` and a stream driver.

:class:`StreamVerifier` has the interface of the Pai Gow one
(``feed(event) -> list[Finding]``, ``finish() -> list[Finding]``) and takes every
stored fact of the 21 Baccarat tables, in order:

- the shoe is followed fact by fact, since its state spans rounds: a breach of the
  cut, the cover card, the batches (table level), the burn, the reshuffle or a
  face-up card used (in a round) is reported as its fact arrives;
- a round is judged when its ``round_completed`` arrives: wagers, cards, settlement;
- rounds still open when their table closes, or when :meth:`StreamVerifier.finish`
  is called, are judged as they stand and reported incomplete;
- the ingest's observations (a sequence gap, a reused event id) are reported too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from audit.events.baccarat21.shoe import ShoeCut, ShoeShuffled
from audit.events.envelope import Event
from audit.findings.finding import Finding, Money
from audit.games.baccarat21.cards import parse_card
from audit.games.baccarat21.shoe import COVER_MARGIN
from audit.verification.baccarat21.bonus_card_checks import check_bonus_cards
from audit.verification.baccarat21.context import B21TableContext
from audit.verification.baccarat21.drawing_checks import walk_deal
from audit.verification.baccarat21.emit import Emit
from audit.verification.baccarat21.kinds import KINDS
from audit.verification.baccarat21.round_view import B21RoundView, view_b21_round
from audit.verification.baccarat21.settlement_checks import check_settlement
from audit.verification.baccarat21.wager_checks import check_wagers
from audit.verification.record_kinds import observation

SHOE_BREACHES = {
    "burn": "B21-SHOE-NO-BURN",
    "reshuffle": "B21-SHOE-NO-RESHUFFLE",
    "face-up-card": "B21-SHOE-FACE-UP-USED",
    "batches": "B21-SHOE-BATCH",
    "shoe-composition": "B21-SHOE-CARD-EXCESS",
    "deck-change": "B21-SHOE-DECKS-UNCHANGED",
}
"""The engine's shoe rule keys (audit/games/baccarat21/shoe.py) -> finding codes."""


def verify_b21_round(view: B21RoundView, context: B21TableContext) -> list[Finding]:
    """Return every finding in one round's wagers, cards and settlement. Pure."""
    emit = Emit(
        context.table_id, context.ruleset, view.round_id, view.dealer_id or context.dealer_id,
        context.gaming_day, view.events,
    )  # fmt: skip
    check_wagers(view, emit)
    rules = context.ruleset
    deal, unflagged = walk_deal(view, rules.draw_rule, emit, rules.draw_order)
    check_bonus_cards(view, deal, unflagged, context.ruleset, emit)
    check_settlement(view, deal, context.ruleset, emit)
    return emit.findings


def _check_shoe_setup(event: Event, emit: Emit) -> None:
    """Judge a shuffle's decks and a cut's cover cards (PA 681a.3(a), 681a.5(c)-(d))."""
    if isinstance(event, ShoeShuffled) and event.decks != emit.ruleset.decks:
        emit(
            "B21-SHOE-DECKS",
            events=[event],
            recorded=f"{event.decks} decks shuffled",
            expected=f"{emit.ruleset.decks} decks, as the table opened",
        )
    elif isinstance(event, ShoeCut):
        size, at, bottom = event.stack_size, event.cut_at, event.cover_from_bottom
        if not COVER_MARGIN <= at <= size - COVER_MARGIN:
            emit(
                "B21-SHOE-CUT",
                events=[event],
                recorded=f"cut {at} cards from the top of {size}",
                expected=f"at least {COVER_MARGIN} cards from the top and the bottom",
            )
        if bottom < COVER_MARGIN:
            emit(
                "B21-SHOE-COVER-CARD",
                events=[event],
                recorded=f"cover card {bottom} cards above the bottom",
                expected=f"at least {COVER_MARGIN} cards above the bottom",
            )


@dataclass(frozen=True)
class B21TableState:
    """One table's part of a :class:`StreamVerifier`: its context, open rounds and their copies."""

    context: B21TableContext | None
    open_rounds: dict[tuple[str, str], list[Event]]
    opened_with: dict[tuple[str, str], B21TableContext]


class StreamVerifier:
    """Judges the 21 Baccarat tables' facts one at a time, keeping each table's context."""

    def __init__(self) -> None:
        self.contexts: dict[str, B21TableContext] = {}
        self.open_rounds: dict[tuple[str, str], list[Event]] = {}
        self._opened_with: dict[tuple[str, str], B21TableContext] = {}
        """Each open round's table as it stood when the round began."""

    def feed(self, event: Event) -> list[Finding]:
        """Take one fact; return the findings it completes (often none)."""
        context = self.contexts.setdefault(event.table_id, B21TableContext(event.table_id))
        if event.round_id is None:
            return self._table_event(event, context)
        key = (event.table_id, event.round_id)
        if key not in self.open_rounds:
            self._opened_with[key] = replace(context)
        round_events = self.open_rounds.setdefault(key, [])
        round_events.append(event)
        findings = self._shoe(event, context, round_events)
        if event.type_name() == "round_completed":
            view = view_b21_round(self.open_rounds.pop(key))
            findings += verify_b21_round(view, self._opened_with.pop(key, context))
        return findings

    def table_state(self, table_id: str) -> B21TableState:
        """Return all this verifier holds of one table: what a replay starting here needs."""
        return B21TableState(
            self.contexts.get(table_id),
            {key: held for key, held in self.open_rounds.items() if key[0] == table_id},
            {key: held for key, held in self._opened_with.items() if key[0] == table_id},
        )

    def restore_table(self, table_id: str, state: B21TableState) -> None:
        """Take up a table as :meth:`table_state` returned it (a replay's starting point)."""
        if state.context is not None:
            self.contexts[table_id] = state.context
        self.open_rounds.update(state.open_rounds)
        self._opened_with.update(state.opened_with)

    def finish(self) -> list[Finding]:
        """Judge every round still open, as the stream ends."""
        findings: list[Finding] = []
        for table_id in sorted({table for table, _ in self.open_rounds}):
            findings += self._close_rounds(table_id)
        return findings

    def _table_event(self, event: Event, context: B21TableContext) -> list[Finding]:
        kind = event.type_name()
        emit = Emit(event.table_id, context.ruleset, None, context.dealer_id, context.gaming_day)
        observed = observation(event)
        if observed is not None:
            code, recorded, expected = observed
            emit(code, events=[event], recorded=recorded, expected=expected)
        if kind == "table_closed":
            emit.findings += self._close_rounds(event.table_id)
        _check_shoe_setup(event, emit)
        breaches = context.observe(event)
        emit.gaming_day = context.gaming_day  # a table's opening names its day
        if kind == "table_opened":
            for problem in context.problems:  # recorded as opened, judged, never refused
                emit(
                    "B21-TABLE-OPTIONS",
                    events=[event],
                    rule_key=problem.rule_key,
                    recorded=problem.recorded,
                    expected=problem.expected,
                )
        for key in breaches:  # at the table: a shoe loaded, or a card burned
            emit(
                SHOE_BREACHES[key],
                events=[event],
                recorded=_shoe_recorded(key, event, context),
                expected=_shoe_expected(key, context),
            )
        return emit.findings

    def _shoe(
        self, event: Event, context: B21TableContext, round_events: list[Event]
    ) -> list[Finding]:
        breaches = context.observe(event)
        if not breaches:
            return []
        view = view_b21_round(round_events)
        emit = Emit(
            event.table_id, context.ruleset, event.round_id, view.dealer_id or context.dealer_id,
            context.gaming_day, round_events,
        )  # fmt: skip
        for key in breaches:
            code = SHOE_BREACHES[key]
            # A card that may not be used, or one more than the decks hold, decides the round
            # wrongly (at stake); the other shoe breaches leave its money right (exposure).
            staked, wrong = view.staked(), KINDS[code].money is Money.AT_STAKE
            emit(
                code,
                events=[event],
                at_stake=staked if wrong else 0,
                exposure=0 if wrong else staked,
                recorded=_shoe_recorded(key, event, context),
                expected=_shoe_expected(key, context),
            )
        return emit.findings

    def _close_rounds(self, table_id: str) -> list[Finding]:
        findings: list[Finding] = []
        for key in [k for k in self.open_rounds if k[0] == table_id]:
            view = view_b21_round(self.open_rounds.pop(key))
            context = self._opened_with.pop(key, None) or self.contexts[table_id]
            findings += verify_b21_round(view, context)
            if view.completed is None:
                emit = Emit(
                    table_id, context.ruleset, view.round_id,
                    view.dealer_id or context.dealer_id, context.gaming_day, view.events,
                )  # fmt: skip
                last = view.events[-1]
                emit(
                    "DATA-ROUND-INCOMPLETE",
                    events=[last],
                    recorded=f"last recorded: {last.type_name()}",
                    expected="round_completed",
                )
                findings += emit.findings
        return findings


_SHOE_RECORDED = {
    "burn": "{} dealt with no card burned first",
    "reshuffle": "{} dealt from a shoe whose cover card came out in an earlier round",
    "face-up-card": "{}, found face up in the shoe, dealt to a hand",
    "batches": "batch {} loaded for two shoes running",
    "shoe-composition": "{} out of the shoe",
    "deck-change": "{} dealt from decks opened for use more than 24 hours before",
}
_SHOE_EXPECTED = {
    "burn": "the first card after a shoe is loaded, and a new dealer's first card, burned",
    "reshuffle": "the round the cover card came out in completed, then the cards reshuffled",
    "face-up-card": "the card not used in that round: to the discard rack",
    "batches": "the two batches alternate, each used for every other dealing shoe",
    "shoe-composition": "each card at most {0} times from {0} decks (PA 681a.3(a))",
    "deck-change": "the decks changed at least once every 24 hours",
}


def _shoe_recorded(key: str, event: Event, context: B21TableContext) -> str:
    if key == "batches":
        return _SHOE_RECORDED[key].format(getattr(event, "batch", "?"))
    card = getattr(event, "card", None)
    recorded = _SHOE_RECORDED[key].format(card or event.type_name())
    if key == "shoe-composition" and card is not None:
        recorded += f", copy {context.out[parse_card(card)]} since the shoe was loaded"
    return recorded


def _shoe_expected(key: str, context: B21TableContext) -> str:
    return _SHOE_EXPECTED[key].format(context.decks)


def verify_b21_stream(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a finite stream of 21 Baccarat facts in order, then its open rounds."""
    verifier = StreamVerifier()
    for event in events:
        yield from verifier.feed(event)
    yield from verifier.finish()
