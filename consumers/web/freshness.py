"""How far the console's views stand behind the store, said on every page while it matters.

The console only reads views; ``tablewatch serve`` writes them. While the service catches up
a backlog (after an outage, a rebuild from zero: hours on a large store), or is not running,
the queue, the floor and the reports lack the newest facts: a page that said nothing would let
an analyst take an empty queue for a quiet floor, or an auditor a report for a whole day.

So each page, for a signed-in user, reads the stored position of every view the web answers
from (one indexed read each) and the last stored event, and says how many stored events the
furthest-behind view has yet to apply, once that is :data:`BEHIND_NOTICE` or more. Under it, a
running service's ordinary distance (a pass every second) is not worth a word. With the
database away it says nothing here: the page's own reads fail and say so.
"""

from __future__ import annotations

from audit.store.application import FactStore
from consumers.view_reads import BEHIND_NOTICE
from consumers.web.api.views import Views
from projections import findings, hand_history, reconciliation, round_index, table_state, win_rates
from projections.read_models import stored_lags
from projections.split import DATABASE_FAULTS

TRACKING_NAMES = tuple(
    module.TRACKING_NAME
    for module in (findings, table_state, win_rates, reconciliation, round_index, hand_history)
)
"""The views the web reads (:class:`~consumers.web.api.views.Views`), by tracking name."""


def views_behind(store: FactStore, views: Views) -> int | None:
    """Return the stored events the furthest-behind view has yet to apply, or None if the store
    cannot be read."""
    try:
        return max(stored_lags(store, views.findings, TRACKING_NAMES).values())
    except DATABASE_FAULTS:
        return None


def behind_notice(store: FactStore, views: Views) -> int | None:
    """Return how far the views are behind when the console should say so, else None."""
    behind = views_behind(store, views)
    return behind if behind is not None and behind >= BEHIND_NOTICE else None
