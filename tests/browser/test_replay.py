"""Replay a mistake in a real browser (issue 16, part 5): a finished hand with
mistakes is put in the live server's store for this browser's learner; Today's
practice asks its first position; the answer's verdict shows, desktop and phone."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import Session

from coach.store import hands as hands_store
from coach.store import replays
from coach.store.db import FILE_NAME, make_engine
from coach.store.models import PracticeHand
from coach.web.shared.practice.hands import result_json
from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll
from tests.support.replay import HAND, SEED


def finish_in_live_store(tmp_path_factory, hand_id: int, save: bool = True) -> dict[int, int]:
    """The live server's hand `hand_id`, finished as the careless East played HAND (unless
    `save` is False); its positions, which its review makes once it is done."""
    (path,) = sorted(tmp_path_factory.getbasetemp().glob(f"live-instance[0-9]*/{FILE_NAME}"))
    engine = make_engine(f"sqlite:///{path}")
    try:
        with Session(engine) as session:
            row = session.get(PracticeHand, hand_id)
            assert row is not None
            if save:
                row.seed = SEED
                hands_store.save(session, row, [a.to_json() for a in HAND.actions], result_json(HAND))
            return replays.of_hand(session, row.learner_id, hand_id)
    finally:
        engine.dispose()


def test_todays_practice_replays_a_mistake(page: Page, errors, tmp_path_factory):
    page.set_viewport_size(DESKTOP)
    page.goto("/play")
    page.get_by_role("button", name="Deal a new hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    hand_id = int(page.url.rsplit("/", 1)[1])
    finish_in_live_store(tmp_path_factory, hand_id)

    page.goto(f"/play/{hand_id}/review")  # the first look starts the review; the page shows it once done
    expect(page.locator("[data-replay]").first).to_be_visible()
    made = finish_in_live_store(tmp_path_factory, hand_id, save=False)

    page.goto("/today")
    expect(page.locator(".badge--replay")).to_have_text("Replay a mistake")
    expect(page.locator("#prompt")).to_contain_text("What would you do here?")
    page.screenshot(path="/tmp/replay-question-desktop.png", full_page=True)
    picks = page.locator(".pass-tile:not(.pass-tile--joker) label")
    if picks.count():  # a Charleston pass: three tiles, then the button
        for i in range(3):
            picks.nth(i).click()
        page.get_by_role("button", name="Pass these").click()
    else:  # a turn: throw a tile
        page.locator(".replay-throw__tile").first.click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_be_visible()
    expect(verdict).to_contain_text("When you played this hand")
    expect(page.get_by_role("button", name=re.compile("Next question"))).to_be_visible()
    page.screenshot(path="/tmp/replay-desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.reload()  # the verdict stays after a reload
    expect(page.locator("#verdict-card")).to_be_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path="/tmp/replay-phone.png", full_page=True)
    page.get_by_role("button", name=re.compile("Next question")).click()
    expect(page.locator(".daily-bar__count")).to_contain_text("Question 2 of")

    # A turn's position on its own page, from the phone: the tiles are the buttons.
    turn = next(position_id for number, position_id in sorted(made.items()) if HAND.actions[number].kind == "discard")
    page.goto(f"/replay/{turn}")
    expect(page.locator("#prompt")).to_have_text("What would you do here?")
    assert no_sideways_scroll(page)
    page.locator(".replay-throw__tile").last.click()
    expect(page.locator("#verdict-card")).to_be_visible()
    expect(page.locator(".replay-throw__tile.is-right").first).to_be_visible()
    page.screenshot(path="/tmp/replay-turn-phone.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path="/tmp/replay-turn-desktop.png", full_page=True)
    assert errors == []
