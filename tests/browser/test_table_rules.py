"""Table rules in a real browser (issue 27): a learner sets their own on the
account page by keyboard alone on a 390x844 phone, and the practice table,
a drill and its verdict then show them; a teacher sets a class's on the class
page. Screenshots go to a temporary folder (printed with -s)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support.browser import DESKTOP, focused, no_sideways_scroll, tab_until
from tests.support.story import make_class, settled, shoot, sign_up, unique_email

PHONE_390 = {"width": 390, "height": 844}
SAVED_RULES = "TR1 Blank tiles: 4 blanks; TR2 Hot or cold wall: cold wall"


def choose_by_keyboard(page: Page, switch: str, steps: int) -> None:
    """Tab to a switch's select and move its choice down `steps` places with the arrow key."""
    tab_until(page, f"el.id === 'rule-{switch}'")
    for _ in range(steps):
        page.keyboard.press("ArrowDown")


def test_TR1_a_learner_sets_their_table_rules_by_keyboard_on_a_phone(people, screens):
    ann = people("Ann").page
    ann.set_viewport_size(PHONE_390)
    sign_up(ann, "Ann", unique_email("ann"), teacher=False)
    ann.goto("/account")
    expect(ann.locator("#table-rules-now")).to_have_text("In play: League rules")
    assert no_sideways_scroll(ann)
    shoot(ann, screens, "table-rules-phone-account-league")

    ann.locator("body").focus()
    choose_by_keyboard(ann, "blanks", 2)  # League rules (no blanks), 2 blanks, 4 blanks
    choose_by_keyboard(ann, "wall_end", 1)  # League rules (no rule for the wall's end), cold wall
    expect(ann.locator("#rule-blanks")).to_have_value("4")
    expect(ann.locator("#rule-wall_end")).to_have_value("cold")
    tab_until(ann, "el.textContent.trim() === 'Play by these rules'")
    ann.keyboard.press("Enter")
    saved = ann.locator("#table-rules .notice")
    expect(saved).to_have_text(re.compile(r"^Saved\. Your table rules are in play from now on\."))
    expect(saved).to_be_focused()  # the keyboard goes on from what the save said
    expect(ann.locator("#table-rules-now")).to_have_text(f"In play: {SAVED_RULES}")
    settled(ann)
    assert no_sideways_scroll(ann)
    shoot(ann, screens, "table-rules-phone-account-saved")
    ann.locator("#table-rules").screenshot(path=str(screens / "table-rules-phone-section-saved.png"), caret="initial")
    ann.reload()
    expect(ann.locator("#rule-blanks")).to_have_value("4")  # kept with the account

    # The practice table says which rules the hand is played by.
    ann.goto("/play")
    expect(ann.locator("#play-rules")).to_contain_text(SAVED_RULES)
    ann.get_by_role("button", name="Deal a new hand").click()
    expect(ann).to_have_url(re.compile(r"/play/\d+$"))
    expect(ann.locator(".play-status .table-rules-note")).to_have_text(f"Table rules: {SAVED_RULES}")
    assert no_sideways_scroll(ann)
    shoot(ann, screens, "table-rules-phone-practice-table", full_page=False)

    # A drill and its verdict say so too, and link to what each rule means.
    ann.goto("/drills/name-the-tile?level=1&seed=3")
    expect(ann.locator(".drill-head .table-rules-note")).to_contain_text(SAVED_RULES)
    ann.get_by_role("button", name=re.compile("show me", re.I)).click()
    note = ann.locator(".verdict .table-rules-note")
    expect(note).to_have_text(f"Table rules: {SAVED_RULES}")
    shoot(ann, screens, "table-rules-phone-verdict")
    note.get_by_role("link", name="Table rules").click()
    expect(ann).to_have_url(re.compile(r"/rules/table$"))
    expect(ann.locator("#TR1")).to_contain_text("Blank tiles")
    assert no_sideways_scroll(ann)
    shoot(ann, screens, "table-rules-phone-help")

    # "Back to League rules", by keyboard again.
    ann.goto("/account")
    ann.locator("body").focus()
    tab_until(ann, "el.textContent.trim() === 'Back to League rules'")
    ann.keyboard.press("Enter")
    expect(ann.locator("#table-rules .notice")).to_have_text(re.compile(r"^Saved\. Back to the League rules\."))
    expect(ann.locator("#table-rules-now")).to_have_text("In play: League rules")
    expect(ann.locator("#rule-blanks")).to_have_value("0")
    assert people.errors == []


def test_TR3_a_teacher_sets_a_classs_table_rules(people, screens):
    tess = people("Tess").page
    tess.set_viewport_size(DESKTOP)
    sign_up(tess, "Tess", unique_email("tess"), teacher=True)
    class_id = make_class(tess, "Harbour Lane")
    section = tess.locator("#table-rules")
    expect(section).to_contain_text("This class's assignments")
    tess.locator("#rule-joker_in_courtesy").select_option("on")
    tess.locator("#rule-players").focus()
    assert focused(tess, "el.id === 'rule-players'")
    tess.keyboard.press("ArrowDown")  # League rules (4 players), 3 players
    section.get_by_role("button", name="Play by these rules").click()
    expect(section.locator(".notice")).to_have_text(re.compile(r"^Saved\. The class's table rules are in play from now on\."))
    expect(tess.locator("#table-rules-now")).to_have_text(
        "In play: TR3 Jokers in the courtesy pass: on; TR4 Three players: 3 players"
    )
    shoot(tess, screens, "table-rules-desktop-class")
    section.screenshot(path=str(screens / "table-rules-desktop-class-section.png"), caret="initial")
    tess.set_viewport_size(PHONE_390)
    tess.goto(f"/teach/classes/{class_id}#table-rules")
    expect(tess.locator("#rule-players")).to_have_value("3")
    assert no_sideways_scroll(tess)
    shoot(tess, screens, "table-rules-phone-class")
    assert people.errors == []
