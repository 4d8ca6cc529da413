"""The careless dealer: a seeded shift with irregularities injected at a known rate, and the
truth about each as a :class:`Label`.

Each round, with probability ``rate``, one irregularity is chosen uniformly from
those that fit the round (a bank's flows only where a player banks, California's
coverage only at a California table, Pair Fortunes only where one was wagered)
and played into it the way a careless or dishonest dealer would: a hook of the
round's dealer overridden, a step replaced, or what the round recorded edited. Its
label names every finding code verification must make of it; the rest of the round
stays rule-correct, so it must make no other.

The Pai Gow plans live in :mod:`audit.simulation.paigow.careless` (the count, the deal,
wagers, tiles, setting, the bank, equipment, the record; outcomes, payouts, vigorish,
bank flows, California, Pair Fortunes); what they share, in its ``plan`` module.

Pure: no I/O. With ``rate`` 0 the shift is exactly :func:`simulate_shift`'s for the
same generator, and every rate gives the same shift for the same seed.

>>> config = ShiftConfig(tables=2, rounds_per_table=20)
>>> events, labels = careless_shift(config, random.Random(7), rate=0.2)
>>> count = len(list(events))  # the labels are complete once the events are consumed
>>> len(labels), [label.kind for label in labels][:2]
(4, ['option_misspelt', 'wrong_payout'])
>>> labels[1].as_dict()  # doctest: +NORMALIZE_WHITESPACE
{'table_id': 'PG-42', 'round_id': 'PG-42-20261121-0007', 'codes': ['PG-SETTLE-PAYOUT'],
 'kind': 'wrong_payout', 'position': 3}
>>> clean, none = careless_shift(config, random.Random(7), rate=0.0)
>>> list(clean) == list(simulate_shift(config, random.Random(7))), none
(True, [])
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from audit.events.envelope import Event
from audit.games.paigow.settlement import BankingMode
from audit.simulation.accounting import Mishaps, keep_books, observed
from audit.simulation.baccarat21 import careless as baccarat21
from audit.simulation.baccarat21.careless import KINDS as B21_KINDS
from audit.simulation.count_room import closing_time, count_room
from audit.simulation.labels import InvalidLabelError, Label
from audit.simulation.paigow.careless.kinds import KINDS
from audit.simulation.paigow.careless.plan import (
    Expect,
    Plan,
    Preview,
    TableNotes,
    fork_table,
    make_label,
)
from audit.simulation.paigow.loaded_dice import DICE_CODE
from audit.simulation.paigow.round import play_round
from audit.simulation.paigow.state import RoundState
from audit.simulation.paigow.table import SimTable, between_rounds, close_table, open_table
from audit.simulation.shift import ShiftConfig, set_up_floor, simulate_shift

if TYPE_CHECKING:
    from audit.simulation.collusion import Collusion

__all__ = [
    "B21_KINDS",
    "KINDS",
    "CarelessDealer",
    "Expect",
    "InvalidLabelError",
    "InvalidRateError",
    "Label",
    "Plan",
    "careless_shift",
    "kind_named",
    "loaded_dice_labels",
]

_BY_NAME: dict[str, type[Plan]] = {kind.name: kind for kind in KINDS}


class InvalidRateError(ValueError):
    """Raised for an injection rate that is not a probability."""


def kind_named(name: str) -> type[Plan]:
    """Return the irregularity called ``name`` (e.g. ``'wrong_start'``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"no irregularity called {name!r}") from None


@dataclass
class CarelessDealer:
    """Deals one table's shift, now and then carelessly; the labels go to ``labels``."""

    table: SimTable
    rate: float
    kinds: tuple[type[Plan], ...]
    rng: random.Random
    """The dealer's own generator: whether and how to go wrong, never the table's play."""
    labels: list[Label]
    notes: TableNotes = field(default_factory=TableNotes)

    def events(self, rounds: int) -> Iterator[Event]:
        """Yield the table's events: opening, ``rounds`` rounds, closing."""
        table = self.table
        openers = [kind for kind in self.kinds if kind.at_opening]
        if self.rate and openers and self.rng.random() < self.rate:
            kind = self.rng.choice(openers)
            codes = kind.open_table(table, self.rng)
            self.labels.append(Label(table.table_id, None, kind.name, codes, None))
        open_table(table)
        yield from observed(table, table.recorder.drain())
        for _ in range(rounds):
            between_rounds(table)
            yield from observed(table, self.round())
        close_table(table)
        yield from observed(table, table.recorder.drain())

    def round(self) -> list[Event]:
        """Play the next round, with an irregularity at the dealer's rate; return its events."""
        if self.rate and self.rng.random() < self.rate:
            injected = self._inject()
            if injected is not None:
                return injected
        played = play_round(self.table)
        self._remember(played, completed=True)
        return self.table.recorder.drain()

    def _inject(self) -> list[Event] | None:
        table = self.table
        clean = table.freq
        # An injected round is never voided by chance: its irregularity must be played out.
        table.freq = replace(clean, dealer_tile_exposed=0.0)
        try:
            preview = self._preview()
            fitting = [kind for kind in self.kinds if kind.applies(preview)]
            if not fitting:
                return None
            plan = self.rng.choice(fitting)(preview, self.rng)
            played = play_round(table, plan.steps(), dealer=plan)
        finally:
            table.freq = clean
        plan.finish(played)
        events = plan.edit(played, table.recorder.drain())
        label = make_label(played, plan.name, plan.expected(played, events))
        if label is not None:
            self.labels.append(label)
        completed = any(
            e.type_name() == "round_completed" and e.round_id == played.round_id for e in events
        )
        self._remember(played, completed=completed)
        return events

    def _preview(self) -> Preview:
        copy = fork_table(self.table)
        previewed = play_round(copy)
        return Preview(previewed, tuple(copy.recorder.drain()), self.notes, self.table)

    def _remember(self, played: RoundState, *, completed: bool) -> None:
        if completed and played.mode is BankingMode.DEALER and played.wagers:
            self.notes.last_dealer_wagers = dict(played.wagers)


def careless_shift(
    config: ShiftConfig,
    rng: random.Random,
    rate: float,
    *,
    kinds: Sequence[type[Plan]] = KINDS,
    variances: bool = True,
    b21_kinds: Sequence[type[baccarat21.Plan]] = B21_KINDS,
    collusion: Collusion | None = None,
) -> tuple[Iterator[Event], list[Label]]:
    """Return a shift's events, all tables interleaved in time, and the list of its labels.

    Each round gets one irregularity with probability ``rate``: of ``kinds`` at a Pai Gow
    table, of ``b21_kinds`` at a 21 Baccarat one (audit/simulation/baccarat21/careless.py),
    and, with
    ``variances``, each table's shift one accounting variance at the same rate
    (audit/simulation/accounting.py). The labels list fills as the events are
    consumed, and is complete once they are. ``collusion`` plays its schemes at the tables it
    chooses (audit/simulation/collusion.py).
    """
    if not isinstance(rate, int | float) or isinstance(rate, bool) or not 0 <= rate <= 1:
        raise InvalidRateError(f"the irregularity rate must be a probability: {rate!r}")
    from audit.simulation.collusion import ColludingDealer, plan_collusion  # it builds on this

    tables = set_up_floor(config, rng)
    counting = random.Random(rng.getrandbits(64))  # drawn first, as a clean shift draws it
    labels: list[Label] = []
    schemes = plan_collusion(tables, collusion, labels) if collusion else {}
    dealers = [
        ColludingDealer(
            table,
            rate,
            tuple(kinds),
            random.Random(rng.getrandbits(64)),
            labels,
            scheme=schemes.get(table.table_id),
        )
        for table in tables
    ]
    mishaps = Mishaps(rate if variances else 0.0, random.Random(rng.getrandbits(64)), labels)
    books = keep_books(tables, config.shifts, config.rounds_per_table, mishaps)
    streams = [
        dealer.events(config.rounds_per_table)
        if dealer.table.game == "paigow"
        else baccarat21.CarelessDealer(
            dealer.table,  # type: ignore[arg-type]
            rate,
            tuple(b21_kinds),
            dealer.rng,
            labels,
        ).events(config.rounds_per_table)
        for dealer in dealers
    ]

    def floor() -> Iterator[Event]:
        yield from heapq.merge(*streams, key=lambda event: event.occurred_at)
        yield from count_room(books, counting, closing_time(tables), labels)

    return floor(), labels


def loaded_dice_labels(config: ShiftConfig, rng: random.Random) -> list[Label]:
    """Return a label for each table whose dice ``config`` loads, on the floor that ``rng``
    (seeded as for the shift) sets up: the dice screen must find each such table."""
    return [
        Label(table.table_id, None, "loaded_dice", (DICE_CODE,), None)
        for table in set_up_floor(config, rng)
        if table.game == "paigow" and table.loaded_dice is not None  # only Pai Gow has dice
    ]


_ = simulate_shift  # the clean shift, for the doctest above
