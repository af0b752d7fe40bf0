"""The class's decisions on one deal, compared (coach/play/compare.py, issue 16 part 6).

Students' hands are played as the table plays them (coach.web.shared.practice.hands.bots_play
moves the computer players), the learner's moves chosen by the coach or by a
scripted slip, so the test knows who did what without hard-coding any tile.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from coach.notation import tiles
from coach.notation.card import house_card
from coach.play.bots import decide
from coach.play.compare import compare, did, same_move
from coach.play.hand import Action, Hand, deal
from coach.play.review import review
from coach.web.shared.practice.hands import SEAT, bots_play

SEED = 11
Chooser = Callable[[Hand, int], Action]


@pytest.fixture(scope="module")
def card():
    return house_card()


def coach_like(hand: Hand, n: int) -> Action:
    return decide(hand, SEAT, "club", random.Random(f"student:{n}"))


def slip_at_discard(after: int) -> Chooser:
    """The coach's moves, except the first discard from decision `after` on:
    the lowest tile that is not the coach's choice (and not a joker)."""
    state = {"done": False}

    def choose(hand: Hand, n: int) -> Action:
        advised = coach_like(hand, n)
        if n >= after and advised.kind == "discard" and not state["done"]:
            other = [t for t in sorted(set(hand.racks[SEAT])) if tiles.CODES[t] != advised.tiles[0] and t != tiles.JOKER]
            if other:
                state["done"] = True
                return Action(SEAT, "discard", (tiles.CODES[other[0]],))
        return advised

    return choose


def play(card, chooser: Chooser, decisions: int = 400) -> list[Action]:
    """A student's hand as the table plays it: their moves, the bots' in between."""
    hand = deal(card, SEED)
    bots_play(hand, "club")
    for n in range(decisions):
        if SEAT not in hand.waiting():
            break
        hand.apply(chooser(hand, n))
        bots_play(hand, "club")
    return list(hand.actions)


def test_students_who_make_the_same_moves_see_the_same_hand(card):
    first, second = play(card, coach_like), play(card, coach_like)
    assert first == second and len(first) > 40
    found = compare(card, SEED, {"Ann": first, "Bob": second})
    learner_moves = [a for a in first if a.seat == SEAT]
    assert len(found.steps) == len(learner_moves)
    assert all(s.decided == 2 and len(s.choices) == 1 and not s.split for s in found.steps)
    assert found.steps[0].headline.startswith("2 of 2 ")
    assert found.stopped == "The hand is over."


def test_a_split_is_counted_named_and_followed_by_the_larger_group(card):
    hands = {name: play(card, coach_like) for name in ("Ann", "Bob", "Cat")}
    hands |= {name: play(card, slip_at_discard(8)) for name in ("Dan", "Eve")}
    found = compare(card, SEED, hands)
    split = [s for s in found.steps if s.split]
    assert len(split) == 1, [s.headline for s in split]
    step = split[0]
    assert step.kind == "discard" and set(step.split) == {"Dan", "Eve"}
    assert [c.count for c in step.choices] == [3, 2]
    top, other = step.choices
    assert top.coach and top.players == ("Ann", "Bob", "Cat") and top.grade == "best"
    assert other.players == ("Dan", "Eve") and not other.coach and other.grade != "best"
    assert step.headline == f"3 of 5 threw the {tiles.name(step.coach.tiles[0])} here, as the coach would."
    slipped = hands["Dan"][step.number]
    assert other.words == f"threw the {tiles.name(slipped.tiles[0])}"
    after = found.steps[found.steps.index(step) + 1]
    assert after.decided == 3  # the group of three goes on together
    assert all(s.decided == 5 for s in found.steps[: found.steps.index(step)])


def test_the_coach_at_each_shared_position_is_the_coach_of_each_students_review(card):
    actions = play(card, slip_at_discard(5))
    found = compare(card, SEED, {"Ann": actions})
    reviewed = review(card, SEED, actions, SEAT)
    assert [s.coach for s in found.steps] == [d.coach for d in reviewed.decisions]
    assert [s.choices[0].grade for s in found.steps] == [d.grade for d in reviewed.decisions]
    assert [s.rack for s in found.steps] == [d.rack for d in reviewed.decisions]


def test_the_coachs_own_words_when_the_class_chose_otherwise(card):
    hands = {name: play(card, slip_at_discard(8)) for name in ("Ann", "Bob")}
    step = next(s for s in compare(card, SEED, hands).steps if s.kind == "discard" and not s.choices[0].coach)
    assert step.headline.startswith("2 of 2 threw the ")
    assert step.headline.endswith(f"; the coach would throw the {tiles.name(step.coach.tiles[0])}.")
    assert step.rules == ("S4",) and step.reason.startswith("The coach would throw")


def test_a_student_who_has_not_played_on_waits_at_their_next_decision(card):
    hands = {"Ann": play(card, coach_like), "Bob": play(card, coach_like, decisions=6)}
    found = compare(card, SEED, hands)
    waits = [s for s in found.steps if s.waiting]
    assert len(waits) == 1 and waits[0].waiting == ("Bob",) and waits[0].decision == 7
    assert all(s.decided == 2 for s in found.steps[:6]) and all(s.decided == 1 for s in found.steps[6:])


def test_nobody_has_played_yet(card):
    hand = deal(card, SEED)
    bots_play(hand, "club")
    found = compare(card, SEED, {"Ann": list(hand.actions)})
    assert found.steps == () and found.stopped == "Nobody has played on from here yet."
    assert compare(card, SEED, {}).steps == ()


def test_a_pass_is_the_same_whatever_order_its_tiles_were_picked_in():
    one = Action(SEAT, "pass", ("3B", "N", "5D"))
    other = Action(SEAT, "pass", ("5D", "3B", "N"))
    assert same_move(one) == same_move(other)
    assert same_move(Action(SEAT, "discard", ("3B",))) != same_move(Action(SEAT, "discard", ("5D",)))


def test_a_refused_stored_move_ends_the_walk_with_the_rule(card):
    actions = play(card, coach_like, decisions=3)
    broken = actions + [Action(SEAT, "discard", ("9D",))]
    found = compare(card, SEED, {"Ann": broken})
    assert "A stored move is refused here" in found.stopped and "vote on the second Charleston (C2)" in found.stopped
    assert len(found.steps) == 3


def test_moves_in_words():
    hand = deal(house_card(), SEED)
    assert did(Action(SEAT, "discard", ("3B",)), hand) == "threw the 3 Bam"
    assert did(Action(SEAT, "pass", ("N", "3B", "5D")), hand) == "passed 5 Dot, 3 Bam, North"
    assert did(Action(SEAT, "vote", go=False), hand) == "voted to stop the Charleston"
    assert did(Action(SEAT, "offer", count=2), hand) == "offered 2 across"
