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


def verify_stream(events: Iterable[Event]) -> Iterator[Finding]:
    """Judge a stream of events in order: each round when it ends, table facts as they come."""
    from audit.verification.paigow import rotation_checks, stream_checks

    contexts: dict[str, TableContext] = {}
    open_rounds: dict[tuple[str, str], list[Event]] = {}
    for event in events:
        context = contexts.setdefault(event.table_id, TableContext(event.table_id))
        yield from stream_checks.check_event(event, context)
        if event.round_id is None:
            context.observe(event)
            continue
        key = (event.table_id, event.round_id)
        round_events = open_rounds.setdefault(key, [])
        round_events.append(event)
        if event.type_name() == "round_completed":
            view = view_round(open_rounds.pop(key))
            findings = verify_round(view, context)
            yield from findings
            stream_checks.after_round(view, findings, context)
            rotation_checks.after_round(view, context)
    for (table_id, _), leftover in open_rounds.items():
        view = view_round(leftover)
        context = contexts[table_id]
        yield from verify_round(view, context)
        yield from stream_checks.incomplete(view, context)
