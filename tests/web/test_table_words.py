"""The practice table's words on the page (issue 25, item 14): the stop vote is
asked before anyone's vote is shown (C2), the log tells moves in sentences,
and the review names each Charleston decision by what it was, with the wall
count for decisions in play only."""

from __future__ import annotations

import random
import re

from sqlmodel import Session

from coach.play.bots import decide
from coach.play.hand import SEATS, Action
from coach.store import hands as hands_store
from coach.store.models import PracticeHand
from coach.web.shared.practice.hands import SEAT, result_json
from tests.support.practice import deal_one, form_of, state
from tests.support.replay import HAND
from tests.support.teaching import post, text_of


def log_of(page: str) -> list[str]:
    found = re.search(r'<section class="play-log".*?<ol>(.*?)</ol>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def to_vote(app, client) -> int:
    """A hand played through the forms up to East's vote on the second Charleston."""
    hand_id = deal_one(client)
    rng = random.Random(0)
    for _ in range(10):
        hand = state(app, hand_id)
        if hand.step == "vote":
            return hand_id
        assert post(client, f"/play/{hand_id}/act", form_of(decide(hand, SEAT, "club", rng), hand)).status_code == 303
    raise AssertionError("the hand never reached the vote")


def test_C2_the_table_asks_for_your_vote_before_anyone_elses_is_known(app):
    client = app.test_client()
    hand_id = to_vote(app, client)
    hand = state(app, hand_id)
    assert hand.waiting() == {s: "vote" for s in SEATS}  # nobody has voted: nothing is decided yet
    page = text_of(client.get(f"/play/{hand_id}"))
    assert "Play the second Charleston" in page and "Stop it" in page
    assert not any("voted" in line for line in log_of(page))
    # The learner's first pass is told in a sentence, with its tiles and its direction.
    passes = [line for line in log_of(page) if line.startswith("You passed ")]
    assert passes and " to the left" in passes[-1] and passes[-1].endswith(".")
    assert not any(re.search(r"passed and \d", line) for line in log_of(page))
    assert post(client, f"/play/{hand_id}/act", form_of(Action(SEAT, "vote", go=True), hand)).status_code == 303
    after = state(app, hand_id)
    votes = [a for a in after.actions if a.kind == "vote"]
    assert [a.seat for a in votes] == list(SEATS)  # the learner's vote is kept, first
    lines = log_of(text_of(client.get(f"/play/{hand_id}")))
    told = [line for line in lines if "voted" in line]
    assert told[0] == "You voted to play the second Charleston."
    assert len(told) == 4 and told[-1].endswith("(C2).")
    outcome = "the second Charleston begins" if all(a.go for a in votes) else "so there is no second Charleston"
    assert outcome in told[-1]


def reviewed_hand(app, client) -> int:
    """A finished hand (tests/support/replay.py) of the client's learner."""
    hand_id = deal_one(client)
    with Session(app.extensions["store"]) as session:
        row = session.get(PracticeHand, hand_id)
        assert row is not None
        row.seed = HAND.seed
        hands_store.save(session, row, [a.to_json() for a in HAND.actions], result_json(HAND))
    return hand_id


def test_C1_C2_C3_the_review_names_each_charleston_decision_and_counts_the_wall_only_in_play(app):
    client = app.test_client()
    hand_id = reviewed_hand(app, client)
    page = text_of(client.get(f"/play/{hand_id}/review"))
    heads = re.findall(r'<p class="review-step__head">(.*?)</p>', page)
    mine = [a for a in HAND.actions if a.seat == SEAT]
    assert len(heads) == len(mine)
    words = [" ".join(re.sub(r"<[^>]+>", " ", h).split()) for h in heads]
    assert "1. First Charleston, pass right" in words[0] and "2. First Charleston, pass across" in words[1]
    assert "3. First Charleston, pass left" in words[2]
    for said, action in zip(words, mine):
        if action.kind in ("pass", "vote", "offer", "courtesy"):
            assert "in the wall" not in said, said  # the Charleston comes before the first draw
        else:
            assert re.search(r"· \d+ tiles? in the wall$", said), said
    kinds = {a.kind for a in mine}
    if "vote" in kinds:
        assert any("Stop vote" in w for w in words)
    if "courtesy" in kinds:
        assert any("Courtesy pass" in w for w in words)
    assert not any(re.search(r"\bPass · ", w) for w in words)
