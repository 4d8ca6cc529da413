"""A page of stored events, read in one query, holds what eventsourcing's recorder reads."""

import pytest

from audit.store.application import FactStore
from audit.store.fact_pages import FactPages
from tests.builders.gaming_days import Feed, gaming_day


@pytest.mark.parametrize("store_config", ["sqlite", "postgres"], indirect=True)
def test_a_page_is_the_recorders_notifications(store_config):
    store = FactStore(store_config)
    Feed(store)(gaming_day(0, seed=5))
    last = store.last_notification_id()
    pages = FactPages(store)
    recorder = store.process_recorder
    for start, limit, stop in [(1, 10_000, None), (1, 50, None), (37, 100, 90), (last, 5, None),
                               (last + 1, 5, None), (5, 10, 4)]:  # fmt: skip
        ours = pages.page(start, limit, stop)
        theirs = recorder.select_notifications(start, limit, stop=stop)
        assert ours == [(n.id, n.topic, bytes(n.state)) for n in theirs], (start, limit, stop)
    facts = [pages.fact(row) for row in pages.page(1, 10_000)]
    assert sum(fact is not None for fact in facts) == sum(1 for _ in store.facts())
