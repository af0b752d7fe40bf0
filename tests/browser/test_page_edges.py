"""The drill pages' rough edges of issue 25 in a real browser, on a phone (390x844)
and a desktop (1280x800), light and dark: nearest hand keeps its card from one
question to the next, large tiles enlarge every rack, a worksheet prints its card,
the goal ring reads in the dark, and a long class name keeps a phone page narrow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import Session

from coach.store.db import database_url, make_engine
from coach.store.models import Classroom
from tests.support.browser import focused, no_sideways_scroll, tab_until
from tests.support.cards import CARD
from tests.support.story import assign, choose_drill, make_class, settled, shoot, sign_up, unique_email

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])


def kind(viewport: dict) -> str:
    return "phone" if viewport is PHONE else "desktop"


# -- item 10: nearest hand sends its card once -----------------------------------------


def _pick_by_keyboard(page: Page, line_id: str) -> None:
    """Find a line with the search box, Enter picks it, Tab to "Check my pick", Enter."""
    page.locator("#card-search").focus()
    page.keyboard.type(line_id)
    page.keyboard.press("Enter")
    assert focused(page, f"el.name === 'answer' && el.value === '{line_id}' && el.checked")
    tab_until(page, "el.matches('.card-panel__submit button')")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_be_visible()
    settled(page)


@VIEWPORTS
def test_nearest_hand_keeps_its_card_and_works_by_keyboard(page: Page, errors, screens, viewport):
    page.set_viewport_size(viewport)
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())) if "/drills/nearest-hand/next" in r.url else None)
    page.goto("/drills/nearest-hand?level=2&seed=3")
    lines = page.locator(".card-line")
    expect(lines).to_have_count(len(CARD.lines))
    first_token = page.locator("#answer-form input[name=token]").input_value()
    _pick_by_keyboard(page, "2468-1")
    for n in range(3):
        token = page.locator("#answer-form input[name=token]").input_value()
        tab_until(page, "el.matches('[data-next]')")
        page.keyboard.press("Enter")
        expect(page.locator("#answer-form input[name=token]")).not_to_have_value(token)
        settled(page)
        assert focused(page, "el.id === 'prompt'")  # focus follows the new question
        expect(lines).to_have_count(len(CARD.lines))  # the card is still on the page, whole...
        expect(page.locator("[data-line]:visible")).to_have_count(len(CARD.lines))  # ...unfiltered
        expect(page.locator("input[name=answer]:checked")).to_have_count(0)  # ...and unpicked
        expect(page.locator("#verdict-card")).to_have_count(0)
        _pick_by_keyboard(page, CARD.lines[n].id)
        expect(page.locator("#verdict-card")).to_contain_text(CARD.lines[n].id)
    assert page.locator("#answer-form input[name=token]").input_value() != first_token
    assert len(sizes) == 3 and all(size < 15_000 for size in sizes), sizes
    assert no_sideways_scroll(page)
    shoot(page, screens, f"nearest-hand-fourth-question-{kind(viewport)}", full_page=False)
    assert errors == []


# -- item 11: large tiles on every rack --------------------------------------------------

RACKS = {
    "nearest hand's rack": ("/drills/nearest-hand?level=2&seed=3", "#rack .tile"),
    "a drill's rack": ("/drills/mahjong-or-not?level=1&seed=3", "#rack .tile"),
    "the first pass": ("/drills/first-pass?level=1&seed=3", ".pass-tile .tile"),
}


def _choose_size(page: Page, size: str) -> None:
    page.goto("/account")
    page.locator(f"input[name='tile_size'][value='{size}'] + span").click()
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_text("Display settings saved.")).to_be_visible()


def _width(page: Page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["width"]


def _widths(page: Page, shots: Path | None = None) -> dict[str, float]:
    out = {}
    for name, (url, selector) in RACKS.items():
        page.goto(url)
        out[name] = _width(page, selector)
        assert no_sideways_scroll(page), (name, page.viewport_size)
        if name == "nearest hand's rack":
            if page.viewport_size == PHONE:
                out["the card's rack strip"] = _width(page, "[data-rack-strip] .tile")
            else:
                expect(page.locator("[data-rack-strip]")).to_be_hidden()  # the card sits beside the rack
            if shots:
                page.screenshot(path=str(shots), full_page=False)
                if page.viewport_size == PHONE:  # far down the card, its head and the strip of the rack
                    page.locator(".card-line").nth(30).scroll_into_view_if_needed()
                    page.screenshot(path=str(shots.with_name(shots.stem + "-card.png")), full_page=False)
    page.goto("/play")
    page.get_by_role("button", name="Deal a new hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    out["the practice table's rack"] = _width(page, ".play-rack .tile")
    assert no_sideways_scroll(page)
    return out


@VIEWPORTS
def test_large_tiles_enlarge_every_rack(page: Page, errors, screens, viewport):
    page.set_viewport_size(viewport)
    _choose_size(page, "normal")
    normal = _widths(page)
    _choose_size(page, "large")
    large = _widths(page, screens / f"large-tiles-nearest-hand-{kind(viewport)}.png")
    shoot(page, screens, f"large-tiles-practice-table-{kind(viewport)}")
    assert set(large) == set(normal)
    for rack, width in normal.items():
        # On a desktop the practice rack keeps its fourteen tiles in one row: a little larger only.
        least = 1.05 if (rack == "the practice table's rack" and viewport is DESKTOP) else 1.25
        assert large[rack] >= least * width, (rack, width, large[rack])
    assert errors == []


# -- item 12: a worksheet prints its card ---------------------------------------------


def test_a_worksheet_prints_the_card_its_questions_read(people, screens):
    t = people("teacher").page
    t.set_viewport_size(DESKTOP)
    sign_up(t, "Wen Teacher", unique_email("wen"), teacher=True)
    t.goto("/teach/sets/new")
    t.locator("#title").fill("Nearest lines")
    t.locator("#seed").fill("77")
    choose_drill(t, 0, "nearest-hand", 1, 2)
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    t.get_by_role("link", name="Worksheet for Nearest lines").click()
    card = t.locator(".sheet-card")
    expect(card).to_contain_text("The card · ")
    expect(card.locator(".sheet-card__line")).to_have_count(len(CARD.lines))
    ids = set(card.locator(".sheet-card__id").all_inner_texts())
    keyed = t.locator(".sheet-key__list strong").all_inner_texts()
    assert len(keyed) == 2 and set(keyed) <= ids  # the key in the printed card's ids
    t.emulate_media(media="print")
    assert card.evaluate("el => getComputedStyle(el).breakBefore") == "page"
    assert t.locator(".sheet-key").evaluate("el => getComputedStyle(el).breakBefore") == "page"
    expect(card).to_be_visible()
    expect(t.locator(".site-header")).to_be_hidden()
    card.scroll_into_view_if_needed()
    card.screenshot(path=str(screens / "worksheet-card-print.png"))
    # Compact: the 61 lines fit about two pages of paper, in two columns.
    columns = card.locator(".sheet-card__sections").evaluate("el => getComputedStyle(el).columnCount")
    assert columns == "2"
    pdf = t.pdf(format="A4")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert 3 <= pages <= 6, pages  # questions, the card, the key
    t.emulate_media(media="screen")
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, screens, "worksheet-with-card-phone")


# -- item 13: the goal ring in the dark, a long class name on a phone --------------------

CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let back = el.parentElement;
  while (back && (getComputedStyle(back).backgroundColor === "rgba(0, 0, 0, 0)" || getComputedStyle(back).backgroundColor === "transparent")) back = back.parentElement;
  const [a, b] = [lum(getComputedStyle(el).fill), lum(back ? getComputedStyle(back).backgroundColor : "rgb(255, 255, 255)")];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@VIEWPORTS
def test_the_goal_rings_figure_reads_in_light_and_dark(page: Page, errors, screens, viewport):
    page.set_viewport_size(viewport)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    page.locator("button.choice").first.click()
    expect(page.locator("#verdict-card")).to_be_visible()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto("/progress")
        figure = page.locator(".stat--goal .ring__text")
        expect(figure).to_have_text("10%")
        ratio = figure.evaluate(CONTRAST)
        assert ratio >= 4.5, (scheme, ratio)
        page.locator(".stat--goal").screenshot(path=str(screens / f"goal-ring-{scheme}-{kind(viewport)}.png"))
    assert errors == []


LONG_NAME = "Thursday" + "Mahjong" * 16  # 120 characters and not one space to break at


def _rename_in_database(base: Path, class_id: int, name: str) -> None:
    """A name longer than the form takes (80), straight into the live server's database."""
    engine = make_engine(database_url(next(base.glob("live-instance*"))))
    try:
        with Session(engine) as session:
            room = session.get(Classroom, class_id)
            assert room is not None
            room.name = name
            session.add(room)
            session.commit()
    finally:
        engine.dispose()


def test_a_long_class_name_keeps_the_dashboards_phone_wide(people, screens, tmp_path_factory):
    assert len(LONG_NAME) == 120
    t = people("teacher").page
    sign_up(t, "Ida Teacher", unique_email("ida"), teacher=True)
    t.goto("/teach/sets/new")
    t.locator("#title").fill("First tiles")
    choose_drill(t, 0, "name-the-tile", 1, 2)
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    class_id = make_class(t, "Short for now")
    assign(t, class_id, "First tiles")
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    _rename_in_database(Path(tmp_path_factory.getbasetemp()), class_id, LONG_NAME)

    s = people("student").page
    sign_up(s, "Sol Student", unique_email("sol"), teacher=False)
    s.goto(f"/join/{code}")
    s.get_by_role("button", name=re.compile("Join")).click()
    expect(s.locator(".assignment-item")).to_have_count(1)

    pages = [
        (t, "/teach", "teacher-home"),
        (t, f"/teach/classes/{class_id}", "teacher-class"),
        (t, f"/teach/classes/{class_id}/dashboard", "teacher-dashboard"),
        (s, "/classes", "learner-classes"),
    ]
    for who, url, name in pages:
        for scheme in ("light", "dark"):
            who.set_viewport_size(PHONE)
            who.emulate_media(color_scheme=scheme)
            who.goto(url)
            expect(who.get_by_text(LONG_NAME).first).to_be_visible()
            width = who.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (url, width)
            shoot(who, screens, f"long-class-name-{name}-{scheme}-phone")
        who.set_viewport_size(DESKTOP)
        who.goto(url)
        assert no_sideways_scroll(who), url
    s.locator("a.assignment-item__go").first.click()
    expect(s.locator(".assignment-bar, .prompt").first).to_be_visible()
    s.set_viewport_size(PHONE)
    assert no_sideways_scroll(s)
    shoot(s, screens, "long-class-name-learner-question-phone")
