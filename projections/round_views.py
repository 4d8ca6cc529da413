"""A completed round's view, built once for the read models that read it alike.

The hand history and the table state each view a Pai Gow round when it completes, from
their own lists of the same fact objects (:func:`~projections.together.catch_up_together`
parses each fact once and gives it to both). The second to ask gets the view the first
built, with what was derived from it (its banking, read from the table's layout alone:
:func:`~audit.verification.paigow.banking`), instead of gathering the round again.

A view is shared only when its facts are the very same objects in the same order, so
a read model that saw the round otherwise (from a checkpoint, or behind the other) builds
its own. The views kept are the last few completed, whatever the history's length.
"""

from __future__ import annotations

from operator import is_

from audit.events.envelope import Event
from audit.verification.paigow import RoundView, view_round

KEPT = 64
"""Views kept: both read models ask in the same fact's turn, so a few are plenty."""

_VIEWS: dict[tuple[str, str | None], RoundView] = {}
"""(table, round) -> the round's last view, oldest first."""


def viewed(events: list[Event]) -> RoundView:
    """Return ``view_round(events)``, built once for the same facts."""
    if not events:
        return view_round(events)  # its error: no round to view
    key = (events[0].table_id, events[0].round_id)
    kept = _VIEWS.get(key)
    if (
        kept is not None
        and len(kept.events) == len(events)
        and all(map(is_, kept.events, events))  # the very same facts
    ):
        return kept
    view = view_round(events)
    _VIEWS.pop(key, None)
    if len(_VIEWS) >= KEPT:
        del _VIEWS[next(iter(_VIEWS))]  # the oldest
    _VIEWS[key] = view
    return view
