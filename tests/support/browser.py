"""Chromium's launch, the viewports, and small helpers for the pages the
browser tests drive."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect
from sqlmodel import Session

import drills
from coach.store.db import database_url, make_engine
from coach.store.models import PracticeHand
from tests.support.cards import CARD

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def question(name: str, seed: int, level: int):
    return drills.get(name).generate(seed, level, CARD)


def mark_window(page: Page) -> None:
    page.evaluate("window.__coachMarker = 'still here'")


def assert_no_page_load(page: Page) -> None:
    assert page.evaluate("window.__coachMarker") == "still here"


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def tab_until(page: Page, test: str, limit: int = 120) -> None:
    """Press Tab until `test` (a JS expression on `el`) holds for the focused element."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"(() => {{ const el = document.activeElement; return !!(el && ({test})); }})()"):
            return
    raise AssertionError(f"Tab never reached an element where {test}")


def focused(page: Page, test: str) -> bool:
    return page.evaluate(f"(() => {{ const el = document.activeElement; return !!(el && ({test})); }})()")


def slug(url: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", url.lower()).strip("-") or "home"


def deal_through_page(page: Page, base: Path, change: Callable[[Session, PracticeHand], None]) -> int:
    """Deal a practice hand on the /play page, then `change` its row in the live
    server's database (under `base`, pytest's temporary folder); its id."""
    page.goto("/play")
    page.get_by_role("button", name="Deal a new hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    hand_id = int(page.url.rsplit("/", 1)[1])
    instance = next(base.glob("live-instance*"))
    engine = make_engine(database_url(instance))
    try:
        with Session(engine) as session:
            row = session.get(PracticeHand, hand_id)
            assert row is not None
            change(session, row)
    finally:
        engine.dispose()
    return hand_id
