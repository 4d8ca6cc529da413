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

Either way each id's first arrival is held by
:class:`~audit.verification.first_arrivals.FirstArrivals`: in memory up to a limit, then
on disk, so a file of any length is judged in flat memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from audit.events.envelope import Event
from audit.facts.chain import digest
from audit.facts.sequencing import Judgement, fact_json, judge_known, observe
from audit.verification.first_arrivals import FirstArrivals


def as_stored(events: Iterable[Event], seen: FirstArrivals | None = None) -> Iterator[Event]:
    """Yield each event as the store would keep it, with the ingest's observations before it.

    Each id is known by its first arrival's canonical digest, held in ``seen`` (None: a
    :class:`~audit.verification.first_arrivals.FirstArrivals` of the default limit)."""
    tables: dict[str, _Sequence] = {}
    seen = FirstArrivals() if seen is None else seen
    for event in _recalled(events, seen, _key):
        state = tables.get(event.table_id)
        if state is None:
            state = tables[event.table_id] = _Sequence()
        fact_digest = digest(fact_json(event))
        table, key = _key(event)
        first = seen.get(table, key)
        if first is None:  # a digest's 32 bytes; no place: a stream is read once
            seen.add(table, key, bytes.fromhex(fact_digest) + _NO_PLACE)
        known = None if first is None else first[:32].hex()
        judgement = judge_known(state, known, event.seq, fact_digest)
        if not judgement.duplicate:
            yield from _kept(judgement, event, fact_digest)


_NO_PLACE = bytes(8)
T = TypeVar("T")


def _key(event: Event) -> tuple[str, bytes]:
    return event.table_id, event.event_id.bytes


def _arrival_key(arrival: Arrival) -> tuple[str, bytes]:
    return _key(arrival[0])


def _recalled(
    items: Iterable[T], seen: FirstArrivals, key: Callable[[T], tuple[str, bytes]]
) -> Iterator[T]:
    """Yield ``items`` a chunk at a time, each chunk's (table, id) keys recalled from disk
    first; let go of the disk's ids at the end."""
    try:
        for chunk in seen.chunks(items):
            seen.recall(map(key, chunk))
            yield from chunk
    finally:
        seen.close()


def _kept(judgement: Judgement, event: Event, fact_digest: str) -> tuple[Event, ...]:
    """Return what the store keeps of an event judged not a duplicate: the ingest's
    observations about it, then the event itself if it is stored."""
    observed = observe(judgement, event, fact_digest) if judgement.observed else ()
    return (*observed, event) if judgement.store_event else observed


@dataclass
class _Sequence:
    """One table's sequencing state beside the ids' first arrivals (held apart, bounded)."""

    next_seq: int = 0
    canonical: dict[bytes, str] = field(default_factory=dict)
    """An id's first arrival's canonical digest, once an arrival with other bytes needs it
    (from a file; a stream's first arrivals hold theirs)."""


Arrival = tuple[Event, bytes, int]
"""An event, the bytes it arrived as, and where its source can give it again."""


def as_stored_lines(
    arrivals: Iterable[Arrival],
    reread: Callable[[int, bytes], Event],
    seen: FirstArrivals | None = None,
) -> Iterator[Event]:
    """Yield what :func:`as_stored` yields for the same events, each known by its bytes;
    ``reread(where, fingerprint)`` returns the event that arrived at ``where`` as bytes whose
    SHA-256 is ``fingerprint`` (rarely called: only for an id that arrives again with other
    bytes). An id's first arrival is held in ``seen`` (None: of the default limit) as its
    fingerprint's 32 bytes and its place's 8."""
    tables: dict[str, _Sequence] = {}
    seen = FirstArrivals() if seen is None else seen
    for event, raw, where in _recalled(arrivals, seen, _arrival_key):
        table = event.table_id
        state = tables.get(table)
        if state is None:
            state = tables[table] = _Sequence()
        fingerprint = hashlib.sha256(raw).digest()
        key = event.event_id.bytes
        first = seen.get(table, key)
        if first is None:
            seen.add(table, key, fingerprint + where.to_bytes(8, "big"))
            judgement = judge_known(state, None, event.seq, "")
            fact_digest = ""  # read only for a reused id's observation
        elif first[:32] == fingerprint:
            continue  # the same bytes again: an exact repeat, dropped as the ingest does
        else:
            known = state.canonical.get(key)
            if known is None:
                first_event = reread(int.from_bytes(first[32:], "big"), first[:32])
                known = state.canonical[key] = digest(fact_json(first_event))
            fact_digest = digest(fact_json(event))
            judgement = judge_known(state, known, event.seq, fact_digest)
            if judgement.duplicate:
                continue  # other bytes, the same event (spacing, key order)
        yield from _kept(judgement, event, fact_digest)
