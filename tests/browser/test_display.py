"""Dark mode and large tiles in a real browser, phone and desktop (issue 15).

The device's dark mode is emulated (prefers-color-scheme); the learner's
choice is made on the account page. Screenshots of each page in light and
dark go to a temporary folder (printed with -s).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll, slug

PAGES = ["/", "/account", "/drills/nearest-hand?level=2&seed=3", "/drills/name-the-tile?level=1&seed=3", "/rules"]


def page_colours(page: Page) -> tuple[float, float]:
    """Luminance (0-255) of the page background and of the body text."""
    return tuple(page.evaluate("""() => {
      const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).map(Number); return 0.299 * r + 0.587 * g + 0.114 * b; };
      const style = getComputedStyle(document.body);
      return [lum(style.backgroundColor), lum(style.color)];
    }"""))


def is_dark(page: Page) -> bool:
    background, text = page_colours(page)
    return background < 60 and text > 190


def is_light(page: Page) -> bool:
    background, text = page_colours(page)
    return background > 220 and text < 80


def choose(page: Page, theme: str, size: str) -> None:
    page.goto("/account")
    page.locator(f"input[name='theme'][value='{theme}'] + span").click()
    page.locator(f"input[name='tile_size'][value='{size}'] + span").click()
    page.get_by_role("button", name="Apply").click()
    expect(page.get_by_text("Display settings saved.")).to_be_visible()


def rack_tile_width(page: Page) -> float:
    page.goto("/drills/nearest-hand?level=2&seed=3")
    return page.locator(".rack .tile").first.bounding_box()["width"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_dark_follows_the_device_until_the_learner_chooses(page: Page, errors, screens, viewport):
    page.set_viewport_size(viewport)
    kind = "phone" if viewport is PHONE else "desktop"
    page.emulate_media(color_scheme="light")
    for url in PAGES:
        page.goto(url)
        assert is_light(page), url
        page.screenshot(path=str(screens / f"{kind}-light-{slug(url)}.png"), full_page=url != "/rules")
    page.emulate_media(color_scheme="dark")
    for url in PAGES:
        page.goto(url)
        assert is_dark(page), url
        assert no_sideways_scroll(page), url
        page.screenshot(path=str(screens / f"{kind}-dark-{slug(url)}.png"), full_page=url != "/rules")
    # Forced light on a dark device, then forced dark on a light one.
    choose(page, "light", "normal")
    assert is_light(page)
    page.emulate_media(color_scheme="light")
    choose(page, "dark", "normal")
    page.goto("/progress")
    assert is_dark(page)
    assert errors == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_large_tiles_are_larger_and_kept(page: Page, errors, screens, viewport):
    page.set_viewport_size(viewport)
    kind = "phone" if viewport is PHONE else "desktop"
    standard = rack_tile_width(page)
    choose(page, "system", "large")
    large = rack_tile_width(page)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / f"{kind}-large-tiles.png"), full_page=True)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    assert page.locator("html").get_attribute("class") == "tiles-large"
    # On a phone too (issue 25, item 11): fewer tiles to a row, never wider than the screen.
    assert large > standard * 1.25, (standard, large)
    page.reload()
    assert page.locator("html").get_attribute("class") == "tiles-large"
    assert errors == []
