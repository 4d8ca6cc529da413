"""A completed round's view is built once for the read models that read the same facts."""

from __future__ import annotations

from audit.events.catalogue import parse_event
from audit.events.envelope import Event
from audit.events.examples import EXAMPLES
from audit.verification.paigow import view_round
from projections import round_views
from projections.round_views import viewed


def _round(round_id: str = "PG-01-2026-11-21-r42") -> list[Event]:
    kinds = ("round_started", "wager_placed", "round_completed")
    return [parse_event({**EXAMPLES[kind], "round_id": round_id}) for kind in kinds]


def test_the_same_facts_share_one_view() -> None:
    facts = _round()
    assert viewed(list(facts)) is viewed(list(facts))
    assert viewed(facts) == view_round(facts)


def test_facts_parsed_apart_or_more_of_them_are_viewed_anew() -> None:
    facts = _round()
    first = viewed(facts[:2])
    assert viewed(facts) is not first
    assert viewed(_round()) is not viewed(facts)


def test_only_the_last_few_views_are_kept() -> None:
    for number in range(round_views.KEPT * 3):
        viewed(_round(f"r{number}"))
    assert len(round_views._VIEWS) == round_views.KEPT
