"""Fixtures of the browser tests (Playwright driving Debian's Chromium; the
live server and the launch arguments are in tests/conftest.py): a folder for
screenshots, the page's console errors, and people with their own contexts."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tests.support.browser import DESKTOP
from tests.support.story import Person


@pytest.fixture(scope="session")
def screens(tmp_path_factory):
    folder = tmp_path_factory.mktemp("screens")
    print(f"\nscreenshots: {folder}")
    return folder


@pytest.fixture
def errors(page: Page):
    """Console errors and failed requests seen by the page (CSP, 404s, scripts)."""
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: seen.append(str(error)))

    def failed(request) -> None:
        # Leaving a page cancels the images still loading on it: not an error.
        if "ERR_ABORTED" not in (request.failure or ""):
            seen.append(f"failed: {request.url} ({request.failure})")

    page.on("requestfailed", failed)
    return seen


@pytest.fixture
def people(browser: Browser, base_url: str):
    """Makes people, each in their own context; collects every console error,
    page error and failed request of all of them, each with the page's path;
    closes them at the end."""
    made: list[Person] = []
    seen: list[str] = []

    def make(who: str) -> Person:
        context = browser.new_context(base_url=base_url, timezone_id="UTC", viewport=DESKTOP)
        page = context.new_page()

        def where() -> str:
            return f"{who} @ {urlsplit(page.url).path}"

        page.on("console", lambda m: seen.append(f"{where()}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: seen.append(f"{where()}: {e}"))

        def failed(request) -> None:
            # Leaving a page cancels what is still loading on it: not an error.
            if "ERR_ABORTED" not in (request.failure or ""):
                seen.append(f"{where()}: failed: {request.url} ({request.failure})")

        page.on("requestfailed", failed)
        person = Person(who, context, page)
        made.append(person)
        return person

    make.errors = seen  # type: ignore[attr-defined]
    yield make
    for person in made:
        person.context.close()
