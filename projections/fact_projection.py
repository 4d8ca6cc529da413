"""The shared machinery of every read model fed by the store's facts.

A projection reads the store's notification log after its view's recorded
position, turns facts into rows and writes rows and position in one transaction.

Its in-memory state (``state_names``) is checkpointed: pickled and stored with the
rows and the position in the same transaction (projections/checkpoint.py), at the
first write ``checkpoint_every`` facts after the last checkpoint. A restart loads the
checkpoint and replays, without writing, what lies between it and the view's
position (fewer than ``checkpoint_every`` facts), then reads the facts stored
since: it costs the state's size and a bounded replay, never the history. A graceful
stop stores the state at the position (:meth:`FactProjection.rest`), so a planned restart
replays nothing. Between
checkpoints a write pickles nothing, so a consumer following a live store does not
pickle the state for each few facts.
The state is loaded only when there is a fact to apply: a query against a caught-up
view reads no fact and loads no state. Without a checkpoint this code can read (a
store written before checkpoints, or by other code) the projection replays the
facts up to its position without writing, as it always did, so a rebuild from zero,
a restart from a checkpoint and a restart by replay give the same rows.

Why a checkpoint of the whole state rather than a replay of each table's current
gaming day: not every state starts afresh with a gaming day. A table's context
carries over (the tile set in play and since when, the sets inspected, the banking
rotation), the opener is judged against the prior day's closer, the slip series are
casino-wide (a slip reused or out of sequence across tables and days), and the win
rates and shift ledgers are tallies over the whole history; a replay of the current
day alone would judge differently from a rebuild from zero.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import Tracking

from audit.events.envelope import Event
from audit.store.application import FactStore
from audit.store.fact_pages import FactPages
from projections.checkpoint import Checkpoint, CheckpointError, code_digest, dumps, loads

_KINDS: dict[type[Event], str] = {}
"""Event class -> its type name, learnt on first sight."""


def fact_kind(fact: Event) -> str:
    """Return a fact's type name: one dict lookup, for ``apply`` run on every fact."""
    cls = type(fact)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = cls.type_name()
    return kind


class FactProjection(ABC):
    """Reads the store's facts after a view's position: warm-up, then catch-up in batches.

    Subclasses say what a fact does (``apply``, returning rows to write), which
    attributes are the state it builds (``state_names``) and how rows, a position
    and a checkpoint are written (``write``). Warm-up, on the first catch-up with a
    fact to apply, loads the checkpoint and replays what it lacks without writing.
    """

    tracking_name: str
    view_tables: tuple[str, ...] = ()
    """The tables that hold this read model's rows, and only its: what a rebuild of the views
    empties (``consumers/rebuild_views.py``), beside its position and checkpoint."""
    state_names: tuple[str, ...] = ()
    """The attributes ``apply`` builds on, checkpointed; empty when it reads each fact alone."""
    lender: FactProjection | None = None
    """The projection whose state this one borrowed for a pass (:meth:`borrow`), if any: a
    defect in either leaves that shared state half-applied for both."""
    checkpoint_every: int = 20_000
    """Stored events between checkpoints: what a restart replays at most beyond its position."""

    def __init__(self, store: FactStore, view: Any) -> None:
        self.store = store
        self.view = view
        self.pages = FactPages(store)
        self.position = self.view.max_tracking_id(self.tracking_name) or 0
        self.facts_read = 0
        """Stored events read from the notification log by this instance: what a restart costs."""
        self.warm = not self.state_names or self.position == 0
        self.checkpointed = 0
        """The position of the last checkpoint stored by or loaded into this instance."""

    def warm_up(self) -> None:
        """Bring the state to the view's position: its checkpoint, then the facts after it."""
        if self.warm or not self.state_names:
            self.warm = True  # there already, or no state to bring anywhere
            return
        start = 1
        stored = self.view.checkpoint(self.tracking_name)
        if stored is not None and 0 < stored.position <= self.position:
            try:
                state = loads(stored.state) if stored.code == code_digest() else None
            except CheckpointError:
                state = None  # written by other code: replayed from the first fact
            if state is not None and set(state) == set(self.state_names):
                vars(self).update(state)
                start = stored.position + 1
                self.checkpointed = stored.position
        if start <= self.position:
            for notification_id, fact in self._facts(start, stop=self.position):
                if fact is not None:
                    self.apply(fact, notification_id)
        self.pending()  # the rows of the replayed facts are written already
        self.warm = True
        if self.position - self.checkpointed >= self.checkpoint_every:
            # A long replay (no checkpoint of this code): store its end, not to replay it again.
            self.view.save_checkpoint(self.tracking_name, self.checkpoint(self.position))
            self.checkpointed = self.position

    def rest(self) -> bool:
        """Store the state at the view's position unless a checkpoint is there already; return
        whether one was stored. A graceful stop does this, so the next start replays nothing;
        after a kill a start replays at most ``checkpoint_every`` facts.

        Unwarmed, the stored checkpoint's position is read first: a service stopped with
        nothing new loads no state to store what is stored already."""
        if not self.state_names or self.position == 0 or self.position <= self.checkpointed:
            return False
        if not self.warm:
            stored = self.view.checkpoint(self.tracking_name)
            at_position = stored is not None and stored.position == self.position
            if at_position and stored is not None and stored.code == code_digest():
                return False
            self.warm_up()
            if self.position <= self.checkpointed:
                return False
        self.view.save_checkpoint(self.tracking_name, self.checkpoint(self.position))
        self.checkpointed = self.position
        return True

    def borrow(self, others: Sequence[FactProjection]) -> bool:
        """Before a pass beside ``others``, take the state this projection builds from one
        that builds it too at the same position; return whether it did (then it needs no
        warm-up of its own). None does, but the reconciliation (projections/reconciliation.py)."""
        return False

    def give_back(self) -> None:
        """After a pass, let go of borrowed state: a later catch-up warms up its own."""
        return None  # borrows nothing

    def checkpoint(self, position: int) -> Checkpoint | None:
        """Return the state as of ``position``, to store with it (None for a stateless view)."""
        if not self.state_names:
            return None
        state = {name: getattr(self, name) for name in self.state_names}
        return Checkpoint(position, code_digest(), dumps(state))

    @abstractmethod
    def apply(self, fact: Event, notification_id: int) -> list[tuple[Any, ...]]:
        """Take one fact; return the rows it completes."""

    def pending(self) -> list[tuple[Any, ...]]:
        """Return rows that are due at a batch's end, beside those ``apply`` returned."""
        return []

    def write(
        self, rows: list[tuple[Any, ...]], tracking: Tracking, checkpoint: Checkpoint | None
    ) -> None:
        """Write rows, the position and the state's checkpoint in one transaction."""
        self.view.record(rows, tracking, checkpoint)

    def facts_after(self, start: int) -> Iterator[tuple[int, Event | None]]:
        """Yield every stored event from notification id ``start``: a fact, or None."""
        return self._facts(start)

    def write_batch(self, rows: list[tuple[Any, ...]], position: int) -> int:
        """Write rows applied up to ``position`` with it (and any checkpoint due)."""
        return self._write(rows, position)

    def _facts(
        self, start: int, stop: int | None = None, batch: int = 2_000
    ) -> Iterator[tuple[int, Event | None]]:
        """Yield (notification id, fact as an event, or None for other stored events)."""
        pages = self.pages
        fact = pages.fact
        while True:
            rows = pages.page(start, batch, stop=stop)
            self.facts_read += len(rows)
            for row in rows:
                yield row[0], fact(row)
            if len(rows) < batch:
                return
            start = rows[-1][0] + 1

    def catch_up(self, batch: int = 2_000) -> int:
        """Apply every fact stored since the view's position; return how many rows it wrote."""
        if not self.warm:
            if self.store.last_notification_id() <= self.position:
                return 0  # caught up: the state is not needed, so not loaded
            self.warm_up()
        written = 0
        rows: list[tuple[Any, ...]] = []
        last = self.position
        for notification_id, fact in self._facts(self.position + 1):
            if fact is not None:
                rows += self.apply(fact, notification_id)
            last = notification_id
            if notification_id - self.position >= batch:
                written += self._write(rows, last)
                rows = []
        if last > self.position:
            written += self._write(rows, last)
        return written

    def _write(self, rows: list[tuple[Any, ...]], position: int) -> int:
        rows = rows + self.pending()
        checkpoint = None
        if position - self.checkpointed >= self.checkpoint_every:
            checkpoint = self.checkpoint(position)
        self.write(rows, Tracking(self.tracking_name, position), checkpoint)
        if checkpoint is not None:
            self.checkpointed = position
        self.position = position
        return len(rows)
