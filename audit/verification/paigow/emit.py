"""How a check reports: :class:`Emit` collects one round's findings, cited in the table's rules.

Kept apart from ``verify.py`` so that the check modules can import it while
``verify.py`` imports the checks at its top (no import inside the hot path).

A check names its money: ``at_stake=`` for money moved wrongly, ``exposure=`` for
the action a procedure breach touched (issue #22.2). The kind's catalogue entry
says which it carries, and a check that passes the other is a programming error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from audit.events.envelope import Event
from audit.findings.finding import ZERO, Finding
from audit.findings.severities import severity_of
from audit.verification.paigow.context import TableContext
from audit.verification.paigow.kinds import KINDS
from audit.verification.paigow.round_view import RoundView

_CENT = Decimal("0.01")


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
        exposure: Decimal = ZERO,
        events: Iterable[Event] = (),
        rule_key: str | None = None,
    ) -> None:
        """Record one finding of kind ``code``; a rule the jurisdiction lacks yields none."""
        kind = KINDS[code]
        if not kind.money.carries(at_stake=at_stake != ZERO, exposure=exposure != ZERO):
            raise ValueError(f"{code} carries money {kind.money.value!r}, not what was given")
        citations = self.context.ruleset.citations
        rule = citations.get(rule_key or kind.rule_key)
        if rule is None:
            return  # this table's rules have no such rule: nothing to break
        shown = list(events)
        evidence = tuple(str(e.event_id) for e in shown)
        first = shown[0] if shown else None
        occurred = first.occurred_at if first is not None else None
        self.findings.append(
            Finding(
                code=code,
                severity=severity_of(kind, self.context.ruleset.name, at_stake),
                rule=rule,
                title=kind.title,
                table_id=self.context.table_id,
                round_id=self.view.round_id if self.view else None,
                position=position,
                dealer_id=(self.view.dealer_id if self.view else None) or self.context.dealer_id,
                recorded=recorded,
                expected=expected,
                at_stake=at_stake.quantize(_CENT),
                event_ids=evidence,
                occurred_at=occurred.isoformat() if occurred is not None else None,
                exposure=exposure.quantize(_CENT),
                # As the MGR files a round: the day the table opened for, else the fact's date.
                gaming_day=self.context.gaming_day
                or (occurred.date().isoformat() if occurred is not None else None),
                player_id=self._player(position),
            )
        )

    def _player(self, position: int | None) -> str | None:
        """Return the player at ``position``: the bank's, else the first named on a wager there."""
        view = self.view
        if position is None or view is None:
            return None
        bank = view.bank
        if bank is not None and bank.position == position and bank.player_id is not None:
            return bank.player_id
        return next(
            (e.player_id for _, e in view.placed if e.position == position and e.player_id),
            None,
        )


Check = Callable[[RoundView, TableContext, Emit], None]
