"""The console in headless Chromium: an analyst works a finding, an auditor reads the MGR.

The analyst signs in, opens a finding from the queue, steps through its replay (the tiles
drawn, the finding under its step), opens a case from it and closes it; the auditor
opens the MGR and downloads its CSV. Each view is then found in the access log, and each
role is kept to its pages. Every page is saved as a screenshot (tests/browser/artifacts/).

The tests are one story on one app, in order (the admin reads the access log the analyst and
the auditor wrote before), so ``make test`` runs the module on one worker (its xdist group).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from audit.events.catalogue import parse_event
from audit.store.ingest import Accepted, Ingestor
from consumers.serve import Service
from consumers.web.access_log import read_access
from tests.builders.web_app import PASSWORD

pytestmark = pytest.mark.xdist_group("console-story")


def sign_in(page, name: str) -> None:
    page.goto("/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    # the form posts to /login and is sent on: wait for the page it lands on, not the old one
    page.wait_for_url(lambda url: not url.split("?", 1)[0].endswith("/login"))


def test_an_analyst_opens_a_finding_steps_through_its_replay_and_works_a_case(page, shoot, app):
    sign_in(page, "ann")
    assert page.url.endswith("/findings")
    shoot(page, "01-findings-queue")
    page.fill("input[name=code_prefix]", "PG-SETTLE")
    page.click("text=Filter")
    row = page.locator('tr.finding-row[data-code="PG-SETTLE-PAYOUT"]')
    expect(row).to_have_count(1)  # waits for the filtered page, not the one it replaces
    row.locator("a").click()
    page.wait_for_url(re.compile(r"/findings/[0-9a-f-]{36}$"))
    finding_id = page.url.rsplit("/", 1)[1]
    assert page.locator(".at-stake").inner_text() == "$5.00"
    assert re.match(r"(PA|NJ|CA) ", page.locator(".rule").inner_text())
    shoot(page, "02-finding")

    page.click("#open-replay")
    page.wait_for_url(re.compile(r"/rounds/"))
    round_id = page.url.split("/rounds/", 1)[1].split("?", 1)[0]
    finding = page.locator(f"#finding-{finding_id}")
    step = page.locator("section.step", has=finding)
    assert step.get_attribute("data-kind") == "settlement"
    assert step.is_visible()  # the link opened the finding's step
    assert page.locator("section.step:visible").count() == 1
    shoot(page, "03-replay-settlement")
    # Step through from the start: the deal's tiles are pictures, rendered by the browser.
    page.click("nav.stepper a[data-step='1']")
    for _ in range(3):
        page.click("#next-step")
    deal = page.locator("section.step[data-kind=deal]")
    expect(deal).to_be_visible()
    tiles = deal.locator("svg.tile")
    assert tiles.count() >= 16
    box = tiles.first.bounding_box()
    assert box is not None
    assert box["width"] > 20
    assert box["height"] > 40
    shoot(page, "04-replay-deal")
    page.click("#next-step")
    expect(page.locator("section.step[data-kind=hands]")).to_be_visible()
    expect(deal).to_be_hidden()

    # Back to the finding: open a case from it, note it, link a round, close it.
    page.goto(f"/findings/{finding_id}")
    page.fill("input[name=note]", "paid $5 over the paytable")
    page.click("#open-case")
    page.wait_for_url(re.compile(r"/cases/C-\d{5}$"))
    case_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#case-status")).to_have_text("open")
    page.fill("#note-form textarea[name=text]", "dealer spoken to; tape reviewed")
    page.click("#note-form button")
    page.fill("#round-form input[name=round_id]", round_id)
    page.click("#round-form button")
    expect(page.locator("ul.rounds a")).to_have_text(round_id)
    shoot(page, "05-case-open")
    page.select_option("#close-form select[name=disposition]", "procedure_violation")
    page.fill("#close-form input[name=note]", "retraining booked")
    page.click("#close-form button")
    expect(page.locator("#case-status")).to_have_text("closed")
    assert page.locator("#disposition").inner_text().startswith("procedure_violation")
    assert page.locator("#close-form").count() == 0
    assert page.locator("ul.notes li").count() == 2
    shoot(page, "06-case-closed")
    page.click("header nav >> text=Cases")
    expect(page.locator(f'tr.case-row[data-case="{case_id}"]')).to_have_count(1)

    views = [(a.kind, a.ref) for a in read_access(app.state.db, user="ann")]
    assert ("finding", finding_id) in views
    assert any(kind == "round" and ref.endswith(f"/{round_id}") for kind, ref in views)
    assert ("case", case_id) in views


def test_an_auditor_opens_the_mgr_and_downloads_its_csv(page, shoot, app):
    sign_in(page, "aud")
    assert page.url.endswith("/reports/mgr")
    shoot(page, "07-mgr")
    chart = page.locator("svg.hold-chart")
    assert chart.is_visible()
    holds = page.locator("tr.shift td.hold").all_inner_texts()
    assert chart.locator("circle.hold").count() == sum(h != "-" for h in holds) > 0
    day = page.locator("nav.days strong").inner_text()
    with page.expect_download() as download:
        page.click("#mgr-csv")
    saved = download.value
    assert saved.suggested_filename == f"mgr-{day}.csv"
    text = Path(saved.path()).read_text()
    assert text.splitlines()[0].startswith("row_type,gaming_day,table")
    assert len(text.splitlines()) > page.locator("tr.shift").count()
    page.click(f"a[href='/reports/variance?gaming_day={day}']")
    page.wait_for_url(re.compile("/reports/variance"))
    shoot(page, "08-variance")
    views = [(a.kind, a.ref) for a in read_access(app.state.db, user="aud")]
    assert views.count(("report", f"mgr/{day}")) == 2  # the page, then its CSV
    assert ("report", f"variance/{day}") in views


def test_each_role_is_kept_to_its_pages(page, shoot):
    sign_in(page, "ann")
    for path in ("/reports/mgr", "/admin/users"):
        answer = page.goto(path)
        assert answer.status == 403
        assert "may not open this" in page.locator("[role=alert]").inner_text()
    shoot(page, "09-analyst-refused-mgr")
    page.goto("/findings")
    page.click("header form button")  # sign out
    page.goto("/findings")
    assert "/login" in page.url
    sign_in(page, "aud")
    assert page.goto("/findings").status == 403


def test_the_admin_reads_the_access_log_the_others_wrote(page, shoot, app):
    sign_in(page, "adm")
    assert page.url.endswith("/admin/users")
    logged = page.locator("table.access tbody tr")
    assert logged.count() == len(read_access(app.state.db))
    text = page.locator("table.access").inner_text()
    for kind in ("round", "finding", "case", "report"):
        assert kind in text
    shoot(page, "10-admin-access-log")


def test_the_floor_shows_each_table_and_an_alert_arriving_live(page, shoot, floor):
    sign_in(page, "ann")
    page.goto("/floor")
    tables = {e["table_id"] for e in floor["events"] if e["type"] == "table_opened"}
    assert page.locator("table.floor tbody tr").count() == len(tables)
    page.wait_for_function("document.getElementById('live-status').textContent === 'live'")
    # A settlement recorded again under its event id, with another payout: DATA-ID-REUSED.
    settled = next(e for e in floor["events"] if e["type"] == "wager_settled")
    changed = parse_event(json.dumps({**settled, "paid": "999.00"}))
    store = floor["store"]
    Ingestor(store).record_batch([Accepted(changed, "browser-test")], "browser-test", 0)
    Service(store).run_pass()  # the projection loop of `tablewatch serve`, once
    alert = page.locator("#alerts li.critical")
    alert.wait_for()
    assert "DATA-ID-REUSED" in alert.inner_text()
    assert settled["table_id"] in alert.inner_text()
    shoot(page, "11-floor-live-alert")
