"""Turn a raw event stream into what the store would hold: the form verification judges.

The ingest drops exact repeats and records gaps and reused ids as observations;
an offline file passes through the same sequencing here, so a file and the
store are judged alike.

A repeat is judged by the digest of the event's canonical JSON (``decide``), which costs a
serialisation of every event: more than parsing it, and most of what ``verify FILE`` did
besides judging. A file's events also come with the bytes they arrived as, so
:func:`as_stored_lines` knows each id by the digest of those bytes instead: the same bytes
again are the same event (a parse is a function of its bytes), and only an id seen again
with other bytes is judged by canonical digests, its first arrival read again for its own.
Both give the same stream (tests/unit/verification/test_stream.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from audit.events.envelope import Event
from audit.facts.chain import digest
from audit.facts.sequencing import TableSequence, decide, fact_json, judge_known, observe


def as_stored(events: Iterable[Event]) -> Iterator[Event]:
    """Yield each event as the store would keep it, with the ingest's observations before it."""
    tables: dict[str, TableSequence] = {}
    for event in events:
        decision = decide(tables.setdefault(event.table_id, TableSequence()), event)
        yield from decision.observations
        if decision.store_event:
            yield event


@dataclass
class _LineSequence:
    """One table's sequencing state, each id known by the bytes it first arrived as.

    ``first`` maps an id's 16 bytes to the SHA-256 of its first arrival's bytes and where to
    read it again: about as much memory as ``as_stored``'s hex digests by id text (a peak of
    20.9 against 19.4 MB over a file of 87,603 events)."""

    next_seq: int = 0
    first: dict[bytes, tuple[bytes, int]] = field(default_factory=dict)
    canonical: dict[bytes, str] = field(default_factory=dict)
    """An id's first arrival's canonical digest, once an arrival with other bytes needs it."""


Arrival = tuple[Event, bytes, int]
"""An event, the bytes it arrived as, and where its source can give it again."""


def as_stored_lines(
    arrivals: Iterable[Arrival], reread: Callable[[int, bytes], Event]
) -> Iterator[Event]:
    """Yield what :func:`as_stored` yields for the same events, each known by its bytes;
    ``reread(where, fingerprint)`` returns the event that arrived at ``where`` as bytes whose
    SHA-256 is ``fingerprint`` (rarely called: only for an id that arrives again with other
    bytes)."""
    tables: dict[str, _LineSequence] = {}
    for event, raw, where in arrivals:
        state = tables.get(event.table_id)
        if state is None:
            state = tables[event.table_id] = _LineSequence()
        fingerprint = hashlib.sha256(raw).digest()
        key = event.event_id.bytes
        first = state.first.get(key)
        if first is None:
            state.first[key] = (fingerprint, where)
            judgement = judge_known(state, None, event.seq, "")
            fact_digest = ""  # read only for a reused id's observation
        elif first[0] == fingerprint:
            continue  # the same bytes again: an exact repeat, dropped as the ingest drops it
        else:
            known = state.canonical.get(key)
            if known is None:
                known = state.canonical[key] = digest(fact_json(reread(first[1], first[0])))
            fact_digest = digest(fact_json(event))
            judgement = judge_known(state, known, event.seq, fact_digest)
            if judgement.duplicate:
                continue  # other bytes, the same event (spacing, key order)
        if judgement.observed:
            yield from observe(judgement, event, fact_digest)
        if judgement.store_event:
            yield event
