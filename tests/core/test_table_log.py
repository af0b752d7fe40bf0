"""The practice table as a player at it hears it (issue 25, item 14).

- The stop vote (C2) and the courtesy offer (C3) are taken together: the
  learner is asked before any computer player's answer is known, so never
  about a second Charleston another player has already stopped, and the
  learner's own vote is recorded with the others'.
- The table's log tells each move in a sentence: a pass with its tiles and
  its direction, a blind pass counted (C5), the vote's outcome with the
  fourth vote (C2).
- The review names each Charleston decision by what it was ("First
  Charleston, pass right", "Stop vote", "Courtesy pass") and gives the wall
  count only to decisions in play.
"""

from __future__ import annotations

import random

import pytest

from coach.notation import tiles
from coach.play.bots import answer, decide
from coach.play.hand import SEATS, Action, Hand, deal
from coach.play.review import Review, Reviewed, decision_name, decision_when
from coach.play.telling import tell
from tests.support.cards import CARD as HOUSE

ME = "East"


def to_step(seed: int, step: str, strength: str = "club", vote: bool = True) -> Hand:
    """A hand where East plays as a club player (voting `vote`), the others answering
    through `answer`, until East is owed a move on `step`."""
    hand = deal(HOUSE, seed)
    answer(hand, ME, strength)
    for n in range(40):
        if hand.phase == "charleston" and hand.step == step and ME in hand.waiting():
            return hand
        action = decide(hand, ME, "club", random.Random(f"me:{n}"))
        if action.kind == "vote":
            action = Action(ME, "vote", go=vote)
        hand.apply(action)
        answer(hand, ME, strength)
    raise AssertionError(f"seed {seed} never reached {step}")


def stopped(seed: int) -> bool:
    """Whether a computer player stops the second Charleston when East votes to go on."""
    hand = to_step(seed, "vote")
    hand.apply(Action(ME, "vote", go=True))
    answer(hand, ME, "club")
    return hand.step != "second-left"


def first_seed(stop: bool) -> int:
    """The first seed whose second Charleston is stopped (`stop`) or played."""
    return next(seed for seed in range(60) if stopped(seed) == stop)


@pytest.mark.parametrize("seed", (1, 7, 25))
def test_C2_the_learner_votes_before_any_other_vote_is_known(seed):
    hand = to_step(seed, "vote")
    assert hand.waiting() == {s: "vote" for s in SEATS}  # nobody has voted: nothing is decided
    assert not any(a.kind == "vote" for a in hand.actions)
    hand.apply(Action(ME, "vote", go=True))
    answer(hand, ME, "club")
    votes = [a for a in hand.actions if a.kind == "vote"]
    assert [a.seat for a in votes] == list(SEATS)  # the learner's first, then the others'
    assert hand.step in ("second-left", "offer")  # the vote is decided only once all four have voted


def test_C2_a_stop_by_a_computer_player_is_told_after_the_learners_vote_and_keeps_it():
    seed = first_seed(stop=True)
    hand = to_step(seed, "vote")
    hand.apply(Action(ME, "vote", go=True))
    answer(hand, ME, "club")
    assert hand.step == "offer"  # C2: any one player stops it, the learner's "go on" notwithstanding
    numbers = [n for n, a in enumerate(hand.actions) if a.kind == "vote"]
    lines = [tell(hand.actions, n, ME) for n in numbers]
    assert lines[0] == "You voted to play the second Charleston."
    stoppers = [a.seat for a in hand.actions if a.kind == "vote" and not a.go]
    assert f"{stoppers[0]} voted to stop the second Charleston." in lines
    assert lines[-1].endswith("Any one player may stop it, so there is no second Charleston (C2).")
    assert all("(C2)" not in line for line in lines[:-1])  # the outcome is told once, with the fourth vote


def test_C2_all_four_going_on_is_told_as_the_second_charleston_beginning():
    votes = [Action(s, "vote", go=True) for s in SEATS]
    assert tell(votes, 3, ME) == "North voted to play the second Charleston. Everyone voted to go on: the second Charleston begins (C2)."
    assert tell(votes, 2, ME) == "West voted to play the second Charleston."


def test_C3_the_learner_offers_before_any_other_offer_is_known():
    hand = to_step(1, "offer", vote=False)
    assert hand.waiting() == {s: "offer" for s in SEATS}
    assert not any(a.kind == "offer" for a in hand.actions)


def test_C1_C2_each_pass_of_the_learner_is_told_with_its_tiles_and_direction():
    hand = to_step(first_seed(stop=False), "offer")
    passes = [n for n, a in enumerate(hand.actions) if a.seat == ME and a.kind == "pass"]
    assert len(passes) == 6
    toward = ["to the right", "across", "to the left", "to the left", "across", "to the right"]
    for n, way in zip(passes, toward):
        line = tell(hand.actions, n, ME)
        assert line.startswith("You passed ") and f" {way}" in line and line.endswith("."), line
    first = hand.actions[passes[0]]
    assert all(tiles.name(c) in tell(hand.actions, passes[0], ME) for c in first.tiles)
    others = [n for n, a in enumerate(hand.actions) if a.seat != ME and a.kind == "pass"]
    assert all(tell(hand.actions, n, ME) == "" for n in others)  # their tiles stay face down (C1)


def test_C5_a_blind_pass_is_told_in_a_sentence_that_counts_the_blind_tiles():
    first = [Action(s, "pass", ("1D", "2D", "3D")) for s in SEATS]
    across = [Action(s, "pass", ("1B", "2B", "3B")) for s in SEATS]

    def last(action: Action) -> str:
        return tell(first + across + [action], 8, ME)

    assert last(Action(ME, "pass", (), blind=3)) == (
        "You passed 3 tiles to the left, all blind: the ones coming to you went straight on, unseen (C5)."
    )
    assert last(Action(ME, "pass", ("WD", "5D"), blind=1)) == (
        "You passed two of your tiles (the 5 Dot and the Soap) to the left and 1 blind, sent straight on unseen (C5)."
    )
    assert last(Action(ME, "pass", ("N", "5D", "9C"))) == "You passed the 5 Dot, the 9 Crak and the North to the left."
    assert tell([Action(ME, "courtesy", ("9C",))], 0, ME) == "You passed the 9 Crak across."
    assert last(Action(ME, "pass", ("5B", "6D", "5B"))) == "You passed the 6 Dot and two 5 Bams to the left."  # counted, not named twice
    for line in (last(Action(ME, "pass", (), blind=3)), last(Action(ME, "pass", ("5D",), blind=2))):
        assert "passed and" not in line and line.count("(C5)") == 1


def test_J4_a_joker_exchange_is_told_with_whose_joker():
    assert tell([Action("South", "exchange", ("8C",), owner="East")], 0, ME) == "South gave the 8 Crak for your joker."
    assert tell([Action(ME, "exchange", ("8C",), owner="West")], 0, ME) == "You gave the 8 Crak for West's joker."
    assert tell([Action(ME, "exchange", ("8C",), owner=ME)], 0, ME) == "You gave the 8 Crak for your own joker."


def test_C1_C2_C3_the_review_names_each_charleston_decision_and_counts_the_wall_only_in_play():
    assert decision_name("pass", "first-right") == "First Charleston, pass right"
    assert decision_name("pass", "second-across") == "Second Charleston, pass across"
    assert decision_name("vote") == "Stop vote"
    assert decision_name("offer") == "Courtesy offer"
    assert decision_name("courtesy") == "Courtesy pass"
    assert decision_name("no-call") == "No call" and decision_name("mahjong") == "Mah Jongg"
    for kind in ("pass", "vote", "offer", "courtesy"):
        assert decision_when(kind, 99) == ""
    assert decision_when("discard", 87) == "87 tiles in the wall"
    assert decision_when("discard", 1) == "1 tile in the wall"


def test_C1_C2_a_review_stored_before_pass_steps_were_kept_names_its_passes_by_their_order():
    def decision(number: int, kind: str) -> dict:
        played = Action(ME, kind, ("1D", "2D", "3D") if kind == "pass" else ())
        row = Reviewed(number, ME, kind, played, played, "best", 0.0, "", (), 99).to_json()
        del row["step"]  # as stored before this version
        return row

    kinds = ["pass", "pass", "pass", "vote", "pass", "pass", "pass", "offer", "discard"]
    stored = {"seat": ME, "decisions": [decision(n * 4, k) for n, k in enumerate(kinds)], "winner": None, "line": None}
    names = [d.name for d in Review.from_json(stored).decisions]
    assert names == [
        "First Charleston, pass right", "First Charleston, pass across", "First Charleston, pass left", "Stop vote",
        "Second Charleston, pass left", "Second Charleston, pass across", "Second Charleston, pass right",
        "Courtesy offer", "Discard",
    ]
