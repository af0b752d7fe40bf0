"""Two people at one live table (issue 28), each in their own browser, with two
club computer players: they open and join it, play a whole hand by clicks, one
calls the other's discard, each page follows the other's moves through the
table's stream (no reload, no polling), and each reads the review of their own seat.

The seed (26) is one where, played as tests/support/table_seeds.py plays it
(`clicked`: the moves clicked here), South throws a tile East calls and gets;
tests/core/test_table_seeds.py checks that of the core on every run.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from coach.store import tables as store
from tests.support.browser import PHONE
from tests.support.story import settled, shoot

SEED = 26
LIVE = 5000  # ms a page may take to show another's move through its stream


def _owed(page: Page) -> str:
    return page.locator("#table").get_attribute("data-owed") or ""


def _number(page: Page) -> str:
    return page.locator("#table").get_attribute("data-move-number") or ""


def _act(page: Page) -> str | None:
    """The move tests/support/table_seeds.py `clicked` makes, clicked; what it was."""
    settled(page)
    # The mouse left where the last click was: parked on the bottom edge of a rack tile, that
    # tile's hover lift moves it off and back under the pointer, forever (a flicker, not a bug here).
    page.mouse.move(0, 0)
    owed, before = _owed(page), _number(page)
    table = page.locator("#table")
    if owed in ("pass", "courtesy"):
        need = int(table.locator(".play-pick").get_attribute("data-need") or "3")
        boxes = table.locator(".play-pick input[name=tiles]:not([disabled])")
        for n in range(need):
            boxes.nth(n).check()
        table.locator(".play-pick button[type=submit]").click()
        done = "pass"
    elif owed == "vote":
        table.get_by_role("button", name="Stop it").click()
        done = "vote"
    elif owed == "offer":
        table.get_by_role("button", name="Offer 0").click()
        done = "offer"
    elif owed == "call":
        calls = table.locator(".play-call button:not([data-pass])")
        if calls.count():
            calls.first.click()
            done = "call"
        else:
            table.locator(".play-call button[data-pass]").click()
            done = "no-call"
    elif owed == "turn":
        win = table.get_by_role("button", name="Mah Jongg!")
        if win.count():
            win.click()
            done = "mahjong"
        else:
            table.locator(".play-throw__tile").first.click()
            done = "discard"
    else:
        return None
    page.wait_for_function(
        "([n, o]) => { const t = document.querySelector('#table'); return t && (t.dataset.moveNumber !== n || t.dataset.owed !== o); }",
        arg=[before, owed],
    )
    return done


def test_two_people_play_a_hand_live_with_a_call_between_them(people, monkeypatch, screens):
    monkeypatch.setattr(store, "deal_seed", lambda: SEED)  # the live server runs in this process
    ann, ben = people("ann"), people("ben")
    a, b = ann.page, ben.page

    a.goto("/tables")
    a.get_by_role("button", name="Open a table and sit in East").click()
    expect(a).to_have_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    code = a.url.rsplit("/", 1)[1]
    a.evaluate("window.__stayed = true")  # gone if the page ever reloads

    b.goto("/tables")
    b.get_by_label("The table's code").fill(code.lower())
    b.get_by_role("button", name="Join the table").click()
    expect(b).to_have_url(re.compile(rf"/tables/{code}$"))
    b.evaluate("window.__stayed = true")
    b.get_by_role("button", name="Sit here in South").click()
    expect(b.locator(".tables-seat--you")).to_contain_text("South")

    # Ann's page hears that Ben sat down, through its stream.
    expect(a.locator('[data-seat="South"]')).to_contain_text("Guest", timeout=LIVE)
    shoot(a, screens, "table-seated")
    a.get_by_role("button", name="Deal the first hand").click()
    expect(b.locator("#you-title")).to_have_text("Your rack (South)", timeout=LIVE)  # dealt: Ben's page follows
    shoot(a, screens, "table-dealt-desktop")

    called = False
    saw_wait = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if _owed(a) == "over" and _owed(b) == "over":
            break
        acted = False
        for page in (a, b):
            if page.locator(".tables-wait").inner_text().startswith("Waiting for"):
                saw_wait = True
            owed = _owed(page)
            if owed == "call" and page is a and not called:
                thrower = page.locator("#call-title").inner_text()
                shoot(a, screens, "table-call")
                done = _act(page)
                called = called or (done == "call" and thrower.startswith("South"))
                acted = True
            elif owed not in ("", "over"):
                _act(page)
                acted = True
        if not acted:
            a.wait_for_timeout(100)
    assert _owed(a) == "over" and _owed(b) == "over", "the hand did not end"
    assert called, "East never called South's discard"
    for page, caller in ((a, "You called"), (b, "East called")):
        whole = page.locator("#table .play-log").text_content() or ""  # the whole hand's log is in it
        assert caller in whole, whole
        assert page.evaluate("window.__stayed === true")  # every update came without a reload
        assert page.evaluate("document.documentElement.dataset.tablePolling") is None  # through the stream
    assert saw_wait
    shoot(a, screens, "table-over-desktop")

    for page, seat in ((a, "East"), (b, "South")):
        page.get_by_role("link", name="Your review").click()
        expect(page.locator("#review-live h1")).to_contain_text("decisions", timeout=60_000)
        expect(page.locator(".page-head .eyebrow")).to_contain_text(f"your seat, {seat}")
    shoot(b, screens, "table-review")
    assert people.errors == []


def test_the_table_page_at_phone_width(people, screens):
    ann = people("ann")
    page = ann.page
    page.set_viewport_size(PHONE | {"width": 390})
    page.goto("/tables")
    shoot(page, screens, "tables-home-phone")
    page.get_by_label("Turn timer in seconds (empty: no timer)").fill("90")
    page.get_by_role("button", name="Open a table and sit in East").click()
    page.get_by_role("button", name="Deal the first hand").click()
    expect(page.locator("#you-title")).to_have_text("Your rack (East)")
    expect(page.locator("[data-time-left]")).to_contain_text(re.compile(r"\((8\d|90) s left\)"))  # counted down here
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at a 390 px phone"
    shoot(page, screens, "table-phone")
    assert people.errors == []


def test_without_a_stream_the_page_polls_and_still_follows_the_table(people):
    ann, ben = people("ann"), people("ben")
    a = ann.page
    a.add_init_script("delete window.EventSource")  # a browser without server-sent events
    a.goto("/tables")
    a.get_by_role("button", name="Open a table and sit in East").click()
    expect(a).to_have_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    code = a.url.rsplit("/", 1)[1]
    a.evaluate("window.__stayed = true")
    ben.page.goto(f"/tables/{code}")
    ben.page.get_by_role("button", name="Sit here in West").click()
    # Polled every 2 s; the test server's four threads may still be serving the streams of the
    # pages the tests before closed (a stream ends at its next write), so allow for a queue.
    expect(a.locator('[data-seat="West"]')).to_contain_text("Guest", timeout=15_000)
    assert a.evaluate("document.documentElement.dataset.tablePolling") == "1"
    assert a.evaluate("window.__stayed === true")
    assert people.errors == []
