"""What an analyst's replay of one round is, whatever the game: titled steps of data, with
each finding placed under the step it concerns. Each game builds its own steps
(``audit/verification/<game>/replay.py``); ``consumers/replay_text/`` draws any of them as
the text ``tablewatch replay``, the API and the console show.

Each step carries its facts as data (:class:`Compared`): what was recorded (tiles or
cards by name, money in cents) beside what the rules engine expected, with the time the
fact occurred, so the API and the console can draw them. Beside them, its ``reading``:
the game's own dataclass of what the step read (the wagers, the cards, who banks...),
which the game's text renderer draws. A step's time is that of its first recorded fact
(``None`` for a step of no fact).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from audit.events.envelope import Event
from audit.events.games import DEFAULT_GAME
from audit.findings.finding import Finding
from audit.games.money import Cents, to_dollars


class RoundNotInEventsError(ValueError):
    """Raised when the events given hold no round of that id (or hold it at several tables)."""


@dataclass(frozen=True)
class Amount:
    """One sum of a recorded fact, in cents, beside the engine's (``None``: none to say).

    A flow the record should hold but does not is recorded as ``0`` (nothing moved), so it
    compares; an expected-only sum (the engine's nets) has ``recorded`` ``None``.
    """

    name: str
    recorded: Cents | None
    expected: Cents | None = None

    @property
    def same(self) -> bool | None:
        """Return whether both sides agree; ``None`` when either side has nothing to say."""
        if self.expected is None or self.recorded is None:
            return None
        return self.recorded == self.expected


@dataclass(frozen=True)
class Compared:
    """One recorded fact of a step beside what the rules engine expected, as data.

    ``pieces`` are the tiles (Pai Gow, ``'6-6a'``) or cards (21 Baccarat, ``'TH'``) the
    fact recorded, by the name events carry; ``expected_pieces`` the engine's. ``same``
    is ``None`` where the engine has nothing to compare the fact with.
    """

    label: str
    recorded: str
    expected: str | None = None
    same: bool | None = None
    pieces: tuple[str, ...] = ()
    expected_pieces: tuple[str, ...] = ()
    amounts: tuple[Amount, ...] = ()
    at: datetime | None = None
    """When the recorded fact occurred (UTC), if one was recorded."""


@dataclass(frozen=True)
class Step:
    """One step of a replay: its kind (a game's own name), title, findings, facts and reading."""

    kind: str
    title: str
    findings: tuple[Finding, ...] = ()
    facts: tuple[Compared, ...] = ()
    at: datetime | None = None
    """When the step began: its first recorded fact's time (UTC)."""
    reading: object = None
    """What the step read, as the game's own dataclass (``None``: its facts say it all)."""


@dataclass(frozen=True)
class RoundReplay:
    """One round, step by step, with every finding placed under the step it concerns."""

    table_id: str
    round_id: str
    steps: tuple[Step, ...]
    position_names: tuple[str, ...] = ()
    """The layout's name for each position, to say where a finding is."""
    game: str = DEFAULT_GAME
    """The round's game (audit/events/games.py), which says what its pieces are."""

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Return every finding of the round, step by step."""
        return tuple(f for step in self.steps for f in step.findings)

    def step(self, kind: str) -> Step:
        """Return the step of one kind."""
        return next(step for step in self.steps if step.kind == kind)


def first_time(facts: Sequence[Compared]) -> datetime | None:
    """Return the earliest time among ``facts``, or ``None`` when none has one."""
    return min((f.at for f in facts if f.at is not None), default=None)


def locate_round(
    stream: Sequence[Event], round_id: str, table_id: str | None = None
) -> tuple[str, list[int]]:
    """Return the round's table and the indexes of its events in ``stream``.

    Raises :class:`RoundNotInEventsError` when the stream holds no event of the round
    (at ``table_id``, if given) or holds the round at several tables.
    """
    mine = [
        i
        for i, e in enumerate(stream)
        if e.round_id == round_id and (table_id is None or e.table_id == table_id)
    ]
    if not mine:
        where = f" at table {table_id!r}" if table_id else ""
        raise RoundNotInEventsError(f"no events of round {round_id!r}{where}")
    tables = sorted({stream[i].table_id for i in mine})
    if len(tables) > 1:
        raise RoundNotInEventsError(f"round {round_id!r} is at several tables: {tables}")
    return tables[0], mine


def dollars(amount: Decimal | Cents) -> str:
    """Return an amount as dollars: a ``Decimal`` of dollars or an ``int`` of cents.

    >>> dollars(Decimal("1234.5")), dollars(125), dollars(-250)
    ('$1,234.50', '$1.25', '-$2.50')
    """
    value = to_dollars(amount) if isinstance(amount, int) else Decimal(amount)
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"
