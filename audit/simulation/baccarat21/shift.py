"""A simulated 21 Baccarat table's gaming day as a stream of events.

>>> import random
>>> from audit.simulation.shift import ShiftConfig
>>> table = set_up_baccarat_table(3, ShiftConfig(), random.Random(7))
>>> events = list(baccarat_table_events(table, rounds=2))
>>> [e.type for e in events[:6]]
['table_opened', 'shoe_shuffled', 'shoe_cut', 'shoe_loaded', 'card_burned', 'round_started']
>>> events[0].game, events[0].rule_set, events[-1].type
('baccarat21', 'pa-681a', 'table_closed')
"""

from __future__ import annotations

from collections.abc import Iterator

from audit.events.envelope import Event
from audit.events.table import TableClosed, TableOpened
from audit.simulation.accounting import observed
from audit.simulation.baccarat21.round import play_round
from audit.simulation.baccarat21.shoe import change_dealer, keep_shoe, load_shoe
from audit.simulation.baccarat21.table import (
    SimTable,
    refresh_seating,
    seat_player,
    set_up_baccarat_table,
)

__all__ = ["baccarat_table_events", "set_up_baccarat_table"]


def open_table(table: SimTable) -> None:
    """Open the table: its rules and dealer, the first players, the first shoe, the books."""
    table.dealer_id = table.dealers[0]
    table.emit(TableOpened, (0.001, 0.001), game="baccarat21", rule_set=table.rule_set.name,
               options=table.options, gaming_day=table.gaming_day,
               dealer_id=table.dealer_id)  # fmt: skip
    for _ in range(table.rng.randint(1, 6)):
        seat_player(table)
    load_shoe(table, "opening")
    if table.books is not None:
        table.books.open()


def between_rounds(table: SimTable) -> None:
    """Let players come and go, keep the books, now and then change the dealer, keep the shoe."""
    table.recorder.wait(2, 8)
    refresh_seating(table)
    if table.books is not None:
        table.books.between_rounds()
    if table.rng.random() < table.freq.dealer_change:
        change_dealer(table)
    keep_shoe(table)


def close_table(table: SimTable) -> None:
    """Close the table: the last shift's closer and drop, then the table."""
    if table.books is not None:
        table.books.close()
    table.emit(TableClosed, (30, 120), table.floorperson)


def baccarat_table_events(table: SimTable, rounds: int) -> Iterator[Event]:
    """Yield one table's events for the shift: opening, ``rounds`` rounds, closing.

    Give the table books first (:func:`~audit.simulation.accounting.keep_books`) to have
    its chips, slips and drop box recorded too.
    """
    open_table(table)
    yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]
    for _ in range(rounds):
        between_rounds(table)
        play_round(table)
        yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]
    close_table(table)
    yield from observed(table, table.recorder.drain())  # type: ignore[arg-type]
