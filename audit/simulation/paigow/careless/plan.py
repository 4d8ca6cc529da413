"""What every careless-dealer irregularity shares: the expected findings, the clean preview and
the plan.

A :class:`Plan` is one irregularity chosen for one round. It is chosen after a
*preview*: the same round played clean on a copy of the table, so the choice
knows the whole round (who banks, the tiles, the outcomes) before the real
round is played. The real round then replays the preview exactly up to the
point the plan goes wrong (the same random draws, so the same decisions), and
goes its own way from there. A plan therefore only relies on what the preview
decided before that point.

A plan is the round's :class:`~audit.simulation.paigow.dealer.Dealer`: it goes
wrong by overriding a hook, which changes what is done or recorded and never the
draws, so the clean steps serve every plan. A plan that does something the clean
steps never do (a bank forced, a step skipped or added) replaces the step
(:meth:`Plan.steps`) or edits the record (:meth:`Plan.edit`).

Pure: no I/O; all randomness comes from the table's generator or the plan's own.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar
from uuid import UUID

from audit.events.envelope import Event
from audit.events.paigow.settlement import WagerSettled
from audit.games.money import Cents
from audit.games.paigow.layout import Position, unwagered_positions
from audit.games.paigow.settlement import BankingMode, RoundSettlement, SettlementLine
from audit.simulation.labels import Label
from audit.simulation.paigow.dealer import Dealer, LineRecord
from audit.simulation.paigow.players import Player
from audit.simulation.paigow.round import ROUND_STEPS
from audit.simulation.paigow.state import BANKED_MODES, RoundState, Step
from audit.simulation.paigow.table import SimTable
from audit.simulation.preview import fork
from audit.verification.paigow.kinds import KINDS as FINDING_KINDS
from audit.verification.paigow.settlement.bank import BANK_FLOWS
from audit.verification.paigow.settlement.wagers import line_verdicts


@dataclass(frozen=True)
class Expect:
    """One finding an irregularity must yield: its code, position and the rule it is cited by.

    ``rule_key`` is the key the check passes for the finding (``None``: the kind's
    own); a finding whose rule the table's jurisdiction does not cite is never made.
    """

    code: str
    position: Position | None = None
    rule_key: str | None = None


def cites(round_: RoundState, rule_key: str) -> bool:
    """Return whether the round's rules cite ``rule_key``."""
    return rule_key in round_.rule_set.citations


def cited_or_none(round_: RoundState, rule_key: str) -> str | None:
    """Return ``rule_key`` if the rules cite it, else ``None`` (the finding kind's own rule)."""
    return rule_key if cites(round_, rule_key) else None


def make_label(round_: RoundState, kind: str, expected: Iterable[Expect]) -> Label | None:
    """Return the label for the findings a round should yield (``None`` if it should yield none)."""
    citations = round_.rule_set.citations
    kept = [e for e in expected if (e.rule_key or FINDING_KINDS[e.code].rule_key) in citations]
    if not kept:
        return None
    positions = {e.position for e in kept}
    position = positions.pop() if len(positions) == 1 else None
    codes = tuple(sorted({e.code for e in kept}))
    return Label(round_.table.table_id, round_.round_id, kind, codes, position)


# --- The preview and the plan ------------------------------------------------------------------


@dataclass
class TableNotes:
    """What the careless-dealer layer remembers about a table from round to round."""

    last_dealer_wagers: dict[Position, Cents] = field(default_factory=dict)
    """Pai Gow wagers by position in the last completed round the dealer banked: what
    verification takes the bank's last wager against the dealer from (PA 621a.9(h))."""


@dataclass(frozen=True)
class Preview:
    """The round as it would be played clean, on a copy of the table."""

    round: RoundState
    events: tuple[Event, ...]
    notes: TableNotes
    table: SimTable
    """The real table as it stands before the round: read it, never change it."""

    def of(self, type_name: str) -> list[Event]:
        """Return the preview's events of one type, in order."""
        return [e for e in self.events if e.type_name() == type_name]


def fork_table(table: SimTable) -> SimTable:
    """Return a copy of a Pai Gow table whose rounds change nothing of the original's."""
    return fork(table, "seating", "rotation")


class Plan(Dealer, ABC):
    """One irregularity for one round: the dealer's hook it breaks, and what must be found.

    A subclass names itself (``name``), says which rounds it fits (:meth:`applies`),
    picks its targets from the preview with the plan's own generator, overrides the
    :class:`Dealer` hook it breaks, and gives any step it replaces (:meth:`steps`),
    any cleanup after the round (:meth:`finish`), any edit to the recorded events
    (:meth:`edit`) and the findings the round must yield (:meth:`expected`).
    """

    name: ClassVar[str] = ""
    at_opening: ClassVar[bool] = False
    """Whether this is the table's irregularity, made as it opens (:meth:`open_table`)."""

    def __init__(self, preview: Preview, rng: random.Random) -> None:
        self.preview = preview
        self.rng = rng

    @classmethod
    def open_table(cls, table: SimTable, rng: random.Random) -> tuple[str, ...]:
        """Change how the table opens; return the codes its label names (no round)."""
        raise TypeError(f"{cls.name} is a round's irregularity, not the table's")

    @classmethod
    @abstractmethod
    def applies(cls, preview: Preview) -> bool:
        """Return whether this irregularity can be injected into the previewed round."""

    def steps(self) -> tuple[Step, ...]:
        """Return the steps that play the round (the clean ones unless replaced)."""
        return ROUND_STEPS

    def finish(self, round_: RoundState) -> None:
        """Undo what the round changed at the table only for its own sake (after the round)."""

    def edit(self, round_: RoundState, events: list[Event]) -> list[Event]:
        """Return the table's events since the last round, as recorded (edited, if so planned)."""
        return events

    @abstractmethod
    def expected(self, round_: RoundState, events: Sequence[Event]) -> list[Expect]:
        """Return the findings the round must yield."""


def substitute(
    replacements: Mapping[Step, Step], steps: Sequence[Step] = ROUND_STEPS
) -> tuple[Step, ...]:
    """Return ``steps`` with each step named in ``replacements`` replaced."""
    missing = [step for step in replacements if step not in steps]
    if missing:
        raise ValueError(f"not a step of the round: {missing!r}")
    return tuple(replacements.get(step, step) for step in steps)


def new_event_id(rng: random.Random) -> UUID:
    """Return a fresh event id drawn from ``rng``, as the recorder draws them."""
    return UUID(int=rng.getrandbits(128), version=4)


def insert_events(
    round_: RoundState, events: list[Event], at: int, inserted: Sequence[Event]
) -> list[Event]:
    """Return ``events`` with ``inserted`` before index ``at``, numbered from the ``seq`` there.

    The events after them are numbered on, and so is the table's recorder: the
    record reads as if the inserted events had been recorded in their place.
    """
    later = [replace(e, seq=e.seq + len(inserted)) for e in events[at:]]
    round_.table.recorder.seq += len(inserted)
    return [*events[:at], *inserted, *later]


def round_events(round_: RoundState, events: Iterable[Event]) -> list[Event]:
    """Return the events of this round only."""
    return [e for e in events if e.round_id == round_.round_id]


def money_moved(events: Iterable[Event]) -> bool:
    """Return whether any wager was paid, collected or charged vigorish (PA 621a.10(c))."""
    return any(
        isinstance(e, WagerSettled) and (e.paid > 0 or e.collected > 0 or e.vigorish > 0)
        for e in events
    )


def unwagered(round_: RoundState) -> tuple[Position, ...]:
    """Return the positions whose stacks the dealer collects unseen (PA 621a.6(e), 9(l))."""
    wagered = set(round_.wagers)
    if round_.mode in BANKED_MODES and round_.bank_seat is not None:
        wagered.add(round_.bank_seat)
    return unwagered_positions(round_.layout, wagered, dealer_plays=round_.dealer_plays)


# --- Money -------------------------------------------------------------------------------------


def line_findings(round_: RoundState, line: SettlementLine, record: LineRecord) -> list[Expect]:
    """Return the findings a recorded settlement of a wager yields against the correct ``line``,
    as the settlement checks classify it (:func:`~audit.verification.paigow.settlement.wagers.
    line_verdicts`): a wrong outcome, else wrong money, then the vigorish."""
    money = (record.paid, record.collected, record.returned)
    rounding = round_.rule_set.vig_rounding
    verdicts = line_verdicts(round_.mode, line, record.outcome, money, record.vigorish, rounding)
    return [
        Expect(v.code, line.position, cited_or_none(round_, v.rule_key) if v.rule_key else None)
        for v in verdicts
    ]


def _flows_recorded(round_: RoundState, recorded: RoundSettlement) -> set[str]:
    """Return the bank flow events ``settle_bank`` records from ``recorded``: a co-bank's split
    always; a player bank's pay-in where it paid one, else its surplus where there was one."""
    if round_.mode is BankingMode.CO_BANK:
        return {"co_bank_split"}
    if recorded.shortfall_from_bank:
        return {"shortfall"}
    return {"surplus"} if recorded.surplus else set()


def flow_findings(
    round_: RoundState, expected: RoundSettlement, recorded: RoundSettlement
) -> list[Expect]:
    """Return the bank-flow findings of a round whose flows were recorded from ``recorded``
    (as ``settle_bank`` records them) where the rules give ``expected``, event by event as
    the bank check compares them (:data:`~audit.verification.paigow.settlement.bank.BANK_FLOWS`)."""
    if round_.mode not in BANKED_MODES:
        return []
    present = _flows_recorded(round_, recorded)
    found: list[Expect] = []
    for code, event, amounts in BANK_FLOWS[round_.mode]:
        for _, _, owing in amounts:
            got = getattr(recorded, owing) if event in present else 0
            if got != getattr(expected, owing):
                found.append(Expect(code, round_.bank_seat))
                break
    return found


def settled(round_: RoundState) -> RoundSettlement:
    """Return the round's settlement (an error if it was not settled)."""
    if round_.settlement is None:
        raise ValueError(f"round {round_.round_id!r} was not settled")
    return round_.settlement


def settled_lines(round_: RoundState) -> dict[Position, SettlementLine]:
    """Return the settlement's line of each position."""
    return {line.position: line for line in settled(round_).lines}


def played(round_: RoundState) -> list[Position]:
    """Positions whose wager was played out (not surrendered), in settlement order."""
    return [p for p in round_.order() if p not in round_.surrendered]


def skip(round_: RoundState) -> None:
    """A step the careless dealer skips."""


def seated(round_: RoundState, player_id: str) -> Player:
    """Return the seated player ``player_id``."""
    return next(p for p in round_.table.seating.players if p.player_id == player_id)


def chosen(rng: random.Random, options: Iterable[Any]) -> Any:
    """Return one of ``options`` (sorted first, so the choice is the same every run)."""
    return rng.choice(sorted(options))
