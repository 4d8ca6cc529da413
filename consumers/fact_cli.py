"""``tablewatch fact EVENT_ID [--raw]``: a stored fact beside the bytes it arrived as.

Without ``--raw`` it lists every stored fact with that event id that arrived as a
message (more than one when the id was reused with other content): where it is
stored, its source, the received bytes' size and SHA-256, and the fact as stored.
With ``--raw`` it writes the received bytes to stdout exactly, nothing added, for
an examiner to hash or diff (``--origin`` picks one of several).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any

from audit.facts import received
from audit.facts.received import ReceivedFact
from audit.store.aggregates import FactRecorded
from audit.store.application import FactStore
from consumers.errors import TablewatchError
from consumers.settings import Settings
from consumers.wiring import open_store


class FactNotFoundError(TablewatchError, LookupError):
    """Raised for an event id with no received bytes stored (or not the one asked for)."""


def register(commands: Any) -> None:
    """Add the ``fact`` command."""
    fact = commands.add_parser("fact", help="a stored fact and the bytes it arrived as")
    fact.add_argument("event_id", metavar="EVENT_ID")
    fact.add_argument(
        "--raw", action="store_true", help="write the bytes as received to stdout, exactly"
    )
    fact.add_argument(
        "--origin", help="of several facts with the id, the one received from here (t[0]@12)"
    )
    fact.set_defaults(handler=_fact)


def _stored(store: FactStore, found: ReceivedFact) -> FactRecorded:
    """Return the stored fact the bytes belong to."""
    events = store.process_recorder.select_events(
        found.aggregate_id, gt=found.version - 1, lte=found.version
    )
    event = store.mapper.to_domain_event(events[0])
    if not isinstance(event, FactRecorded):
        raise FactNotFoundError(f"{found.aggregate_id} v{found.version} is not a stored fact")
    return event


def _fact(args: argparse.Namespace) -> int:
    store = open_store(Settings.from_env(), create=False)
    datastore: Any = store.process_recorder.datastore  # type: ignore[attr-defined]
    found = received.by_event_id(datastore, args.event_id, postgres=store.is_postgres)
    facts = [(each, _stored(store, each)) for each in found]
    if args.origin is not None:
        facts = [(each, fact) for each, fact in facts if fact.source == args.origin]
    if not facts:
        where = f" from {args.origin!r}" if args.origin else ""
        raise FactNotFoundError(
            f"no received bytes stored for event id {args.event_id!r}{where} (the ingest's own "
            "observations, and facts stored before the bytes were kept, have none)"
        )
    if args.raw:
        if len(facts) > 1:
            origins = ", ".join(repr(fact.source) for _, fact in facts)
            raise FactNotFoundError(
                f"event id {args.event_id!r} was stored {len(facts)} times, from {origins}: "
                "choose one with --origin"
            )
        sys.stdout.buffer.write(facts[0][0].raw)
        sys.stdout.buffer.flush()
        return 0
    for each, fact in facts:
        print(f"{args.event_id}: {fact.fact_type} from {fact.source}, stored as "
              f"{each.aggregate_id} v{each.version} at {fact.timestamp.isoformat()}")  # fmt: skip
        print(f"  received: {len(each.raw):,} bytes, sha256 {hashlib.sha256(each.raw).hexdigest()}")
        print(f"  stored:   {fact.fact_json}")
    return 0
