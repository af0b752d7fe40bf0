"""A practice hand's review computed in the background, watched in a real browser
(issue 24, item 8): the table's end and the review page show "Reviewing your
hand: decision n of N" with a progress bar, and the finished review takes its
place without a reload (htmx polling), on a desktop and on a phone.

The live server runs the real background path (it is no TESTING app). The
review is made slow by a gate around the real grading, observed through its
progress and held at the second decision until the test has seen the bar;
the product's code sleeps nowhere. The hand is dealt by the page, then saved
finished in the live server's database (a test-only step), so the first look
starts its review.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from coach.play.review import review
from coach.store import hands as hands_store
from coach.store.models import PracticeHand
from coach.web.shared.practice import hands as practice_hands
from coach.web.shared.practice import reviews
from tests.support.browser import DESKTOP, PHONE, assert_no_page_load, deal_through_page, mark_window, no_sideways_scroll
from tests.support.replay import HAND, SEED

DECISIONS = sum(1 for a in HAND.actions if a.seat == practice_hands.SEAT)


class Gate:
    """The real `review`, held after its second graded decision until `open()`."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.opened = threading.Event()

    def review(self, card, seed, actions, seat, progress=None, **options):
        def watched(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if done == 2:
                self.held.set()
                assert self.opened.wait(60), "the test never opened the gate"

        return review(card, seed, actions, seat, progress=watched, **options)


@pytest.fixture
def gate(monkeypatch):
    held = Gate()
    monkeypatch.setattr(reviews, "review", held.review)  # the live server runs in this process
    yield held
    held.opened.set()  # never leave a worker waiting


def finished_hand(page: Page, tmp_path_factory) -> int:
    def finish(session: Session, row: PracticeHand) -> None:
        row.seed = SEED
        hands_store.save(session, row, [a.to_json() for a in HAND.actions], practice_hands.result_json(HAND))

    return deal_through_page(page, Path(tmp_path_factory.getbasetemp()), finish)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_progress_bar_turns_into_the_review_without_a_reload(page: Page, live_server, tmp_path_factory, gate, errors, screens, size):
    page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
    hand_id = finished_hand(page, tmp_path_factory)
    page.goto(f"/play/{hand_id}")  # the table's end: the first look starts the review
    summary = page.locator("#review-summary")
    assert gate.held.wait(30)
    bar = summary.get_by_role("progressbar")
    expect(bar).to_have_attribute("aria-valuemax", str(DECISIONS))
    expect(summary).to_contain_text(re.compile(rf"Reviewing your hand: decision [12] of {DECISIONS}"))
    summary.scroll_into_view_if_needed()
    page.screenshot(path=str(screens / f"review-progress-table-{size}.png"))

    page.goto(f"/play/{hand_id}/review")
    bar = page.get_by_role("progressbar")
    expect(bar).to_be_visible()
    assert bar.get_attribute("aria-valuemin") == "0" and bar.get_attribute("aria-valuemax") == str(DECISIONS)
    assert bar.get_attribute("aria-valuenow") in ("1", "2")
    expect(page.locator("#review-live")).to_contain_text(re.compile(rf"Reviewing your hand: decision [12] of {DECISIONS}"))
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / f"review-progress-{size}.png"))
    mark_window(page)

    gate.opened.set()
    expect(page.locator("h1")).to_contain_text(f"{DECISIONS} decisions", timeout=15000)
    expect(page.get_by_role("progressbar")).to_have_count(0)
    expect(page.locator(".review-timeline .review-step")).to_have_count(DECISIONS)
    assert_no_page_load(page)  # the same page all along: htmx swapped the review in
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / f"review-done-{size}.png"))

    page.goto(f"/play/{hand_id}")  # and the table's end now says it in a line
    expect(page.locator("#review-summary")).to_contain_text(f"The coach's review: {DECISIONS} decisions")
    expect(page.locator("#review-summary").get_by_role("link", name="See the coach's review")).to_be_visible()
    assert errors == []
