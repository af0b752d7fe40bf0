"""A duplicate hand in a real browser (issue 16, part 6): a teacher gives the
class a hand; two students play the same deal on the table by clicks (the
same first moves, then one throws another tile); the teacher reads the
per-decision dashboard ("2 of 2 ...", "1 of 2 threw the ... here") and one
student's review. Desktop and phone (390x844) screenshots go to /tmp/dup-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support.browser import DESKTOP, no_sideways_scroll
from tests.support.story import make_class, settled, sign_up, unique_email

PHONE = {"width": 390, "height": 844}
TITLE = "Week 3: one deal for everyone"


def shoot(page: Page, name: str) -> None:
    page.screenshot(path=f"/tmp/dup-{name}.png", full_page=True, caret="initial")


def move(page: Page, throw: str = "first") -> str:
    """The learner's next move by a click, the first legal one (or the last
    tile to throw): which kind it was. Waits for the table to change."""
    table = page.locator("#table")
    before = table.inner_html()
    picks = page.locator(".play-pick__tile:not(.is-disabled) input")
    if picks.count():
        for i in range(3):
            picks.nth(i).check()
        page.get_by_role("button", name=re.compile(r"^Pass (these|\d) tiles$")).click()
        kind = "pass"
    elif page.get_by_role("button", name="Stop it").count():
        page.get_by_role("button", name="Stop it").click()
        kind = "vote"
    elif page.get_by_role("button", name="Offer 0").count():
        page.get_by_role("button", name="Offer 0").click()
        kind = "offer"
    elif page.locator("button[data-pass]").count():
        page.locator("button[data-pass]").click()
        kind = "no-call"
    elif page.get_by_role("button", name="Mah Jongg!").count():
        page.get_by_role("button", name="Mah Jongg!").click()
        kind = "mahjong"
    else:
        tiles = page.locator(".play-throw__tile")
        (tiles.first if throw == "first" else tiles.last).click()
        kind = "discard"
    page.wait_for_function("before => document.querySelector('#table').innerHTML !== before", arg=before)
    settled(page)
    return kind


def join_as_guest(page: Page, code: str, name: str) -> None:
    page.goto(f"/join/{code}")
    page.locator("#name").fill(name)
    page.get_by_role("button", name=re.compile("Join")).click()
    expect(page).to_have_url(re.compile(r"/classes$"))


def play_the_class_hand(page: Page) -> None:
    page.goto("/classes")
    expect(page.locator("#hands-title")).to_have_text("Class hands")
    page.get_by_role("button", name=re.compile("Play the class hand")).click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    expect(page.locator("#play-status")).to_contain_text("pass three tiles to the right")


def test_two_students_play_the_same_deal_and_the_teacher_reads_the_dashboard(people):
    t = people("teacher").page
    sign_up(t, "Rosa Teacher", unique_email("rosa"), teacher=True)
    class_id = make_class(t, "Thursday club")
    t.locator("#hand_title").fill(TITLE)
    t.locator("#hand_bots").select_option("club")
    t.locator("#hand_seed").fill("4242")
    t.get_by_role("button", name="Give the hand").click()
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}#class-hands$"))
    expect(t.locator(".notice--success")).to_contain_text(f"Gave Thursday club the hand \u201c{TITLE}\u201d: deal 4242")
    expect(t.locator("#class-hands")).to_contain_text("No students yet")
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    t.locator("#class-hands").scroll_into_view_if_needed()
    shoot(t, "class-page-desktop")
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, "class-page-phone")
    t.set_viewport_size(DESKTOP)

    ann, bob = people("ann").page, people("bob").page
    join_as_guest(ann, code, "Ann Archer")
    join_as_guest(bob, code, "Bob Baker")
    shoot_phone = bob
    shoot_phone.set_viewport_size(PHONE)
    shoot_phone.goto("/classes")
    assert no_sideways_scroll(shoot_phone)
    shoot(shoot_phone, "student-classes-phone")
    shoot_phone.set_viewport_size(DESKTOP)

    play_the_class_hand(ann)
    play_the_class_hand(bob)
    ann_kinds = [move(ann) for _ in range(5)]  # the Charleston: three passes, the vote, the courtesy offer
    bob_kinds = [move(bob) for _ in range(5)]
    assert ann_kinds == bob_kinds == ["pass", "pass", "pass", "vote", "offer"]
    assert ann.locator("#table .play-rack").inner_html() == bob.locator("#table .play-rack").inner_html()  # the same deal
    # Ann throws the first tile of her rack, Bob the last: their hands differ from here.
    expect(ann.locator("#play-status")).to_contain_text("Your turn")
    expect(bob.locator("#play-status")).to_contain_text("Your turn")
    assert move(ann, "first") == "discard" and move(bob, "last") == "discard"
    for _ in range(3):
        move(ann)
        move(bob)

    # The teacher's dashboard, decision by decision.
    t.goto(f"/teach/classes/{class_id}")
    expect(t.locator("#class-hands")).to_contain_text("2 playing")
    t.get_by_role("link", name=TITLE).click()
    expect(t).to_have_url(re.compile(r"/teach/class-hands/\d+$"))
    expect(t.locator("h1")).to_have_text(TITLE)
    expect(t.locator(".class-hand-stats")).to_contain_text("Started2 of 2")
    players = t.locator("table")
    expect(players).to_contain_text("Ann Archer")
    expect(players).to_contain_text("Bob Baker")
    steps = t.locator(".class-steps > li")
    expect(steps.first).to_contain_text(re.compile(r"2 of 2 passed .+ here"))
    split = t.locator(".class-step--split")
    expect(split).to_have_count(1)
    expect(split.locator(".class-step__headline")).to_have_text(re.compile(r"^1 of 2 threw the .+ here(, as the coach would\.|; the coach would throw the .+\.)$"))
    expect(split.locator(".class-choice")).to_have_count(2)
    expect(split).to_contain_text("After this, 1 student's hand differs")
    expect(split.locator(".rule-chip")).to_have_text("S4")
    assert t.locator(".class-step").count() >= 6
    shoot(t, "dashboard-desktop")
    t.set_viewport_size(PHONE)
    shoot(t, "dashboard-phone")
    assert no_sideways_scroll(t)
    t.set_viewport_size(DESKTOP)

    # One student's hand, read-only: the coach's review of the decisions so far.
    t.get_by_role("link", name=re.compile("Review of Bob Baker's hand")).click()
    expect(t).to_have_url(re.compile(r"/teach/class-hands/\d+/students/\d+$"))
    expect(t.locator("h1")).to_contain_text("Bob Baker: ")
    expect(t.locator(".lede")).to_contain_text("Still playing")
    expect(t.locator(".review-step").nth(8)).to_be_visible()  # the review, computed in the background, swapped in
    assert t.locator(".review-step").count() >= 9
    assert t.locator("form[action*='/act']").count() == 0
    shoot(t, "student-review-desktop")
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, "student-review-phone")
