"""`python -m coach selfplay` on a handful of hands: every hand ends, conserves the 152 tiles and replays (T1, E1, E2)."""

from __future__ import annotations

import argparse
import io
from collections import Counter

import pytest

from coach.cli import main
from coach.notation import tiles
from coach.play.hand import SEATS, Action, Hand, replay
from coach.tools import selfplay
from coach.tools.selfplay import Clock, SelfPlayError, play_one
from tests.support.cards import CARD


def test_a_checked_hand_counts_152_tiles_after_every_action_and_replays():
    clocks = {s: Clock() for s in selfplay.STRENGTHS}
    hand = play_one(CARD, 11, dict(zip(SEATS, ("beginner", "shark", "club", "shark"))), True, clocks)
    assert hand.phase == "over" and hand.result is not None
    assert hand.census() == Counter(tiles.WALL)
    assert selfplay.state(replay(CARD, 11, hand.actions)) == selfplay.state(hand)
    bots_moves = Counter(a.seat for a in hand.actions)
    assert clocks["beginner"].count == bots_moves["East"]  # every decision timed, to its own strength
    assert clocks["shark"].count == bots_moves["South"] + bots_moves["North"]


def test_the_check_catches_a_lost_tile(monkeypatch):
    real_apply = Hand.apply

    def leaky(self: Hand, action: Action) -> None:
        real_apply(self, action)
        if len(self.actions) == 5:
            self.wall.pop()  # a tile vanishes

    monkeypatch.setattr(Hand, "apply", leaky)
    with pytest.raises(SelfPlayError, match="152"):
        play_one(CARD, 3, {s: "club" for s in SEATS}, True, {s: Clock() for s in selfplay.STRENGTHS})


def test_selfplay_plays_same_and_mixed_tables_and_reports_wins_walls_and_times():
    out, err = io.StringIO(), io.StringIO()
    args = argparse.Namespace(card=None, hands=2, seed=4, tables="all", check=True, review_every=1)
    assert selfplay.run(args, out, err) == 0
    text = out.getvalue()
    for strength in selfplay.STRENGTHS:
        assert f"  {strength:<9}     2 hands  won" in text
    pairs = len(selfplay.STRENGTHS) * (len(selfplay.STRENGTHS) - 1) // 2
    assert text.count("4 hands;") == 0 and text.count("2 hands;") == pairs  # every pair: one deal, seats swapped
    assert "95% bootstrap over 1 deals" in text and "Review of a whole hand" in text and "0 hands with errors" in text
    total = 2 * len(selfplay.STRENGTHS) + 2 * pairs
    assert f"{total}/{total} hands" in err.getvalue()


def test_the_mixed_tables_seat_each_strength_east_equally_often_on_the_same_deals():
    east = Counter()
    deals: dict[str, Counter] = {}
    for kind, seed, bots in selfplay.mixed_tables(6, 1):
        east[(kind, bots["East"])] += 1
        deals.setdefault(kind, Counter())[seed] += 1
        assert sorted(Counter(bots.values()).values()) == [2, 2]
    assert set(east.values()) == {3}
    assert all(set(c.values()) == {2} for c in deals.values())


def test_a_clock_keeps_percentiles_in_bounded_memory():
    clock = Clock()
    for ms in range(1, 101):
        clock.add(ms / 1000)
    clock.add(5.0)  # beyond the histogram: still the exact maximum
    assert clock.count == 101 and clock.top == 5000.0
    assert 50.0 <= clock.percentile(0.5) <= 51.1 and clock.percentile(0.95) <= 96.1
    assert len(clock.bins) == int(selfplay.TOP_MS / selfplay.BIN_MS) + 1


def test_the_command_line_rejects_a_bad_table_kind(capsys):
    assert main(["selfplay", "--tables", "odd"], stdout=io.StringIO()) == 2
