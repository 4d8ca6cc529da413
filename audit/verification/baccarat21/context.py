"""What verification knows about a 21 Baccarat table: its rules, its dealer, and its shoe.

A :class:`B21TableContext` is built from the table's own events in order, so offline
replay and the projections judge alike. The shoe's state spans rounds (a burn owed,
a reshuffle due, the cards out of it so far), so it follows every fact of the table,
table-level and round alike.

The shoe's composition (PA 681a.3(a)): four or eight decks hold each card four or
eight times. Every card seen leaving the shoe since it was loaded is counted (a
burn whose card was read, a face-up card discarded, a card dealt); one more copy
than the decks hold is a card the shoe cannot hold. The decks are the table's
(its options), or the last shuffle's where that recorded another count (itself
``B21-SHOE-DECKS``): the shoe holds what was shuffled into it.

The daily deck change (PA 681a.3(c)): a batch's decks are opened for use with the
shuffle that records ``new_decks``; a card dealt from them more than 24 hours later
breaks the rule, reported once until that batch's decks are changed. A batch whose
opening was never recorded is not judged: nothing says when it began.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from audit.events.envelope import Event
from audit.games.baccarat21.cards import Card, parse_card
from audit.games.baccarat21.options import OptionProblem, read_options
from audit.games.baccarat21.rulesets import PA_681A, RuleSet
from audit.games.baccarat21.shoe import ShoeEvent, ShoeProcedure

DECK_LIFE = timedelta(hours=24)
"""PA 681a.3(c): the decks opened for use are changed "at least once every 24 hours"."""

_SHOE_EVENTS = {
    "dealer_changed": ShoeEvent.DEALER_CHANGED,
    "card_burned": ShoeEvent.BURNED,
    "b21_card_dealt": ShoeEvent.DEALT,
    "cover_card_appeared": ShoeEvent.COVER_CARD,
    "round_completed": ShoeEvent.ROUND_ENDED,
}


@dataclass
class B21TableContext:
    """One table's state as its events told it."""

    table_id: str
    ruleset: RuleSet = PA_681A
    dealer_id: str | None = None
    gaming_day: str | None = None
    """The gaming day the table last opened for (ISO date), as the MGR files its rounds."""
    shoe: ShoeProcedure = field(default_factory=ShoeProcedure)
    decks: int = PA_681A.decks
    """The decks in the shoe: the table's, or the last shuffle's (PA 681a.3(a))."""
    out: Counter[Card] = field(default_factory=Counter)
    """Each card seen leaving the shoe since it was loaded."""
    problems: tuple[OptionProblem, ...] = ()
    """The options the table opened with that the rules do not allow."""
    opened: dict[int, datetime] = field(default_factory=dict)
    """When each batch's decks were opened for use (PA 681a.3(c)), where recorded."""
    stale: set[int] = field(default_factory=set)
    """Batches already reported as dealt past their 24 hours."""

    def observe(self, event: Event) -> tuple[str, ...]:
        """Update the context with one event; return the shoe rules it breaks (rule keys)."""
        kind = event.type_name()
        if kind == "table_opened":
            self.ruleset, self.problems = read_options(event.rule_set, dict(event.options))  # type: ignore[attr-defined]
            self.dealer_id = event.dealer_id  # type: ignore[attr-defined]
            self.gaming_day = event.gaming_day.isoformat()  # type: ignore[attr-defined]
            self.shoe = ShoeProcedure(batches=self.ruleset.batches)
            self.decks, self.out = self.ruleset.decks, Counter()
            return ()
        if kind == "dealer_changed":
            self.dealer_id = event.incoming_dealer_id  # type: ignore[attr-defined]
        if kind == "shoe_shuffled":
            self.decks = event.decks  # type: ignore[attr-defined]
            if event.new_decks:  # type: ignore[attr-defined]
                self.opened[event.batch] = event.occurred_at  # type: ignore[attr-defined]
                self.stale.discard(event.batch)  # type: ignore[attr-defined]
        if kind == "shoe_loaded":
            self.out = Counter()
            self.shoe, breaches = self.shoe.apply(ShoeEvent.LOADED, batch=event.batch)  # type: ignore[attr-defined]
            return breaches
        composition = self._take(event) + self._deck_age(event)
        if kind == "card_found_face_up":
            used = event.disposition == "dealt"  # type: ignore[attr-defined]
            shoe_event = ShoeEvent.FACE_UP_DEALT if used else ShoeEvent.FACE_UP_DISCARDED
        else:
            shoe_event = _SHOE_EVENTS.get(kind)  # type: ignore[assignment]
        if shoe_event is None:
            return composition
        self.shoe, breaches = self.shoe.apply(shoe_event)
        return breaches + composition

    def _deck_age(self, event: Event) -> tuple[str, ...]:
        """Return ``deck-change`` for the first card dealt from decks opened over 24 hours ago."""
        batch = self.shoe.batch
        if event.type_name() != "b21_card_dealt" or batch not in self.opened:
            return ()
        if batch in self.stale or event.occurred_at - self.opened[batch] <= DECK_LIFE:
            return ()
        self.stale.add(batch)
        return ("deck-change",)

    def _take(self, event: Event) -> tuple[str, ...]:
        """Count a card seen leaving the shoe; ``shoe-composition`` if the decks cannot hold it.

        A face-up card that is dealt is counted once, as the card dealt after it.
        """
        name = getattr(event, "card", None)
        if name is None or getattr(event, "disposition", None) == "dealt":
            return ()
        card = parse_card(name)
        self.out[card] += 1
        return ("shoe-composition",) if self.out[card] > self.decks else ()
