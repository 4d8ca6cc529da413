"""A simulated casino floor: one seeded shift of Pai Gow Tiles tables as a stream of events.

Each table runs on its own random generator, drawn from the one passed in, so
a table's events do not depend on how the tables interleave. The tables'
streams are merged by time, each table's events staying in ``seq`` order.

>>> import random
>>> config = ShiftConfig(tables=2, rounds_per_table=2)
>>> events = list(simulate_shift(config, random.Random(7)))
>>> [(e.table_id, e.seq, e.type) for e in events[:2]]
[('PG-42', 0, 'table_opened'), ('PG-42', 1, 'tile_set_received')]
>>> sorted((e.table_id, e.rule_set) for e in events if e.type == "table_opened")
[('PG-20', 'pa-2019'), ('PG-42', 'pa-2019')]
>>> events == list(simulate_shift(config, random.Random(7)))
True
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from audit.events.envelope import Event
from audit.events.games import GAMES
from audit.games.paigow.rulesets import RULE_SETS, RuleSet
from audit.games.paigow.vigorish import VigRounding
from audit.simulation.accounting import keep_books, observed
from audit.simulation.count_room import closing_time, count_room
from audit.simulation.frequencies import Frequencies
from audit.simulation.paigow.loaded_dice import LoadedDice
from audit.simulation.paigow.players import DOLLAR, TableLimits
from audit.simulation.paigow.round import ROUND_STEPS, Step, play_round
from audit.simulation.paigow.table import SimTable, between_rounds, close_table, open_table
from audit.simulation.recorder import Recorder

DEFAULT_RULE_SET_MIX: tuple[tuple[str, float], ...] = (
    ("pa-2019", 0.7),
    ("nj", 0.15),
    ("california", 0.15),
)
"""A floor mostly of PA 2019 tables, with some NJ and California tables."""

_OPENING_SPREAD = 600.0
"""Tables open within this many seconds of the shift's start."""


class InvalidShiftConfigError(ValueError):
    """Raised for a shift the simulation cannot run."""


@dataclass(frozen=True)
class ShiftConfig:
    """What to simulate: how many tables, how many rounds each, when, and under which rules."""

    tables: int = 6
    rounds_per_table: int = 30
    start: datetime = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    gaming_day: date | None = None
    """The gaming day the tables open for; the start's date when not given."""
    rule_set_mix: tuple[tuple[str, float], ...] = DEFAULT_RULE_SET_MIX
    """Rule-set names and their shares of the tables."""
    frequencies: Frequencies = field(default_factory=Frequencies)
    shifts: int = 1
    """Shifts the rounds are split into, each with its opener, closer and drop box."""
    games: tuple[tuple[str, float], ...] = (("paigow", 1.0),)
    """Games and their shares of the tables; Pai Gow tables take ``rule_set_mix``."""
    loaded_dice_tables: int = 0
    """Pai Gow tables whose shaker is loaded (audit/simulation/paigow/loaded_dice.py)."""
    loaded_dice: LoadedDice = field(default_factory=LoadedDice)
    """How those tables' dice are loaded."""
    table_numbers: tuple[int, ...] | None = None
    """The tables' numbers (``PG-07`` is 7), one a table; None draws them from 1-99. Given,
    a floor simulated day after day keeps the same tables (bench/history.py)."""

    def __post_init__(self) -> None:
        if not isinstance(self.shifts, int) or isinstance(self.shifts, bool) or self.shifts < 1:
            raise InvalidShiftConfigError(f"shifts must be a whole number >= 1: {self.shifts!r}")
        counts = (
            ("tables", self.tables),
            ("rounds_per_table", self.rounds_per_table),
            ("loaded_dice_tables", self.loaded_dice_tables),
        )
        for name, value in counts:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidShiftConfigError(f"{name} must be a whole number >= 0: {value!r}")
        if not isinstance(self.start, datetime) or self.start.utcoffset() is None:
            raise InvalidShiftConfigError(
                f"start must be a timezone-aware datetime: {self.start!r}"
            )
        for game, share in self.games:
            if game not in GAMES:
                raise InvalidShiftConfigError(f"unknown game: {game!r} (one of {tuple(GAMES)})")
            if not isinstance(share, int | float) or isinstance(share, bool) or share <= 0:
                raise InvalidShiftConfigError(f"a game's share must be positive: {share!r}")
        if self.table_numbers is not None:
            numbers = self.table_numbers
            if len(numbers) != self.tables or len(set(numbers)) != len(numbers):
                raise InvalidShiftConfigError(
                    f"table_numbers must be {self.tables} distinct numbers: {numbers!r}"
                )
            if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in numbers):
                raise InvalidShiftConfigError(
                    f"table_numbers must be whole numbers >= 1: {numbers!r}"
                )
        if not self.rule_set_mix:
            raise InvalidShiftConfigError("rule_set_mix names no rule set")
        for name, share in self.rule_set_mix:
            if name not in RULE_SETS:
                raise InvalidShiftConfigError(f"unknown rule set in rule_set_mix: {name!r}")
            if not isinstance(share, int | float) or isinstance(share, bool) or share <= 0:
                raise InvalidShiftConfigError(f"a rule set's share must be positive: {share!r}")

    @property
    def day(self) -> date:
        """Return the gaming day."""
        return self.gaming_day or self.start.date()


def apportion(mix: Sequence[tuple[str, float]], count: int) -> list[str]:
    """Return ``count`` rule-set names in the mix's shares (largest remainders round).

    >>> apportion(DEFAULT_RULE_SET_MIX, 6)
    ['pa-2019', 'pa-2019', 'pa-2019', 'pa-2019', 'nj', 'california']
    """
    total = sum(share for _, share in mix)
    quotas = [(name, share * count / total) for name, share in mix]
    counts = {name: int(quota) for name, quota in quotas}
    by_remainder = sorted(
        range(len(quotas)), key=lambda i: (-(quotas[i][1] - int(quotas[i][1])), i)
    )
    for i in by_remainder[: count - sum(counts.values())]:
        counts[quotas[i][0]] += 1
    return [name for name, _ in mix for _ in range(counts[name])]


def _limits(rule_set: RuleSet, rng: random.Random) -> TableLimits:
    if rule_set.collection_schedule is not None:
        # CA schedule options 1-4: minimums of $1-$100, maximums of $500-$2,000.
        return TableLimits(rng.choice((5, 10, 25)) * DOLLAR, rng.choice((500, 1000, 2000)) * DOLLAR)
    minimum = rng.choice((10, 25, 25, 50, 100))
    return TableLimits(minimum * DOLLAR, min(minimum * 200, 10_000) * DOLLAR)


def set_up_pai_gow_table(
    number: int, config: ShiftConfig, rng: random.Random, rule_sets: Iterator[str]
) -> SimTable:
    """Return table ``PG-NN`` under the next of the floor's Pai Gow rule sets."""
    base = RULE_SETS[next(rule_sets)]
    freq = config.frequencies
    rule_set, options = base, {}
    quarter = VigRounding.QUARTER
    if (
        base.vig_rounding not in (None, quarter)
        and quarter in base.vig_roundings_allowed
        and rng.random() < freq.quarter_vig_table
    ):
        rule_set, options = base.with_options(vig_rounding=quarter), {"vig_rounding": quarter.value}
    table_id = f"PG-{number:02d}"
    opens = config.start + timedelta(seconds=rng.uniform(0, _OPENING_SPREAD))
    return SimTable(
        number=number,
        table_id=table_id,
        rule_set=rule_set,
        options=options,
        uses_rng=rule_set.rng_allowed and rng.random() < freq.rng_table,
        limits=_limits(rule_set, rng),
        freq=freq,
        rng=rng,
        recorder=Recorder(table_id, rng, opens.astimezone(UTC)),
        gaming_day=config.day,
        dealers=tuple(f"dealer-{number:02d}{k}" for k in range(1, 4)),
        floorperson=f"floor-{(number - 1) // 4 + 1:02d}",
    )


def set_up_floor(config: ShiftConfig, rng: random.Random) -> list[SimTable]:
    """Return the shift's tables, numbered and given games and rule sets from ``rng``."""
    if config.table_numbers is not None:
        numbers = sorted(config.table_numbers)
    else:
        numbers = sorted(rng.sample(range(1, max(99, config.tables) + 1), config.tables))
    games = apportion(config.games, config.tables)
    if len(config.games) > 1:
        rng.shuffle(games)
    names = apportion(config.rule_set_mix, games.count("paigow"))
    rng.shuffle(names)
    rule_sets = iter(names)
    tables: list[SimTable] = []
    for number, game in zip(numbers, games, strict=True):
        set_up, _ = table_games()[game]
        tables.append(set_up(number, config, random.Random(rng.getrandbits(64)), rule_sets))
    pai_gow = [table for table in tables if table.game == "paigow"]
    for table in sorted(pai_gow, key=lambda t: t.number)[: config.loaded_dice_tables]:
        table.loaded_dice = config.loaded_dice  # chosen without a draw: the rest stay as they were
    return tables


def table_games() -> dict[str, tuple[Any, Any]]:
    """Return each game's table set-up ``(number, config, rng, rule_sets)`` and event stream
    ``(table, rounds)``, by game name (21 Baccarat's imported here: it builds on this module's
    configuration). ``rule_sets`` is the floor's Pai Gow rule-set names, drawn by Pai Gow tables.
    """
    from audit.simulation.baccarat21.shift import baccarat_table_events, set_up_baccarat_table

    def set_up_baccarat(number: int, config: ShiftConfig, rng: random.Random, _: Any) -> Any:
        return set_up_baccarat_table(number, config, rng)

    return {
        "paigow": (set_up_pai_gow_table, table_events),
        "baccarat21": (set_up_baccarat, baccarat_table_events),
    }


def floor_events(
    table: SimTable, rounds: int, steps: Sequence[Step] = ROUND_STEPS
) -> Iterator[Event]:
    """Yield one table's events by its game: Pai Gow with ``steps``, the others their own."""
    if table.game == "paigow":
        return table_events(table, rounds, steps)  # the one game whose steps a caller varies
    _, events = table_games()[table.game]
    return events(table, rounds)


def table_events(
    table: SimTable, rounds: int, steps: Sequence[Step] = ROUND_STEPS
) -> Iterator[Event]:
    """Yield one table's events for the shift: opening, ``rounds`` rounds, closing."""
    open_table(table)
    yield from observed(table, table.recorder.drain())
    for _ in range(rounds):
        between_rounds(table)
        play_round(table, steps)
        yield from observed(table, table.recorder.drain())
    close_table(table)
    yield from observed(table, table.recorder.drain())


def simulate_shift(
    config: ShiftConfig, rng: random.Random, *, steps: Sequence[Step] = ROUND_STEPS
) -> Iterator[Event]:
    """Yield every event of a simulated shift, all tables interleaved in time order.

    ``steps`` plays each round (see :data:`~audit.simulation.paigow.round.ROUND_STEPS`);
    a layer that perturbs rounds passes its own.
    """
    tables = set_up_floor(config, rng)
    books = keep_books(tables, config.shifts, config.rounds_per_table)
    counting = random.Random(rng.getrandbits(64))
    streams = [floor_events(table, config.rounds_per_table, steps) for table in tables]
    yield from heapq.merge(*streams, key=lambda event: event.occurred_at)
    yield from count_room(books, counting, closing_time(tables), None)
