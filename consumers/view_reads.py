"""A command's views: caught up by the command when no service keeps the store, else as they stand.

``findings``, ``report``, ``replay``, ``stats``, ``equipment`` and ``alerts`` answer from read
models. On a store no ``tablewatch serve`` keeps (the embedded default, a terminal on a copy),
each command catches its views up first, so that it answers for every stored fact. Beside a
running service it must not: two writers of one view race for the same positions, and the one
that writes second stops on the conflict, an analyst's query or the service's pass.

So a command catches its views up only under the store's lease (``consumers/store_lease.py``),
taken for the catch-up and let go at once; a service that starts meanwhile waits a poll for it.
When a service holds the lease, the command reads the views that service keeps, as they stand,
and says on stderr how far behind the store they are once that is :data:`BEHIND_NOTICE` stored
events or more (under it, a running service's distance between passes).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Generic, TextIO, TypeVar, cast

from audit.store.application import FactStore
from consumers.store_lease import StoreLease
from projections.fact_projection import FactProjection
from projections.read_models import stored_lags
from projections.together import catch_up_together

BEHIND_NOTICE = 2_000
"""Stored events (about fifty rounds) a view must lack before a reader is told: a floor of 300
tables stores that in under half a minute, far more than a running service lags."""

P = TypeVar("P", bound=FactProjection)


def caught_up(
    store: FactStore, kind: Callable[[FactStore], P], *, notes: TextIO | None = None
) -> P:
    """Return the read model ``kind`` of ``store``, caught up unless a service keeps it."""
    [projection] = caught_up_all(store, [kind], notes=notes)
    return cast(P, projection)


def caught_up_all(
    store: FactStore,
    kinds: Sequence[Callable[[FactStore], FactProjection]],
    *,
    notes: TextIO | None = None,
) -> list[FactProjection]:
    """Return the read models ``kinds`` of ``store``: caught up together (each fact read once)
    under the store's lease, or, while another process holds it, as that process keeps them,
    with a line on ``notes`` (stderr) when they are :data:`BEHIND_NOTICE` events behind or more."""
    return read_views(store, kinds, notes=notes)[0]


def read_views(
    store: FactStore,
    kinds: Sequence[Callable[[FactStore], FactProjection]],
    *,
    notes: TextIO | None = None,
) -> tuple[list[FactProjection], bool]:
    """Return :func:`caught_up_all`'s read models, and whether this process caught them up
    (False: a service keeps them, and they may lack the newest facts)."""
    lease = StoreLease(store)
    if lease.try_acquire():
        try:
            # Opened under the lease: positions read before it may have moved since.
            projections = [kind(store) for kind in kinds]
            catch_up_together(projections)
        finally:
            lease.release()
        return projections, True
    projections = [kind(store) for kind in kinds]
    names = [projection.tracking_name for projection in projections]
    behind = max(stored_lags(store, projections[0].view, names).values(), default=0)
    if behind >= BEHIND_NOTICE:
        print(
            f"note: another tablewatch process (serve) keeps this store's views and is "
            f"{behind:,} stored events behind; this answer lacks the newest facts",
            file=notes or sys.stderr,
        )
    return projections, False


class Following(Generic[P]):
    """A long-running reader's read model (``alerts --follow``), caught up at each poll under
    the store's lease while it is free, and read as it stands while a service holds it."""

    def __init__(self, store: FactStore, kind: Callable[[FactStore], P]) -> None:
        self.store = store
        self.kind = kind
        self.lease = StoreLease(store)
        self.projection = kind(store)
        self.stale = False
        """Whether the state held is not the stored position's (a catch-up failed midway)."""

    def catch_up(self) -> P:
        """Catch the read model up if no other process keeps it; return it."""
        if not self.lease.try_acquire():
            return self.projection
        try:
            projection = self.projection
            stored = projection.view.max_tracking_id(projection.tracking_name) or 0
            if self.stale or stored != projection.position:  # a service wrote it since
                self.projection = projection = self.kind(self.store)
                self.stale = False
            catch_up_together([projection])
        finally:
            self.lease.release()
        return projection

    def forget(self) -> None:
        """After a database fault: what the catch-up applied but did not write went with its
        transaction, so the next one opens the read model afresh from what is stored."""
        self.stale = True
