"""Signing in in a real browser comes back to where the learner was going
(issue 25, item 13), on a phone and a desktop: from the header's "Sign in"
on a drill page, and from a page that needs an account. The forgot-password
page without mail and the 404 page for a drill that does not exist are
photographed as a learner sees them."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.support.accounts import PASSWORD

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def make_account(browser, base_url: str, teacher: bool = False) -> str:
    """An account made in its own browser, which is then closed: the email."""
    email = f"back-{uuid.uuid4().hex[:10]}@example.org"
    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        page.goto("/signup")
        page.get_by_label("Email address").fill(email)
        page.get_by_label("Password", exact=True).fill(PASSWORD)
        if teacher:
            page.get_by_label(re.compile("teach", re.I)).check()
        page.get_by_role("button", name="Create account").click()
        page.wait_for_url(re.compile(r"/(account|teach)"))
    finally:
        context.close()
    return email


def sign_in_here(page, email: str) -> None:
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_signing_in_from_the_header_comes_back_to_the_drill(browser, base_url, screens, size, viewport):
    from playwright.sync_api import expect

    email = make_account(browser, base_url)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    seen: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: seen.append(str(e)))
        page.goto("/drills/first-pass?level=2")
        page.locator(".site-nav__account").click()
        expect(page).to_have_url(re.compile(r"/signin\?next="))
        page.screenshot(path=str(screens / f"sign-in-return-{size}.png"), full_page=True)
        sign_in_here(page, email)
        expect(page).to_have_url(re.compile(r"/drills/first-pass\?level=2$"))
        expect(page.locator(".site-nav__account")).to_have_text("Account")
        page.screenshot(path=str(screens / f"sign-in-returned-{size}.png"), full_page=False)
        assert seen == []
    finally:
        context.close()


def test_a_page_that_needs_an_account_comes_back_after_signing_in(browser, base_url, screens):
    from playwright.sync_api import expect

    email = make_account(browser, base_url, teacher=True)
    context = browser.new_context(base_url=base_url, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto("/teach/sets")
        expect(page).to_have_url(re.compile(r"/signin\?next=(/|%2F)teach(/|%2F)sets$"))
        sign_in_here(page, email)
        expect(page).to_have_url(re.compile(r"/teach/sets$"))
        page.goto("/signin?next=https://evil.example/")
        expect(page.locator(".site-nav__account")).to_have_text("Account")  # signed in: sent on, never off the site
        expect(page).to_have_url(re.compile(r"/account$"))
    finally:
        context.close()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_forgot_page_and_the_404_page_speak_to_the_learner(browser, base_url, screens, size, viewport):
    from playwright.sync_api import expect

    context = browser.new_context(base_url=base_url, viewport=viewport)
    try:
        page = context.new_page()
        page.goto("/signin/forgot")
        expect(page.locator("main")).to_contain_text("Ask the person who runs this site to reset your password.")
        expect(page.locator("main code")).to_have_count(0)
        page.screenshot(path=str(screens / f"forgot-no-mail-{size}.png"), full_page=True)
        page.goto("/drills/no-such-drill")
        expect(page.locator("h1")).to_have_text("No such drill")
        expect(page.get_by_role("link", name="Choose the first pass")).to_have_attribute("href", "/drills/first-pass")
        expect(page.locator("main")).not_to_contain_text("name-the-tile")
        page.screenshot(path=str(screens / f"no-such-drill-{size}.png"), full_page=True)
    finally:
        context.close()
