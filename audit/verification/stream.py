"""Turn a raw event stream into what the store would hold: the form verification judges.

The ingest drops exact repeats and records gaps and reused ids as observations;
an offline file passes through the same sequencing here, so a file and the
store are judged alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from audit.events.envelope import Event
from audit.facts.sequencing import TableSequence, decide


def as_stored(events: Iterable[Event]) -> Iterator[Event]:
    """Yield each event as the store would keep it, with the ingest's observations before it."""
    tables: dict[str, TableSequence] = {}
    for event in events:
        decision = decide(tables.setdefault(event.table_id, TableSequence()), event)
        yield from decision.observations
        if decision.store_event:
            yield event
