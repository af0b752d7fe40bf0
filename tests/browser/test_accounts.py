"""Accounts in a real browser: a guest's drill is kept when they sign up."""

from __future__ import annotations

import re
import uuid

from drills import name_the_tile
from tests.support.accounts import PASSWORD
from tests.support.cards import CARD


def test_sign_up_in_the_browser_keeps_the_guest_drill(browser, base_url, tmp_path_factory):
    """A guest answers a drill, signs up in Chromium and finds the answer kept."""
    from playwright.sync_api import expect

    screens = tmp_path_factory.mktemp("account-screens")
    print(f"\naccount screenshots: {screens}")
    email = f"learner-{uuid.uuid4().hex[:10]}@example.org"
    context = browser.new_context(timezone_id="Europe/Paris", base_url=base_url, viewport={"width": 1280, "height": 900})
    seen: list[str] = []
    try:
        page = context.new_page()
        # A refused form answers 422, which Chromium logs as a failed load: expected here.
        page.on("console", lambda m: seen.append(m.text) if m.type == "error" and "status of 422" not in m.text else None)
        page.on("pageerror", lambda e: seen.append(str(e)))
        q = name_the_tile.generate(21, 1, CARD)
        page.goto("/drills/name-the-tile?level=1&seed=21")
        page.locator(f"button.choice[value='{q.tile}']").click()
        expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "right")

        page.goto("/account")
        expect(page.locator("h1")).to_have_text("You are drilling as a guest")
        page.screenshot(path=str(screens / "guest-account-desktop.png"), full_page=True)
        page.locator(".site-nav__account").click()
        expect(page).to_have_url(re.compile(r"/signin\?next=(/|%2F)account$"))  # back to the account page once signed in
        expect(page.locator(".auth__kept-count")).to_have_text("1")
        page.screenshot(path=str(screens / "signin-desktop.png"), full_page=True)
        page.get_by_role("link", name="Create an account").click()
        expect(page).to_have_url(re.compile(r"/signup\?next=(/|%2F)account$"))

        page.get_by_label("Email address").fill("not-an-email")
        page.get_by_label("Password", exact=True).fill("short")
        page.get_by_role("button", name="Create account").click()
        expect(page.locator(".error-summary")).to_be_focused()
        expect(page.locator("#email-error")).to_contain_text("Enter an email address like name@example.com.")
        expect(page.locator("#password")).to_have_attribute("aria-invalid", "true")
        page.screenshot(path=str(screens / "signup-errors-desktop.png"), full_page=True)

        page.get_by_label("Your name").fill("Pat")
        page.get_by_label("Email address").fill(email)
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        page.get_by_label("Show password").check()
        expect(page.locator("#password")).to_have_attribute("type", "text")
        page.get_by_role("button", name="Create account").click()

        expect(page).to_have_url(re.compile(r"/account$"))
        expect(page.locator(".notice")).to_contain_text("Your account is ready, with the 1 answer you gave as a guest.")
        expect(page.locator(".site-nav__account")).to_have_text("Account")
        expect(page.locator("#time_zone")).to_have_value("Europe/Paris")
        expect(page.locator("[data-tz-use]")).to_be_hidden()  # the device's zone is the one set
        expect(page.locator("#current_password")).to_be_hidden()
        page.locator("#email").fill("pat@new.example")
        expect(page.locator("#current_password")).to_be_visible()  # asked for once the email changes
        page.locator("#email").fill(email)
        page.locator("#time_zone").fill("Asia/Tokyo")
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".notice")).to_have_text("Your details are saved.")
        expect(page.locator("#time_zone")).to_have_value("Asia/Tokyo")
        use = page.locator("[data-tz-use]")
        expect(use).to_have_text("Use this device\u2019s time zone: Europe/Paris")
        use.click()
        expect(page.locator("#time_zone")).to_have_value("Europe/Paris")
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".notice")).to_have_text("Your details are saved.")
        data = page.request.get("/api/progress").json()
        assert data["attempts"] == 1 and data["correct"] == 1 and data["time_zone"] == "Europe/Paris"
        page.screenshot(path=str(screens / "account-desktop.png"), full_page=True)

        page.set_viewport_size({"width": 375, "height": 740})
        for url, name in (("/account", "account"), ("/account/delete", "delete")):
            page.goto(url)
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), url
            page.screenshot(path=str(screens / f"{name}-phone.png"), full_page=True)

        page.goto("/account")
        page.get_by_role("button", name="Sign out", exact=True).click()
        expect(page.locator(".site-nav__account")).to_have_text("Sign in")
        for url, name in (("/signup", "signup"), ("/signin", "signin"), ("/account", "nothing-stored")):
            page.goto(url)
            assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), url
            page.screenshot(path=str(screens / f"{name}-phone.png"), full_page=True)
        assert page.request.get("/api/progress").json()["attempts"] == 0
        assert seen == []
    finally:
        context.close()
