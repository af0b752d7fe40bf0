"""The browser test's hand (tests/browser/test_tables.py): played by the clicks it
makes (tests/support/table_seeds.py), South throws a tile East calls and gets."""

from __future__ import annotations

from tests.browser.test_tables import SEED
from tests.support.table_seeds import PEOPLE, play_out


def test_the_browser_tests_seed_has_a_call_between_the_two_people():
    hand, granted = play_out(SEED)
    assert ("South", "East") in granted
    assert hand.phase == "over"
    assert sum(1 for a in hand.actions if a.seat in PEOPLE) < 60  # a hand short enough to click through
