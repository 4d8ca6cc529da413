"""The console in headless Chromium: an analyst works a finding, an auditor reads the MGR.

The analyst signs in, opens a finding from the queue, steps through its replay (the tiles
drawn, the finding under its step), opens a case from it and closes it; the auditor
opens the MGR and downloads its CSV. Each view is then found in the access log, and each
role is kept to its pages. Every page is saved as a screenshot (tests/browser/artifacts/).
"""

from __future__ import annotations

import re
from pathlib import Path

from consumers.web.access_log import read_access
from tests.unit.web.conftest import PASSWORD


def sign_in(page, name: str) -> None:
    page.goto("/login")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def test_an_analyst_opens_a_finding_steps_through_its_replay_and_works_a_case(page, shoot, app):
    sign_in(page, "ann")
    assert page.url.endswith("/findings")
    shoot(page, "01-findings-queue")
    page.fill("input[name=code_prefix]", "PG-SETTLE")
    page.click("text=Filter")
    row = page.locator('tr.finding-row[data-code="PG-SETTLE-PAYOUT"]')
    assert row.count() == 1
    row.locator("a").click()
    page.wait_for_url(re.compile(r"/findings/[0-9a-f-]{36}$"))
    finding_id = page.url.rsplit("/", 1)[1]
    assert page.locator(".at-stake").inner_text() == "$5.00"
    assert re.match(r"(PA|NJ|CA) ", page.locator(".rule").inner_text())
    shoot(page, "02-finding")

    page.click("#open-replay")
    page.wait_for_url(re.compile(r"/rounds/"))
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
    assert deal.is_visible()
    tiles = deal.locator("svg.tile")
    assert tiles.count() >= 16
    box = tiles.first.bounding_box()
    assert box is not None
    assert box["width"] > 20
    assert box["height"] > 40
    shoot(page, "04-replay-deal")
    page.click("#next-step")
    assert page.locator("section.step[data-kind=hands]").is_visible()
    assert not deal.is_visible()

    assert [a.kind for a in read_access(app.state.db, user="ann")][:2] == ["round", "finding"]


def test_an_auditor_opens_the_mgr_and_downloads_its_csv(page, shoot, app):
    sign_in(page, "aud")
    assert page.url.endswith("/reports/mgr")
    shoot(page, "05-mgr")
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
    shoot(page, "06-variance")
    views = [(a.kind, a.ref) for a in read_access(app.state.db, user="aud")]
    assert views.count(("report", f"mgr/{day}")) == 2  # the page, then its CSV
    assert ("report", f"variance/{day}") in views


def test_each_role_is_kept_to_its_pages(page, shoot):
    sign_in(page, "ann")
    for path in ("/reports/mgr", "/admin/users"):
        answer = page.goto(path)
        assert answer.status == 403
        assert "may not open this" in page.locator("[role=alert]").inner_text()
    shoot(page, "07-analyst-refused-mgr")
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
    for kind in ("round", "finding", "report"):
        assert kind in text
    shoot(page, "08-admin-access-log")
