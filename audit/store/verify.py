"""Prove the stored facts are as recorded: recompute every hash chain, compare with the filed heads.

What each check catches:

- every fact's link is recomputed from its stored fields and its table's
  previous link, every rejection's from its source's (an altered record, one
  removed or inserted out of place, breaks it; see ``audit/facts/chain.py`` for
  what each link format covers);
- a fact linked with its received bytes' digest (format 3) is recomputed from the
  bytes stored beside it (``audit/facts/received.py``): bytes altered, deleted or
  given another event id are reported, and so are bytes beside a fact chained
  without any (a forged row);
- each aggregate's versions run without a hole (a deleted event leaves one), checked in
  memory bounded whatever the history (:class:`_Versions`);
- every case fact's link is recomputed from its stored fields and the casebook's
  previous link (``audit/store/casebook.py``);
- each table's chain ends where the ingest's own state says it does (the
  ``tablewatch_table_heads`` row written in each batch's transaction): deleting a
  table's newest facts, its whole stream, or appending a forged fact with a valid
  link, all behind the ingest's back, leaves the two apart;
- with heads filed outside the database (``tablewatch heads export``), each filed
  chain head must still be on its chain at its filed position: this catches
  what an intruder who also rewrites the state tables can do, a deleted tail,
  a deleted stream, a history re-chained from an edit onwards.

A store with no facts never passes: it proves nothing.

Holes in the notification ids are reported but are not evidence: PostgreSQL
draws ids from a sequence, and a transaction that rolls back (a crash
mid-batch) leaves its ids unused.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from audit.facts import received
from audit.facts.chain import (
    GENESIS,
    LINK_ALL_FIELDS,
    LINK_FACT_ONLY,
    LINK_RECEIVED,
    case_link,
    digest,
    fact_link,
    link,
    rejection_link,
)
from audit.facts.heads import ChainHead, FiledHeads
from audit.facts.received import ReceivedFact
from audit.store.aggregates import FactRecorded
from audit.store.application import FactStore
from audit.store.casebook import Casebook
from audit.store.ingest import Rejections


@dataclass
class ChainReport:
    """What verification found: counts, each chain's head, and every problem."""

    events: int = 0
    facts: int = 0
    rejections: int = 0
    last_notification_id: int = 0
    heads: dict[str, str] = field(default_factory=dict)
    """Each table's chain head."""
    counts: dict[str, int] = field(default_factory=dict)
    """How many facts each table's chain holds."""
    rejection_heads: dict[str, str] = field(default_factory=dict)
    """Each source's rejection chain head (GENESIS while only unchained rejections are stored)."""
    rejection_counts: dict[str, int] = field(default_factory=dict)
    case_facts: int = 0
    """Case facts in the casebook's chain (``audit/store/casebook.py``)."""
    case_head: str = GENESIS
    """The casebook chain's head (GENESIS while no case was opened)."""
    problems: list[str] = field(default_factory=list)
    id_gaps: list[tuple[int, int]] = field(default_factory=list)
    """(last id before, next id) around each hole in the notification ids."""
    most_aggregates_held: int = 0
    """The most aggregates' versions the walk held at once (bounded: :class:`_Versions`)."""
    versions_looked_up: int = 0
    """Aggregates' previous versions read from the store rather than held."""

    @property
    def ok(self) -> bool:
        """Return whether no problem was found."""
        return not self.problems

    def filed_heads(self, exported_at: str) -> FiledHeads:
        """Return the heads found, to file (``audit/facts/heads.py``)."""
        return FiledHeads(
            exported_at=exported_at,
            last_notification_id=self.last_notification_id,
            tables={t: ChainHead(h, self.counts[t]) for t, h in self.heads.items()},
            rejections={
                s: ChainHead(h, self.rejection_counts[s]) for s, h in self.rejection_heads.items()
            },
        )


HELD_AGGREGATES = 65_536
"""Aggregates whose last version the walk holds in each of its two generations."""


class _Versions:
    """Each aggregate's last version seen by the walk, in memory bounded whatever the history.

    Every round is an aggregate, so a walk that held every aggregate it saw would hold every
    round ever played (#16: a year of a large floor is tens of millions). It holds those seen
    lately, in two generations of at most ``held`` each (the older dropped when the younger
    fills), and looks any other up in the store: the version of its last event stored before
    this one, by notification id, what the walk would have held. A version 1 needs no lookup
    (nothing comes before it), so a lookup is made only for an aggregate that went quiet
    while more than ``held`` others were written, and came back: a table's gaming day between
    its table-level facts on a large floor."""

    def __init__(self, store: FactStore, held: int = HELD_AGGREGATES) -> None:
        self._store, self._held = store, held
        self._young: dict[UUID | str, int] = {}
        self._old: dict[UUID | str, int] = {}
        self.looked_up = 0
        """Versions read from the store, not memory."""
        self.most_held = 0

    def previous(self, originator_id: UUID | str, version: int, notification_id: int) -> int:
        """Return the aggregate's version last seen before ``notification_id`` (0 if none)."""
        found = self._young.get(originator_id)
        if found is None:
            found = self._old.get(originator_id)
        if found is None:
            found = 0 if version == 1 else self._stored(originator_id, notification_id)
        return found

    def seen(self, originator_id: UUID | str, version: int) -> None:
        """Note the aggregate's version as the walk's latest."""
        self._young[originator_id] = version
        if len(self._young) >= self._held:
            self._old, self._young = self._young, {}
        self.most_held = max(self.most_held, len(self._young) + len(self._old))

    def _stored(self, originator_id: UUID | str, notification_id: int) -> int:
        self.looked_up += 1
        if self._store.is_postgres:
            statement = (
                f"SELECT originator_version FROM {self._store.events_table} WHERE originator_id"
                " = %s AND notification_id < %s ORDER BY notification_id DESC LIMIT 1"
            )
            key: Any = originator_id
        else:
            statement = (
                f"SELECT originator_version FROM {self._store.events_table} WHERE originator_id"
                " = ? AND rowid < ? ORDER BY rowid DESC LIMIT 1"
            )
            key = originator_id.hex if isinstance(originator_id, UUID) else originator_id
        datastore: Any = self._store.process_recorder.datastore  # type: ignore[attr-defined]
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, (key, notification_id))
            row = cursor.fetchone()
        if row is None:
            return 0
        return int(row["originator_version"] if isinstance(row, dict) else row[0])


@dataclass
class _Walk:
    """What the walk keeps beside the report: per aggregate, per chain, per filed head."""

    filed: FiledHeads | None
    versions: _Versions
    full_links: set[str] = field(default_factory=set)
    """Tables whose chain has reached the all-fields link format."""
    rejection_sources: dict[UUID, str] = field(default_factory=dict)
    received: dict[tuple[UUID, int], ReceivedFact] = field(default_factory=dict)
    """The received bytes stored beside the facts of the page being walked."""


def verify_chain(
    store: FactStore,
    batch: int = 2_000,
    filed: FiledHeads | None = None,
    held: int = HELD_AGGREGATES,
) -> ChainReport:
    """Read every stored event in order and report any break in the evidence.

    With ``filed`` heads, also report every filed chain that is now shorter,
    missing, or no longer passes through its filed head. ``held`` bounds the aggregates
    whose versions the walk holds in memory (:class:`_Versions`).
    """
    return ChainWalk(store, filed=filed, held=held, batch=batch).advance()


class ChainWalk:
    """A walk of every stored event in order that goes on from where it stopped.

    :meth:`advance` walks the events stored since its last call (every one, the first time)
    and returns the report of the whole walk so far, held to the ingest's state and the
    filed heads as they stand at its end. What it keeps between calls is what a walk keeps:
    a head and a count per chain, and the aggregates seen lately (:class:`_Versions`), none
    of it growing with history. A later call proves the events stored since; it does not
    read again those already proved (a fresh walk does: the console starts one a day)."""

    def __init__(
        self,
        store: FactStore,
        filed: FiledHeads | None = None,
        held: int = HELD_AGGREGATES,
        batch: int = 2_000,
    ) -> None:
        self.store, self.filed, self.batch = store, filed, batch
        self._report = ChainReport()
        self._walk = _Walk(filed, _Versions(store, held))
        self._start = 1
        self.read_last = 0
        """Events the last :meth:`advance` read."""

    def advance(self) -> ChainReport:
        """Walk the events stored since the last call; return the whole walk's report."""
        store, report, walk = self.store, self._report, self._walk
        recorder = store.process_recorder
        datastore: Any = recorder.datastore  # type: ignore[attr-defined]
        keeps_received = received.exists(datastore, postgres=store.is_postgres)
        self.read_last = 0
        while True:
            notifications = recorder.select_notifications(self._start, self.batch)
            if keeps_received:
                walk.received = received.for_events(
                    datastore,
                    [(each.originator_id, each.originator_version) for each in notifications],
                    postgres=store.is_postgres,
                )
            for notification in notifications:
                self._step(report, walk, notification)
            self.read_last += len(notifications)
            if notifications:
                self._start = notifications[-1].id + 1
            if len(notifications) < self.batch:
                break
        return self._ended(copy.deepcopy(report))

    def _step(self, report: ChainReport, walk: _Walk, notification: Any) -> None:
        report.events += 1
        expected_id = report.last_notification_id + 1
        if notification.id != expected_id:
            report.id_gaps.append((expected_id - 1, notification.id))
        report.last_notification_id = notification.id
        previous = walk.versions.previous(
            notification.originator_id, notification.originator_version, notification.id
        )
        if notification.originator_version != previous + 1:
            report.problems.append(
                f"aggregate {notification.originator_id} jumps from version {previous} "
                f"to {notification.originator_version} (notification {notification.id})"
            )
        walk.versions.seen(notification.originator_id, notification.originator_version)
        try:
            event = self.store.mapper.to_domain_event(notification)
        except Exception as error:
            report.problems.append(f"notification {notification.id} cannot be read: {error}")
            return
        if isinstance(event, FactRecorded):
            _check_fact(report, walk, notification.id, event)
        elif isinstance(event, Rejections.Created):
            walk.rejection_sources[event.originator_id] = event.source
        elif isinstance(event, Rejections.MessageRejected):
            _check_rejection(report, walk, notification.id, event)
        elif isinstance(event, Casebook.CaseRecorded):
            _check_case(report, notification.id, event)

    def _ended(self, report: ChainReport) -> ChainReport:
        """Hold a copy of the walk's report to what must be true at its end."""
        report.most_aggregates_held = self._walk.versions.most_held
        report.versions_looked_up = self._walk.versions.looked_up
        if report.facts == 0:
            report.problems.append("no facts stored: an empty store proves nothing")
        _compare_ingest_state(report, self.store)
        if self.filed is not None:
            _compare_filed(report, self._walk, self.filed)
        return report


def _check_fact(
    report: ChainReport, walk: _Walk, notification_id: int, event: FactRecorded
) -> None:
    report.facts += 1
    try:
        fact = event.fact
    except ValueError:
        fact = {}  # unreadable text still has a digest: the link check below reports it
    table = str(fact.get("table_id"))
    head = report.heads.get(table, GENESIS)
    where = f"table {table}: fact at notification {notification_id}"
    if event.chain_prev != head:
        report.problems.append(
            f"{where} follows link {event.chain_prev[:12]}, but the chain was at {head[:12]} "
            "(missing or reordered)"
        )
    fact_digest = digest(event.fact_json)
    version = event.chain_version
    beside = walk.received.get((event.originator_id, event.originator_version))
    if beside is not None and version != LINK_RECEIVED:
        report.problems.append(f"{where} has received bytes stored beside it, but was chained "
                               "without any (a forged row)")  # fmt: skip
    if version == LINK_FACT_ONLY:
        recomputed = link(event.chain_prev, fact_digest)
        if table in walk.full_links:
            report.problems.append(
                f"{where} falls back to link format {version} after format {LINK_ALL_FIELDS}"
            )
    elif version == LINK_ALL_FIELDS:
        walk.full_links.add(table)
        recomputed = fact_link(
            event.chain_prev, str(event.originator_id), event.originator_version,
            event.timestamp.isoformat(), event.fact_type, event.source, fact_digest,
        )  # fmt: skip
    elif version == LINK_RECEIVED:
        walk.full_links.add(table)
        recomputed = _received_link(report, where, fact, event, fact_digest, beside)
    else:
        report.problems.append(f"{where} has an unknown link format {version!r}")
        recomputed = ""
    if recomputed and recomputed != event.chain_hash:
        report.problems.append(
            f"{where} ({fact.get('type')}, seq {fact.get('seq')}) does not match its link: "
            "its stored fields were altered"
        )
    report.heads[table] = event.chain_hash
    count = report.counts[table] = report.counts.get(table, 0) + 1
    _at_filed_position(report, walk, "table", table, count, event.chain_hash)


def _received_link(
    report: ChainReport,
    where: str,
    fact: dict[str, Any],
    event: FactRecorded,
    fact_digest: str,
    beside: ReceivedFact | None,
) -> str:
    """Return a format-3 fact's link recomputed with its received bytes ("" without them)."""
    if beside is None:
        report.problems.append(f"{where}: the bytes it was received as are missing")
        return ""
    # A reused id's message is stored as the ingest's observation, filed under the id it bore.
    arrived_as = str(fact.get("reused_event_id") or fact.get("event_id"))
    if beside.event_id != arrived_as:
        report.problems.append(
            f"{where}: its received bytes are filed under event id {beside.event_id!r}, "
            f"not {arrived_as!r}"
        )
    return fact_link(
        event.chain_prev, str(event.originator_id), event.originator_version,
        event.timestamp.isoformat(), event.fact_type, event.source, fact_digest,
        hashlib.sha256(beside.raw).hexdigest(),
    )  # fmt: skip


def _check_rejection(
    report: ChainReport, walk: _Walk, notification_id: int, event: Rejections.MessageRejected
) -> None:
    report.rejections += 1
    source = walk.rejection_sources.get(event.originator_id, str(event.originator_id))
    head = report.rejection_heads.get(source, GENESIS)
    where = f"rejections of {source}: rejection at notification {notification_id}"
    if not event.chain_hash:
        if head != GENESIS:
            report.problems.append(f"{where} has no link, after linked ones")
    else:
        if event.chain_prev != head:
            report.problems.append(
                f"{where} follows link {event.chain_prev[:12]}, but the chain was at "
                f"{head[:12]} (missing or reordered)"
            )
        recomputed = rejection_link(
            event.chain_prev, str(event.originator_id), event.originator_version,
            event.timestamp.isoformat(), event.origin, event.reason, event.size,
            event.raw_base64, event.sha256,
        )  # fmt: skip
        if recomputed != event.chain_hash:
            report.problems.append(
                f"{where} does not match its link: its stored fields were altered"
            )
        head = event.chain_hash
    report.rejection_heads[source] = head
    count = report.rejection_counts[source] = report.rejection_counts.get(source, 0) + 1
    _at_filed_position(report, walk, "rejections", source, count, head)


def _check_case(report: ChainReport, notification_id: int, event: Casebook.CaseRecorded) -> None:
    """A case fact must follow the casebook's head and match its link."""
    report.case_facts += 1
    where = f"casebook: case fact at notification {notification_id}"
    if event.chain_prev != report.case_head:
        report.problems.append(
            f"{where} follows link {event.chain_prev[:12]}, but the chain was at "
            f"{report.case_head[:12]} (missing or reordered)"
        )
    recomputed = case_link(
        event.chain_prev, str(event.originator_id), event.originator_version,
        event.timestamp.isoformat(), event.fact_type, digest(event.fact_json),
    )  # fmt: skip
    if recomputed != event.chain_hash:
        report.problems.append(f"{where} does not match its link: its stored fields were altered")
    report.case_head = event.chain_hash


def _at_filed_position(
    report: ChainReport, walk: _Walk, kind: str, name: str, count: int, head: str
) -> None:
    """At a filed chain's filed length, its head must be the filed one."""
    if walk.filed is None:
        return
    filed = walk.filed.chains(kind).get(name)
    if filed is None or filed.count != count:
        return
    if head != filed.head:
        label = "table" if kind == "table" else "rejections of"
        report.problems.append(
            f"{label} {name}: record {count} is no longer the filed one (head {filed.head[:12]} "
            f"filed, {head[:12]} stored): its history was rewritten and re-chained"
        )


def _compare_ingest_state(report: ChainReport, store: FactStore) -> None:
    """Each table's chain must end where the ingest's state, written with each batch, says."""
    state = {head.table_id: head.chain_head for head in store.ingest_state.heads()}
    if not state:
        return  # a store the ingest has not yet migrated (or never wrote): nothing to hold it to
    for table, recorded in sorted(state.items()):
        stored = report.heads.get(table)
        if stored is None:
            report.problems.append(
                f"table {table}: the ingest recorded its chain head {recorded[:12]}, but none "
                "of its facts is stored: its stream was deleted"
            )
        elif stored != recorded:
            report.problems.append(
                f"table {table}: the chain ends at {stored[:12]}, but the ingest recorded "
                f"{recorded[:12]}: facts were deleted or added behind its back"
            )
    for table in sorted(set(report.heads) - set(state)):
        report.problems.append(
            f"table {table}: {report.counts[table]} fact(s) stored that the ingest never recorded"
        )


def _compare_filed(report: ChainReport, walk: _Walk, filed: FiledHeads) -> None:
    """Every filed chain must still reach its filed length; the store must reach its filed end."""
    for kind, counts in (("table", report.counts), ("rejections", report.rejection_counts)):
        label = "table" if kind == "table" else "rejections of"
        for name, head in sorted(filed.chains(kind).items()):
            now = counts.get(name, 0)
            if now == 0:
                report.problems.append(
                    f"{label} {name}: {head.count} record(s) filed, none stored: "
                    "its stream was deleted"
                )
            elif now < head.count:
                report.problems.append(
                    f"{label} {name}: {now} record(s) stored, {head.count} filed: "
                    "its newest records were deleted"
                )
    if report.last_notification_id < filed.last_notification_id:
        report.problems.append(
            f"the store ends at notification {report.last_notification_id}, the heads were "
            f"filed at {filed.last_notification_id}: its newest events were deleted"
        )
