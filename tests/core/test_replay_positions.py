"""Mistakes become "replay this position" questions (issue 16, part 5): the core
says which decisions become positions and grades an answer there against the
coach's move; the drill asks what the learner saw at that moment, no more."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.notation import tiles
from coach.play.bots import play
from coach.play.hand import SEATS, Action, HandError, deal
from coach.play.positions import coach_move, grade_answer, position_at, rebuild, to_replay
from coach.play.review import BEST, INACCURACY, MISTAKE, review
from coach.tools.benchmarks.careless_hands import careless
from drills import DRILLS, replay_position
from drills.kit.base import AnswerError
from tests.support.cards import CARD as HOUSE
from tests.support.examples import examples
from tests.support.hands import CARD, in_play


def first_with_positions(kinds: tuple[str, ...] = ("discard",)):
    for seed in range(40):
        hand = careless(HOUSE, seed)
        numbers = [n for n in to_replay(review(HOUSE, seed, hand.actions, "East")) if hand.actions[n].kind in kinds]
        if numbers:
            return seed, hand, numbers
    raise AssertionError("no careless hand made a replayable decision")


def test_only_inaccuracies_and_mistakes_become_positions_never_a_vote_or_an_offer():
    seed, hand, _ = first_with_positions()
    found = review(HOUSE, seed, hand.actions, "East")
    numbers = to_replay(found)
    graded = {d.number: d for d in found.decisions}
    assert numbers and all(graded[n].grade in (INACCURACY, MISTAKE) for n in numbers)
    assert all(graded[n].played.kind not in ("vote", "offer") for n in numbers)
    assert not [d for d in found.decisions if d.grade in (INACCURACY, MISTAKE) and d.number not in numbers and d.kind not in ("vote", "offer")]


def test_a_coach_players_hand_has_nothing_to_replay():
    hand = play(HOUSE, 3, {"East": "coach", "South": "club", "West": "shark", "North": "club"})
    assert to_replay(review(HOUSE, 3, hand.actions, "East")) == []


def test_the_position_is_the_hand_just_before_the_decision():
    seed, hand, numbers = first_with_positions()
    position = position_at(seed, hand.actions, numbers[0], "East")
    again = rebuild(HOUSE, position)
    assert len(again.actions) == numbers[0] and again.waiting().get("East")
    with pytest.raises(ValueError):
        position_at(seed, hand.actions, numbers[0], "South")  # not South's decision
    with pytest.raises(ValueError):
        position_at(seed, hand.actions, len(hand.actions), "East")


def test_S4_the_move_played_in_the_hand_grades_as_the_review_graded_it_and_the_coachs_as_best():
    seed, hand, numbers = first_with_positions()
    found = {d.number: d for d in review(HOUSE, seed, hand.actions, "East").decisions}
    for number in numbers[:3]:
        position = position_at(seed, hand.actions, number, "East")
        board = rebuild(HOUSE, position)
        played = grade_answer(board, position, position.played)
        assert (played.grade, played.cost) == (found[number].grade, found[number].cost)  # a discard's coach move has no randomness
        assert not played.correct and "S4" in played.rules
        coach = coach_move(board, position)
        assert grade_answer(board, position, coach).grade == BEST and grade_answer(board, position, coach).correct


def test_E1_a_missed_mah_jongg_is_a_mistake_and_declaring_it_is_right():
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D"})
    position = position_at(1, [Action("East", "discard", ("4D",))], 0, "East")
    graded = grade_answer(hand, position, Action("East", "discard", ("4D",)))
    assert (graded.grade, graded.coach.kind) == (MISTAKE, "mahjong") and "E1" in graded.rules
    assert grade_answer(hand, position, Action("East", "mahjong")).correct


def test_an_illegal_answer_is_refused_with_its_rule():
    seed, hand, numbers = first_with_positions()
    position = position_at(seed, hand.actions, numbers[0], "East")
    board = rebuild(HOUSE, position)
    absent = next(c for c in tiles.CODES[: tiles.NATURALS] if tiles.INDEX[c] not in board.racks["East"])
    with pytest.raises(HandError) as refused:
        grade_answer(board, position, Action("East", "discard", (absent,)))
    assert refused.value.rule == "S4"
    assert len(board.actions) == numbers[0]  # tried on a copy: the position is untouched


def test_C1_a_pass_is_graded_whatever_order_its_tiles_are_picked_in():
    seed, hand, numbers = first_with_positions(("pass",))
    position = position_at(seed, hand.actions, numbers[0], "East")
    board = rebuild(HOUSE, position)
    coach = coach_move(board, position)
    shuffled = Action("East", "pass", tuple(reversed(coach.tiles)))
    assert grade_answer(board, position, shuffled).grade == BEST
    with pytest.raises(HandError) as refused:
        grade_answer(board, position, Action("East", "pass", ("J", *coach.tiles[:2])) if tiles.JOKER in board.racks["East"] else Action("East", "pass", coach.tiles[:2]))
    assert refused.value.rule in ("C1", "C4")


# -- the drill ------------------------------------------------------------------------------


def asked(kinds: tuple[str, ...] = ("discard",)):
    seed, hand, numbers = first_with_positions(kinds)
    position = position_at(seed, hand.actions, numbers[0], "East")
    board = rebuild(HOUSE, position)
    return hand, board, position, replay_position.ask(HOUSE, board, position)


def test_the_drill_is_not_dealt_at_random():
    assert replay_position.NAME not in DRILLS and replay_position not in DRILLS.values()


def test_the_question_shows_only_what_the_learner_saw():
    for kinds in (("discard",), ("pass",)):
        hand, board, position, q = asked(kinds)
        assert list(q.rack) == sorted((tiles.CODES[t] for t in board.racks["East"]), key=tiles.sort_key)
        assert q.exposed == tuple(tuple(e.as_exposure().codes) for e in board.exposed["East"])
        assert q.tile is None and q.prompt.startswith("What would you do here?")
        if kinds == ("discard",):
            assert set(q.choices) == set(q.rack) and f"{len(board.wall)} tiles are left in the wall." in q.facts
        # Named tiles come from what the table showed: the rack, the floor, the exposures, a pass just received.
        seen = set(q.rack) | {tiles.CODES[t] for _, t in board.discards} | {tiles.CODES[t] for t in board.received["East"]}
        seen |= {tiles.CODES[e.tile] for s in SEATS for e in board.exposed[s]}
        named = {code for code in tiles.CODES if code != "J" and re.search(rf"\b{re.escape(tiles.name(code))}\b", " ".join(q.facts))}
        assert named <= seen, named - seen
        assert "wall" not in q.public() and set(q.public()) <= {"drill", "seed", "level", "card", "prompt", "rack", "exposed", "choices", "tile", "facts"}


def test_S4_the_verdict_names_the_coachs_move_its_cost_and_what_you_chose_in_the_hand():
    hand, board, position, q = asked()
    played = replay_position.grade(q, position.played.tiles[0])
    assert not played.correct and played.headline.startswith(("Not quite", "Half right"))
    coach = coach_move(board, position)
    assert played.best == coach.tiles[0] and tiles.name(coach.tiles[0]) in played.headline
    text = " ".join(played.reasons + played.details)
    assert f"you chose to throw the {tiles.name(position.played.tiles[0])}" in text and "cost you about" in text
    assert "points of expected payment" in text
    assert played.rules == ("S4",) and not any("(S4)" in r for r in played.reasons)  # the rule id once: as its chip
    right = replay_position.grade(q, coach.tiles[0])
    assert right.correct and right.score == 1.0 and right.headline.startswith("Right")
    shown = replay_position.grade(q, None)
    assert not shown.correct and shown.answer is None and shown.best == coach.tiles[0]


def test_a_wrong_shaped_answer_is_an_answer_error():
    hand, board, position, q = asked()
    for bad in ("ZZ", ["5D"], 7, "exchange:Nobody:0"):
        with pytest.raises(AnswerError):
            replay_position.grade(q, bad)


def test_C1_a_pass_position_is_answered_with_tiles():
    hand, board, position, q = asked(("pass",))
    assert q.key.pick == 3 and q.choices == ()
    coach = coach_move(board, position)
    assert replay_position.grade(q, list(coach.tiles)).correct
    with pytest.raises(AnswerError):
        replay_position.grade(q, list(coach.tiles[:2]))


@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_at_any_self_play_position_the_coachs_own_move_grades_correct(seed, pick):
    hand = play(HOUSE, seed, {s: "beginner" for s in SEATS})
    mine = [n for n, a in enumerate(hand.actions) if a.seat == "East" and a.kind not in ("vote", "offer")]
    number = mine[pick % len(mine)]
    position = position_at(seed, hand.actions, number, "East")
    board = rebuild(HOUSE, position)
    q = replay_position.ask(HOUSE, board, position)
    coach = coach_move(board, position)
    answer = list(coach.tiles) if q.key.pick else replay_position.as_answer(coach, q.key)
    verdict = replay_position.grade(q, answer)
    assert verdict.correct and verdict.best == answer
