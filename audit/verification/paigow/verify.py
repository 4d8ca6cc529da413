"""Judge a round against its table's rules: the pure ``verify_round``, and a stream driver.

``verify_round(view, context)`` runs every check on one round and returns its
findings; it does no I/O. ``verify_stream(events)`` feeds a whole event stream
through it in order, keeping each table's context, for the offline command and
the projections alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from audit.events.envelope import Event
from audit.events.rounds import RoundCompleted
from audit.events.table import TableClosed
from audit.findings.finding import Finding
from audit.verification.paigow import (
    dealing_checks,
    rotation_checks,
    setting_checks,
    stream_checks,
    wager_checks,
)
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.emit import Check, Emit
from audit.verification.paigow.round_view import RoundView, view_round
from audit.verification.paigow.settlement import checks as settlement_checks

__all__ = [
    "CHECKS",
    "Check",
    "Emit",
    "PaiGowTableState",
    "StreamVerifier",
    "verify_round",
    "verify_stream",
]

CHECKS: tuple[Check, ...] = (
    *stream_checks.ROUND_CHECKS,
    *wager_checks.CHECKS,
    *dealing_checks.CHECKS,
    *setting_checks.CHECKS,
    *settlement_checks.CHECKS,
    *rotation_checks.CHECKS,
)
"""Every round check, in the order their findings are reported."""


def verify_round(view: RoundView, context: TableContext) -> list[Finding]:
    """Return every finding in one round, judged against its table's context. Pure."""
    emit = Emit(view, context)
    for check in CHECKS:
        check(view, context, emit)
    return emit.findings


@dataclass(frozen=True)
class PaiGowTableState:
    """One table's part of a :class:`StreamVerifier`: its context, open rounds and their copies."""

    context: TableContext | None
    open_rounds: dict[str, list[Event]]
    opened_with: dict[tuple[str, str], TableContext]


class StreamVerifier:
    """Judges a stream one event at a time, keeping each table's context and open rounds.

    A round is judged when its ``round_completed`` arrives. Rounds still open when
    their table closes (or when :meth:`finish` is called at the end of a finite
    stream) are judged as they stand and reported incomplete.
    """

    def __init__(self) -> None:
        self.contexts: dict[str, TableContext] = {}
        self.open_rounds: dict[str, dict[str, list[Event]]] = {}
        """Each table's open rounds, by round id: their events so far, in order.

        Kept table by table rather than by a (table, round) key: no key is built and
        hashed per event, and two tables' rounds never mix even under one round id."""
        self._opened_with: dict[tuple[str, str], TableContext] = {}
        """An open round's table as it stood when the round began, once the table has changed
        since: later rounds must not leak into the judging of a round closed out incomplete.
        Until the table changes, its live context is that (see :meth:`_keep_as_opened`)."""

    def feed(self, event: Event) -> list[Finding]:
        """Take one event; return the findings it completes (often none)."""
        # Filed here, not through feed_all: a one-event generator per fact, most of which
        # complete nothing, cost more than the filing itself.
        table_id, round_id = event.table_id, event.round_id
        if round_id is None:
            return self._table_event(table_id, event)
        rounds = self.open_rounds.get(table_id)
        if rounds is None:
            rounds = self.open_rounds[table_id] = {}
        found = rounds.get(round_id)
        if found is None:  # the round's first event: it is judged against this table
            self._context(table_id)
            found = rounds[round_id] = []
        found.append(event)
        # By exact class, not isinstance: the catalogue's classes are never subclassed
        # (test_round_view.py holds it).
        if type(event) is RoundCompleted:
            return self._judge(table_id, round_id, rounds, found)
        return []

    def feed_all(self, events: Iterable[Event]) -> Iterator[Finding]:
        """Take events in order, yielding the findings each completes as it completes them."""
        feed = self.feed
        for event in events:
            yield from feed(event)

    def _judge(
        self, table_id: str, round_id: str, rounds: dict[str, list[Event]], events: list[Event]
    ) -> list[Finding]:
        """Judge a round its ``round_completed`` closed, then keep the table's books."""
        del rounds[round_id]
        if self._opened_with:
            self._opened_with.pop((table_id, round_id), None)
        context = self.contexts[table_id]
        view = view_round(events)
        judged = verify_round(view, context)
        if rounds:  # another round open at this table while this one ended: rare
            self._keep_as_opened(table_id, rounds)
        stream_checks.after_round(view, judged, context)
        rotation_checks.after_round(view, context)
        return judged

    def _context(self, table_id: str) -> TableContext:
        context = self.contexts.get(table_id)
        if context is None:  # not setdefault: that would build a throwaway context each call
            context = self.contexts[table_id] = TableContext(table_id)
        return context

    def _table_event(self, table_id: str, event: Event) -> list[Finding]:
        context = self._context(table_id)
        # The ingest's observations are table-level events (TableEvent): judged here.
        findings = stream_checks.check_event(event, context)
        if isinstance(event, TableClosed):
            findings += self._close_rounds(table_id)
        rounds = self.open_rounds.get(table_id)
        if rounds:
            self._keep_as_opened(table_id, rounds)
        context.observe(event)
        return findings

    def _keep_as_opened(self, table_id: str, rounds: dict[str, list[Event]]) -> None:
        """Copy the table as it stands for each open round not yet holding a copy: it is about
        to change.

        A table's context changes only here, through a table event or a judged round's
        bookkeeping, and each change is preceded by this: so until a round holds a copy, the
        live context is still the table as the round found it. A copy is taken only when a
        round is open across a change, not at every round's start.
        """
        context = self.contexts[table_id]
        for round_id in rounds:
            if (table_id, round_id) not in self._opened_with:
                self._opened_with[table_id, round_id] = context.snapshot()

    def table_state(self, table_id: str) -> PaiGowTableState:
        """Return all this verifier holds of one table: what a replay starting here needs."""
        return PaiGowTableState(
            self.contexts.get(table_id),
            self.open_rounds.get(table_id, {}),
            {key: held for key, held in self._opened_with.items() if key[0] == table_id},
        )

    def restore_table(self, table_id: str, state: PaiGowTableState) -> None:
        """Take up a table as :meth:`table_state` returned it (a replay's starting point)."""
        if state.context is not None:
            self.contexts[table_id] = state.context
        if state.open_rounds:
            self.open_rounds[table_id] = state.open_rounds
        self._opened_with.update(state.opened_with)

    def finish(self) -> list[Finding]:
        """Judge every round still open, as the stream ends, table by table as first seen."""
        findings: list[Finding] = []
        for table_id in list(self.open_rounds):
            findings += self._close_rounds(table_id)
        return findings

    def _close_rounds(self, table_id: str) -> list[Finding]:
        findings: list[Finding] = []
        for round_id, events in self.open_rounds.pop(table_id, {}).items():
            view = view_round(events)
            context = self._opened_with.pop((table_id, round_id), None) or self.contexts[table_id]
            findings += verify_round(view, context)
            findings += stream_checks.incomplete(view, context)
        return findings


def verify_stream(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a finite stream of events in order: each round as it ends, open rounds at the end."""
    verifier = StreamVerifier()
    yield from verifier.feed_all(events)
    yield from verifier.finish()
