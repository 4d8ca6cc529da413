"""#16: while ``tablewatch serve`` catches up (or is not running), every console page says how
far its views stand behind the store, so an empty queue is never taken for a quiet floor."""

import re

import pytest
from eventsourcing.persistence import OperationalError
from fastapi.testclient import TestClient

from audit.store.application import FactStore, StoreConfig
from consumers.web import freshness
from projections.read_models import READ_MODELS
from projections.together import catch_up_together
from tests.builders.gaming_days import Feed, gaming_day
from tests.builders.web_app import USERS, login, make_app


@pytest.fixture
def fed(tmp_path):
    """An app over a store holding a gaming day that no read model has applied yet."""
    store = FactStore(StoreConfig.sqlite(tmp_path / "s.sqlite"))
    Feed(store)(gaming_day(0, seed=20))
    return store, make_app(tmp_path, store=store)


def _signed_in(app, role: str) -> TestClient:
    client = TestClient(app, base_url="http://testserver")
    name = next(n for n, r in USERS.items() if r == role)
    assert login(client, name).status_code == 303
    return client


def _notice(page: str) -> int | None:
    found = re.search(r"The views are ([\d,]+) stored events\s+behind the store", page)
    return None if found is None else int(found.group(1).replace(",", ""))


@pytest.mark.parametrize(("role", "path"), [("analyst", "/findings"), ("auditor", "/reports/mgr")])
def test_a_page_says_how_far_the_views_are_behind_until_they_catch_up(fed, monkeypatch, role, path):
    store, app = fed
    last = store.last_notification_id()
    monkeypatch.setattr(freshness, "BEHIND_NOTICE", last // 2)
    client = _signed_in(app, role)
    assert _notice(client.get(path).text) == last  # nothing applied yet
    models = [kind(store) for kind in READ_MODELS]
    catch_up_together(models, batch=last // 4, stopped=lambda: True)  # one batch, then stop
    behind = _notice(client.get(path).text)
    assert behind is not None
    assert 0 < behind < last
    catch_up_together([kind(store) for kind in READ_MODELS])
    assert _notice(client.get(path).text) is None


def test_under_the_notice_nothing_is_said(fed):
    store, app = fed
    assert store.last_notification_id() < freshness.BEHIND_NOTICE  # a day's ~900 facts
    assert freshness.views_behind(store, app.state.views) == store.last_notification_id()
    assert _notice(_signed_in(app, "analyst").get("/findings").text) is None


def test_the_sign_in_page_reads_nothing(fed, monkeypatch):
    store, app = fed
    monkeypatch.setattr(freshness, "BEHIND_NOTICE", 1)
    asked: list[int] = []
    monkeypatch.setattr(store, "last_notification_id", lambda: asked.append(1) or 0)
    page = TestClient(app, base_url="http://testserver").get("/login")
    assert page.status_code == 200
    assert asked == []


def test_with_the_database_away_the_page_still_renders_without_a_notice(fed, monkeypatch):
    store, app = fed
    monkeypatch.setattr(freshness, "BEHIND_NOTICE", 1)
    client = _signed_in(app, "analyst")

    def away() -> int:
        raise OperationalError("the database went away")

    monkeypatch.setattr(store, "last_notification_id", away)
    assert freshness.views_behind(store, app.state.views) is None
    page = client.get("/cases")  # a page whose own reads do not need the last stored event
    assert page.status_code == 200
    assert _notice(page.text) is None
