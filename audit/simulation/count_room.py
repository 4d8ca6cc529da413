"""The count room: after the floor closes, every removed drop box counted twice, first and
blind second (PA 465a.25), as the count room records it under its own station id.

Injected count mishaps (a short drop, a second count that misses a bill) are played
here, with their labels.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from uuid import UUID

from audit.events.accounting import DropCounted
from audit.events.envelope import Event
from audit.games.money import to_dollars
from audit.simulation.accounting import BookedTable, TableBooks
from audit.simulation.labels import Label

COUNT_ROOM = "COUNT-ROOM"
"""The count room's station id: its facts' ``table_id`` (audit/events/accounting.py)."""


def closing_time(tables: Sequence[BookedTable]) -> datetime:
    """Return when the count room starts: half an hour after the last table closed."""
    latest = max((table.recorder.now for table in tables), default=datetime(2026, 1, 1))
    return latest + timedelta(minutes=30)


def count_room(
    books: list[TableBooks], rng: random.Random, start: datetime, labels: list[Label] | None
) -> list[Event]:
    """Count every removed drop box, first and blind second, as the count room records it."""
    events: list[Event] = []
    now = start
    for book in books:
        for shift, day in book.closed:
            mishap, box = shift.mishap, shift.box
            taken = box.take(rng, 3 if mishap == "short_drop" else 1)
            if mishap in ("short_drop", "count_mismatch") and not taken:
                mishap = None  # no large bill to go missing: the shift stays clean
            short = taken if mishap == "short_drop" else Counter()
            for count in ("first", "second"):
                missed = taken if (mishap == "count_mismatch" and count == "second") else Counter()
                now += timedelta(seconds=rng.uniform(20, 90))
                events.append(DropCounted(
                    event_id=UUID(int=rng.getrandbits(128), version=4), table_id=COUNT_ROOM,
                    seq=len(events), occurred_at=now, recorded_by="count-team-1",
                    box_id=box.box_id, for_table_id=book.table.table_id, gaming_day=day,
                    shift=shift.name, count=count, cash=box.cash_pieces(short + missed),
                    coupons=to_dollars(box.coupons), markers=to_dollars(box.markers),
                    chips=to_dollars(box.chips), counted_by=f"count-team-1-{count}",
                    schema_version=DropCounted.SCHEMA_VERSION,
                ))  # fmt: skip
            if labels is not None and mishap == "short_drop":
                labels.append(Label(book.table.table_id, None, mishap,
                                    ("ACC-DROP-BUYINS", "ACC-WIN-VARIANCE")))  # fmt: skip
            if labels is not None and mishap == "count_mismatch":
                labels.append(Label(book.table.table_id, None, mishap, ("ACC-COUNT-DISAGREE",)))
    if labels is not None and books:
        labels.extend(books[0].cage.gap_labels())
    return events
