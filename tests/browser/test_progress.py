"""Progress in a real browser: the page sends its time zone and the answer's time."""

from __future__ import annotations


def test_the_browser_sends_its_time_zone_and_answer_time(browser, base_url):
    """In Chromium with a Tokyo clock, an answer records Asia/Tokyo and the time taken."""
    from playwright.sync_api import expect

    context = browser.new_context(timezone_id="Asia/Tokyo", base_url=base_url)
    try:
        tokyo = context.new_page()
        tokyo.goto("/drills/name-the-tile?level=1&seed=11")
        tokyo.wait_for_timeout(300)
        tokyo.locator("#answer-form button").first.click()
        expect(tokyo.locator("#verdict-card")).to_be_visible()
        data = tokyo.request.get("/api/progress").json()
        assert data["attempts"] == 1 and data["time_zone"] == "Asia/Tokyo"
    finally:
        context.close()
