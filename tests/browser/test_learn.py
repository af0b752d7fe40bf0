"""A first-time learner in a real browser, on a phone and a desktop: from the
home page into the first lesson, through its checks (one wrong try first),
to "Lesson done"; and a glossary word's meaning shown by keyboard focus and
by a tap. Screenshots go to the folder printed with -s."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from coach.rules import glossary
from drills import lessons
from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll, tab_until

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("size", SIZES)
def test_a_first_time_learner_goes_from_home_through_a_lesson(page: Page, errors, screens, size):
    page.set_viewport_size(SIZES[size])
    page.goto("/")
    page.locator("[data-learn-link]").click()
    expect(page).to_have_url(re.compile(r"/learn$"))
    expect(page.get_by_role("heading", name="Learn the game")).to_be_visible()
    lesson = lessons.LESSONS[0]
    page.get_by_role("link", name=lesson.title).click()
    expect(page.get_by_role("heading", level=1, name=lesson.title)).to_be_visible()
    expect(page.locator(".lesson-panel img").first).to_be_visible()
    # every picture of the lesson loads (a broken tile would have no width)
    # (a waiting expression would be eval'd in the page, which the site's CSP rightly forbids)
    for img in page.locator(".lesson-panel img").all():
        expect(img).to_have_js_property("complete", True)
        assert img.evaluate("i => i.naturalWidth") > 0
    page.screenshot(path=str(screens / f"lesson-{size}-top.png"), full_page=False)
    page.evaluate("window.__coachMarker = 'still here'")

    first = lesson.checks[0]
    section = page.locator(f"#check-{first.id}")
    section.get_by_role("button", name=next(iter(first.wrong)), exact=True).click()
    verdict = section.locator("[data-verdict]")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    expect(verdict).to_contain_text("Try again")
    expect(verdict).to_be_focused()
    section.screenshot(path=str(screens / f"lesson-{size}-wrong.png"))
    for check in lesson.checks:
        section = page.locator(f"#check-{check.id}")
        section.get_by_role("button", name=check.best, exact=True).click()
        expect(section.locator("[data-verdict]")).to_have_attribute("data-verdict", "right")
        expect(section.locator(f'button[value="{check.best}"]')).to_be_disabled()
    done = page.locator("[data-lesson-done]")
    expect(done).to_be_visible()
    expect(done).to_contain_text("Lesson done")
    assert page.evaluate("window.__coachMarker") == "still here"  # no page load: htmx swapped each verdict in
    assert no_sideways_scroll(page)
    done.scroll_into_view_if_needed()
    page.screenshot(path=str(screens / f"lesson-{size}-done.png"), full_page=True)

    page.goto("/learn")
    expect(page.locator(f'[data-lesson="{lesson.slug}"]')).to_contain_text("Done")
    assert errors == []


def _tip_shown(page: Page, word) -> dict:
    return word.evaluate(
        """el => { const t = el.querySelector('.gloss__tip').getBoundingClientRect();
                   return {w: t.width, h: t.height, left: t.left, right: t.right,
                           room: document.documentElement.clientWidth}; }"""
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_glossary_word_shows_its_meaning_on_keyboard_focus_and_tap(page: Page, errors, screens, size):
    page.set_viewport_size(SIZES[size])
    page.goto("/learn/calls")
    word = page.locator(".gloss").first
    closed = _tip_shown(page, word)
    assert closed["w"] <= 1 and closed["h"] <= 1  # hidden until asked for
    tab_until(page, "el.classList.contains('gloss')", limit=200)
    focused = page.locator(f'.gloss[aria-describedby="{page.locator(".gloss:focus").get_attribute("aria-describedby")}"]')
    tip = _tip_shown(page, focused)
    assert tip["w"] > 60 and tip["h"] > 15
    assert tip["left"] >= 0 and tip["right"] <= tip["room"]  # kept on the screen
    slug = focused.get_attribute("data-gloss")
    expect(focused.locator(".gloss__tip")).to_have_text(glossary.BY_SLUG[slug].meaning)
    page.screenshot(path=str(screens / f"gloss-{size}-focus.png"))
    page.keyboard.press("Escape")
    assert _tip_shown(page, focused)["w"] <= 1

    # A tap (a click) opens it too, and a second tap closes it.
    last = page.locator(".lesson-panel .gloss").last
    last.scroll_into_view_if_needed()
    last.click()
    assert _tip_shown(page, last)["w"] > 60
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / f"gloss-{size}-tap.png"))
    last.click()
    page.mouse.move(0, 0)
    assert _tip_shown(page, last)["w"] <= 1
    assert errors == []

