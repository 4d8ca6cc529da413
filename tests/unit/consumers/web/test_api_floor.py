"""``/api/tables``, ``/api/floor``, ``/api/stats`` and ``/api/chain`` over a careless shift."""

from audit.store.verify import verify_chain
from audit.verification.statistics import stats_of


def test_every_table_has_its_live_state(shift_app, shift_as):
    expected = shift_app.state.views.table_state.select()
    body = shift_as("analyst").get("/api/tables").json()
    assert [t["table_id"] for t in body] == [r["table_id"] for r in expected]
    assert len(body) == 4
    first = expected[0]
    one = shift_as("analyst").get(f"/api/tables/{first['table_id']}").json()
    assert (one["dealer_id"], one["rule_set"], one["rounds_played"]) == (
        first["dealer_id"],
        first["rule_set"],
        first["rounds_played"],
    )
    assert shift_as("analyst").get("/api/tables/NOPE").status_code == 404


def test_the_floor_counts_each_tables_alerts(shift_app, shift_as):
    from audit.findings.finding import Severity
    from projections.findings_view import FindingFilter

    alerts = shift_app.state.views.findings.select(FindingFilter(min_severity=Severity.WARNING))
    body = shift_as("analyst").get("/api/floor").json()
    assert body["alerts"] == len(alerts)
    for table in body["tables"]:
        mine = [a for a in alerts if a["table_id"] == table["table_id"]]
        assert table["alerts"] == len(mine)
        assert table["critical"] == sum(a["severity"] == "critical" for a in mine)


def test_stats_match_the_win_rate_view(shift_app, shift_as):
    expected = stats_of(shift_app.state.views.win_rates.tallies("dealer"), "dealer", 0.99)
    body = shift_as("auditor").get("/api/stats", params={"by": "dealer", "confidence": 0.99}).json()
    assert [(g["group"], g["n"], g["wins"]) for g in body["groups"]] == [
        (r.group, r.n, r.wins) for r in expected
    ]
    # Money won against money expected, exact, as the view gives it.
    assert [(g["wagered"], g["won"], g["money_flagged"]) for g in body["groups"]] == [
        (str(r.wagered), str(r.won), r.money_flagged) for r in expected
    ]
    by_player = shift_as("analyst").get("/api/stats", params={"by": "dealer,player"}).json()
    assert [g["group"] for g in by_player["groups"]] == [
        r.group for r in stats_of(shift_app.state.views.win_rates.tallies("dealer,player"),
                                  "dealer,player")
    ]  # fmt: skip
    one = by_player["groups"][-1]
    alone = (
        shift_as("analyst")
        .get("/api/stats", params={"by": "dealer,player", "group": one["group"]})
        .json()
    )
    assert alone["groups"] == [one]  # #16: one group by its key, as it is among all
    nobody = shift_as("analyst").get("/api/stats", params={"by": "player", "group": "nobody"})
    assert nobody.json()["groups"] == []
    assert shift_as("analyst").get("/api/stats", params={"by": "shoe"}).status_code == 422
    assert shift_as("analyst").get("/api/stats", params={"confidence": 1.5}).status_code == 422


def test_the_chain_heads_are_the_ingests_and_the_status_verifies_them(shift_app, shift_as):
    client = shift_as("auditor")
    heads = client.get("/api/chain/heads").json()
    report = verify_chain(shift_app.state.store)
    assert {h["table_id"]: h["chain_head"] for h in heads["tables"]} == report.heads
    first = client.get("/api/chain/status").json()
    assert first["state"] in ("verifying", "verified")
    shift_app.state.chain_watch.wait(60)
    done = client.get("/api/chain/status").json()
    assert done["state"] == "verified"
    assert done["ok"] is report.ok
    assert done["facts"] == report.facts


def test_the_floor_is_the_analysts(shift_as):
    assert shift_as("auditor").get("/api/floor").status_code == 403
    assert shift_as("admin").get("/api/tables").status_code == 403


def test_the_floor_counts_only_each_tables_gaming_day(tmp_path):
    """#16: the floor shows a table's alerts of its day, read by the day, not every alert since
    the store began: a warning filed under an earlier day is in the queue, not on the floor."""
    from dataclasses import replace

    from eventsourcing.persistence import Tracking
    from fastapi.testclient import TestClient

    from audit.findings.finding import Severity
    from projections.findings_view import FindingFilter
    from tests.builders.alerts import AN_INFO_FINDING
    from tests.builders.shift_store import careless_store
    from tests.builders.web_app import login, make_app

    store, _ = careless_store(tmp_path / "shift.sqlite")
    app = make_app(tmp_path, store=store)
    client = TestClient(app, base_url="http://testserver")
    assert login(client, "ann").status_code == 303
    before = client.get("/api/floor").json()
    table = before["tables"][0]
    earlier = str(int(table["gaming_day"][:4]) - 1) + table["gaming_day"][4:]
    old = replace(AN_INFO_FINDING, code="TEST-OLD", severity=Severity.CRITICAL,
                  table_id=table["table_id"], gaming_day=earlier)  # fmt: skip
    app.state.views.findings.record([(old, 0)], Tracking("test-old", 1))
    after = client.get("/api/floor").json()
    assert after["alerts"] == before["alerts"]
    assert after["tables"][0]["alerts"] == table["alerts"]
    assert after["tables"][0]["critical"] == table["critical"]
    queue = app.state.views.findings.select(FindingFilter(table_id=table["table_id"]))
    assert "TEST-OLD" in {row["code"] for row in queue}  # recorded all the same


def test_a_later_status_run_proves_what_was_stored_since_and_a_day_old_walk_starts_anew(
    tmp_path,
):
    """#16: a run after the first goes on with its walk, reading the events stored since, and
    reports what a verification from the first event reports; a walk a day old is left for a
    new one that reads every event again."""
    from fastapi.testclient import TestClient

    from consumers.web.api.chain import STALE_AFTER_S
    from consumers.web.auth import User
    from projections.findings_view import FindingFilter
    from tests.builders.shift_store import careless_store
    from tests.builders.web_app import login, make_app

    store, _ = careless_store(tmp_path / "chain.sqlite")
    app = make_app(tmp_path, store=store)
    client = TestClient(app)
    assert login(client, "aud").status_code == 303
    watch = app.state.chain_watch

    def status_now() -> dict:
        if watch.last is not None:
            watch.last.taken -= STALE_AFTER_S  # as if ten minutes had passed
        client.get("/api/chain/status")
        watch.wait(60)
        return client.get("/api/chain/status").json()

    first = status_now()
    assert first["events_read"] == first["up_to_notification"] == store.last_notification_id()
    finding = app.state.views.findings.select(FindingFilter())[0]
    app.state.cases.open(User("ann", "analyst"), finding)  # two events: the casebook, a fact
    later = status_now()
    assert later["events_read"] == 2
    assert later["walk_started_at"] == first["walk_started_at"]
    whole = verify_chain(store)
    assert (later["ok"], later["facts"], later["up_to_notification"]) == (
        whole.ok,
        whole.facts,
        whole.last_notification_id,
    )
    assert watch.full_after_s == 24 * 3600  # TABLEWATCH_CHAIN_FULL_WALK_HOURS, a day by default
    watch.full_after_s = 0.0
    anew = status_now()
    assert anew["events_read"] == whole.events
    assert anew["walk_started_at"] > first["walk_started_at"]


def test_the_full_walks_period_is_a_setting(tmp_path):
    from tests.builders.web_app import make_app

    app = make_app(tmp_path, chain_full_walk_hours=168)
    assert app.state.chain_watch.full_after_s == 168 * 3600
