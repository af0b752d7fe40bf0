"""The teachers' story in a real browser (issue 6): its people (each in their own
browser context) and the steps they take, shared by the teacher tools' browser tests."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

import drills
from coach.notation.card import Card, house_card
from drills.sets import parse_set

PASSWORD = "correct horse battery"


SET_TITLE = "Week one at Harbour Lane"


SEED = "4242"


@dataclass
class Person:
    """One browser context (its own cookies) and its page."""

    who: str
    context: BrowserContext
    page: Page


def settled(page: Page) -> None:
    """Wait for htmx to finish a swap: content it swapped in gets its hx-
    attributes at the end of the settle step, so a button pressed before
    then would post the plain form (a full page load)."""
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")).to_have_count(0)


def shoot(page: Page, screens: Path, name: str, full_page: bool = True) -> None:
    # caret="initial": hiding the caret leaves style="" on the focused field,
    # which htmx would then copy at its next swap (a CSP report of our making).
    page.screenshot(path=str(screens / f"{name}.png"), full_page=full_page, caret="initial")


def unique_email(who: str) -> str:
    return f"{who}-{uuid.uuid4().hex[:12]}@example.org"


def due_label(day: date, today: date) -> str:
    """As the pages show a due date: "Tue 9 Jun" (the year when not this year's)."""
    label = f"{day:%a} {day.day} {day:%b}"
    return label if day.year == today.year else f"{label} {day.year}"


def sign_up(page: Page, name: str, email: str, teacher: bool) -> None:
    page.goto("/signup")
    page.locator("#name").fill(name)
    page.locator("#email").fill(email)
    page.locator("#password").fill(PASSWORD)
    if teacher:
        page.get_by_label("I teach mahjong classes").check()
    page.get_by_role("button", name="Create account").click()
    if teacher:
        expect(page).to_have_url(re.compile(r"/teach$"))
        expect(page.locator("h1")).to_have_text("Your classes")
    else:
        expect(page).to_have_url(re.compile(r"/account$"))
    expect(page.locator(".site-nav")).to_contain_text("Account")


def make_class(page: Page, name: str) -> int:
    page.goto("/teach")
    page.locator("#name").fill(name)
    page.get_by_role("button", name="Make the class").click()
    expect(page).to_have_url(re.compile(r"/teach/classes/\d+$"))
    expect(page.locator("h1")).to_have_text(name)
    return int(page.url.rsplit("/", 1)[1])


def choose_drill(page: Page, row: int, drill: str, level: int, questions: int) -> None:
    """One builder row: the drill (htmx then brings that drill's levels), level, questions."""
    module = drills.DRILLS[drill]
    page.locator(f"#drill-{row}").select_option(drill)
    expect(page.locator(f"#level-{row}")).to_contain_text(module.LEVELS[level - 1].title)  # swapped in
    page.locator(f"#level-{row}").select_option(str(level))
    page.locator(f"#questions-{row}").fill(str(questions))


def export_url_of(page: Page, title: str) -> str:
    """The "Download YAML" link of one of the teacher's sets, on /teach/sets."""
    card = page.locator(".set-card", has=page.get_by_role("heading", name=title))
    href = card.locator("a[href^='/teach/sets/'][href$='.yaml']").get_attribute("href")
    assert href and re.fullmatch(r"/teach/sets/\d+\.yaml", href), href
    return href


def assign(page: Page, class_id: int, title: str, due: str = "") -> None:
    page.goto(f"/teach/classes/{class_id}")
    page.locator("#set").select_option(label=title)
    if due:
        page.locator("#due").fill(due)
    page.get_by_role("button", name="Assign", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/teach/classes/{class_id}#assignments$"))


def questions_of(teacher: Page, export_url: str, card: Card | None) -> list[tuple[Any, Any]]:
    """Each question of the set as the drills make it: (slot, question), from
    the set's own YAML file as the teacher downloads it."""
    response = teacher.request.get(export_url)
    assert response.ok and response.headers["content-type"].startswith("text/yaml")
    drill_set = parse_set(response.text(), cards=None)
    assert drill_set.seeds == "fixed" and str(drill_set.seed) == SEED
    out = []
    for slot in drill_set.slots():
        module = drills.DRILLS[slot.drill]
        out.append((slot, module.generate(slot.seed, slot.level, card if card is not None else house_card())))
    return out
