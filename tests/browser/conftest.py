"""The console in a real browser: Debian's chromium, headless, driven by Playwright.

One app over a small simulated floor is served by uvicorn on a free loopback port,
started once per test module; each test gets a fresh browser context (no cookies).
Screenshots of each page go to ``tests/browser/artifacts/`` (git-ignored), kept as the
run's evidence. Without a chromium on the PATH the tests are skipped with that reason;
``.ci/run`` installs it, so CI never skips them.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from tests.builders.net import free_port
from tests.builders.web_app import make_app
from tests.builders.web_floor import build_floor

ARTIFACTS = Path(__file__).parent / "artifacts"
CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    return build_floor(tmp_path_factory.mktemp("browser-floor"))


@pytest.fixture(scope="module")
def app(floor):
    return make_app(floor["root"], floor["store"], timezone="America/New_York")


@pytest.fixture(scope="module")
def base_url(app) -> Iterator[str]:
    """Serve the app on a free port for the module; stop it after."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start in 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("no chromium on the PATH (.ci/run installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"], headless=True
        )
        yield launched
        launched.close()


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(base_url=base_url, accept_downloads=True)
    context.set_default_timeout(15_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def shoot():
    """Return a function saving a full-page screenshot under tests/browser/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)

    def screenshot(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return screenshot
