"""The real app and a real Chromium (Debian's), shared by the browser tests."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium; the tests fail (not skip) when it cannot start."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make test` (it installs Debian's chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, app_url):  # type: ignore[no-untyped-def]
    """A fresh browser context on the app, ready once the models are loaded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(app_url)
    page.wait_for_selector("#index-status:has-text('papers')", timeout=180_000)
    yield page
    context.close()
