"""Judge a round against its table's rules: the pure ``verify_round``, and a stream driver.

``verify_round(view, context)`` runs every check on one round and returns its
findings; it does no I/O. ``verify_stream(events)`` feeds a whole event stream
through it in order, keeping each table's context, for the offline command and
the projections alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from audit.events.envelope import Event
from audit.verification.findings import ZERO, Finding
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.kinds import KINDS
from audit.verification.paigow.round_view import RoundView, view_round


@dataclass
class Emit:
    """Collects findings for one round, citing each in the table's jurisdiction."""

    view: RoundView | None
    context: TableContext
    findings: list[Finding] = field(default_factory=list)

    def __call__(
        self,
        code: str,
        *,
        recorded: str,
        expected: str,
        position: int | None = None,
        at_stake: Decimal = ZERO,
        events: Iterable[Event] = (),
        rule_key: str | None = None,
    ) -> None:
        """Record one finding of kind ``code``; a rule the jurisdiction lacks yields none."""
        kind = KINDS[code]
        citations = self.context.ruleset.citations
        rule = citations.get(rule_key or kind.rule_key)
        if rule is None:
            return  # this table's rules have no such rule: nothing to break
        shown = list(events)
        evidence = tuple(str(e.event_id) for e in shown)
        first = shown[0] if shown else None
        self.findings.append(
            Finding(
                code=code,
                severity=kind.severity,
                rule=rule,
                title=kind.title,
                table_id=self.context.table_id,
                round_id=self.view.round_id if self.view else None,
                position=position,
                dealer_id=(self.view.dealer_id if self.view else None) or self.context.dealer_id,
                recorded=recorded,
                expected=expected,
                at_stake=at_stake.quantize(Decimal("0.01")),
                event_ids=evidence,
                occurred_at=first.occurred_at.isoformat() if first is not None else None,
            )
        )


Check = Callable[[RoundView, TableContext, Emit], None]


def _checks() -> tuple[Check, ...]:
    # Imported here so each check module can import this one's Emit without a cycle.
    from audit.verification.paigow import (
        dealing_checks,
        rotation_checks,
        setting_checks,
        settlement_checks,
        stream_checks,
        wager_checks,
    )

    return (
        *stream_checks.ROUND_CHECKS,
        *wager_checks.CHECKS,
        *dealing_checks.CHECKS,
        *setting_checks.CHECKS,
        *settlement_checks.CHECKS,
        *rotation_checks.CHECKS,
    )


def verify_round(view: RoundView, context: TableContext) -> list[Finding]:
    """Return every finding in one round, judged against its table's context. Pure."""
    emit = Emit(view, context)
    for check in _checks():
        check(view, context, emit)
    return emit.findings


class StreamVerifier:
    """Judges a stream one event at a time, keeping each table's context and open rounds.

    A round is judged when its ``round_completed`` arrives. Rounds still open when
    their table closes (or when :meth:`finish` is called at the end of a finite
    stream) are judged as they stand and reported incomplete.
    """

    def __init__(self) -> None:
        self.contexts: dict[str, TableContext] = {}
        self.open_rounds: dict[tuple[str, str], list[Event]] = {}
        self._opened_with: dict[tuple[str, str], TableContext] = {}
        """Each open round's table as it stood when the round began: later rounds must not
        leak into the judging of a round that is closed out incomplete."""

    def feed(self, event: Event) -> list[Finding]:
        """Take one event; return the findings it completes (often none)."""
        from audit.verification.paigow import rotation_checks, stream_checks

        context = self.contexts.setdefault(event.table_id, TableContext(event.table_id))
        findings = stream_checks.check_event(event, context)
        if event.round_id is None:
            if event.type_name() == "table_closed":
                findings += self._close_rounds(event.table_id)
            context.observe(event)
            return findings
        key = (event.table_id, event.round_id)
        if key not in self.open_rounds:
            self._opened_with[key] = context.snapshot()
        self.open_rounds.setdefault(key, []).append(event)
        if event.type_name() == "round_completed":
            self._opened_with.pop(key, None)
            view = view_round(self.open_rounds.pop(key))
            judged = verify_round(view, context)
            stream_checks.after_round(view, judged, context)
            rotation_checks.after_round(view, context)
            findings += judged
        return findings

    def finish(self) -> list[Finding]:
        """Judge every round still open, as the stream ends."""
        findings: list[Finding] = []
        for table_id in {table for table, _ in self.open_rounds}:
            findings += self._close_rounds(table_id)
        return findings

    def _close_rounds(self, table_id: str) -> list[Finding]:
        from audit.verification.paigow import stream_checks

        findings: list[Finding] = []
        for key in [k for k in self.open_rounds if k[0] == table_id]:
            view = view_round(self.open_rounds.pop(key))
            context = self._opened_with.pop(key, None) or self.contexts[table_id]
            findings += verify_round(view, context)
            findings += stream_checks.incomplete(view, context)
        return findings


def verify_stream(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a finite stream of events in order: each round as it ends, open rounds at the end."""
    verifier = StreamVerifier()
    for event in events:
        yield from verifier.feed(event)
    yield from verifier.finish()
