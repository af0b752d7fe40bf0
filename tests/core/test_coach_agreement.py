"""One coach (issue 24): the table's hint, the review and the replayed
position name the same move at every decision, each worked out afresh."""

from __future__ import annotations

from coach.tools.agreement import agreement
from tests.support.cards import CARD


def test_hint_review_and_replay_agree_on_every_position_of_self_play_hands():
    positions, agreed = agreement(CARD, 4, 11)
    assert positions > 100 and agreed == positions
