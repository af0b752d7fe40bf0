"""The review under each table rule (docs/table-rules.md): a hand is reviewed by
the rules it was played under, every move judged legal or not by those rules
only, and a decision a table rule shaped is graded with a reason that says so
once, by the rule's id: a blank exchange (TR1), a call at a cold wall (TR2),
a joker in the courtesy pass (TR3), and every decision of hands played at
three (TR4), with picking ahead (TR5), first to speak (TR6) and an all-blind
end of the Charleston (C6)."""

from __future__ import annotations

import random
import re

import pytest

from coach.notation import tiles
from coach.play.bots import decide, play
from coach.play.evaluation import evaluate
from coach.play.hand import BLANK_SWAP, SEATS, Action, Hand, HandError, deal, replay
from coach.play.positions import position_at, rebuild
from coach.play.review import BEST, GOOD, INACCURACY, MISTAKE, Review, grade_decision, hint, review
from coach.rules.table_rules import LEAGUE, TableRules
from coach.tools.selfplay import state
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, codes, courtesy_hand, in_play, pass_naturals

GRADES = (BEST, GOOD, INACCURACY, MISTAKE)
QUICK = {"East": "club", "South": "beginner", "West": "club", "North": "beginner"}


def on_floor(hand: Hand, text: str, seat: str = "North") -> None:
    for tile in codes(text):
        hand.wall.remove(tile)
        hand.discards.append((seat, tile))


def every_decision_graded(found: Review, actions: list[Action], seat: str) -> None:
    """Each of the seat's moves is a graded decision with a reason."""
    assert [d.number for d in found.decisions] == [n for n, a in enumerate(actions) if a.seat == seat]
    assert all(d.grade in GRADES and d.reason and d.rules for d in found.decisions)


def not_under_league(hand: Hand) -> bool:
    """The record does not replay to the same hand by the League's rules."""
    try:
        again = replay(hand.card, hand.seed, list(hand.actions), LEAGUE)
    except HandError:
        return True
    return state(again) != state(hand)


# -- TR1: a blank exchange -----------------------------------------------------------------------


def swap_scene(floor: str, east: str = "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D BL 7C") -> Hand:
    hand = in_play(deal(CARD, 1, TableRules(blanks=4)), {"East": east, "South": "7B", "West": "8B", "North": "9B"})
    on_floor(hand, floor)
    return hand


def test_TR1_the_evaluation_values_each_blank_exchange_and_the_review_grades_it_citing_TR1_once() -> None:
    hand = swap_scene("6B 4D 9C")
    options = evaluate(hand, "East").options
    swaps = [o for o in options if o.action.kind == BLANK_SWAP]
    assert {o.action.tiles for o in swaps} == {("6B",), ("4D",), ("9C",)}  # every discard but a joker
    assert options[0].action == Action("East", BLANK_SWAP, ("4D",), place=1)
    made = grade_decision(hand, Action("East", BLANK_SWAP, ("4D",), place=1))
    assert made.grade == BEST and made.rules == ("TR1",)
    assert "swap a blank for the 4 Dot" in made.reason and made.reason.count("TR1") == 1
    assert "never part of a hand" in made.reason  # the rule in a beginner's words
    # Throwing the 7 Crak instead leaves the hand a tile further: graded below best, the swap named.
    missed = grade_decision(hand, Action("East", "discard", ("7C",)))
    assert missed.grade != BEST and missed.coach == made.coach and missed.cost > 0
    assert missed.rules == ("S4", "TR1") and missed.reason.count("TR1") == 1
    assert "The coach would swap a blank for the 4 Dot" in missed.reason
    # A swap for a tile no line needs: below the best, and still said with its rule.
    useless = grade_decision(hand, Action("East", BLANK_SWAP, ("9C",), place=2))
    assert useless.grade != BEST and useless.reason.count("TR1") == 1


def test_TR1_a_whole_hand_review_grades_each_blank_exchange_with_its_rule_once() -> None:
    rules = TableRules(blanks=8)
    for seed in range(60):
        hand = play(CARD, seed, QUICK, rules=rules)
        if any(a.seat == "East" and a.kind == BLANK_SWAP for a in hand.actions):
            break
    else:
        raise AssertionError("no hand of 60 had a blank swap by East")
    found = review(CARD, seed, list(hand.actions), "East", rules=rules)
    every_decision_graded(found, list(hand.actions), "East")
    swaps = [d for d in found.decisions if d.kind == BLANK_SWAP]
    assert swaps and all(d.reason.count("TR1") == 1 and "blank" in d.reason for d in swaps)


# -- TR2: a call at a cold wall ------------------------------------------------------------------


def call_scene(rules: TableRules, before_cold: int) -> Hand:
    """East throws the 2 Bam that West may call for a pung, `before_cold` draws
    before the wall's last tiles."""
    hand = in_play(deal(CARD, 2, rules), {"East": "2B 5C", "South": "7D", "West": "F F 2B 2B 9D", "North": "7C"})
    while len(hand.wall) > hand.last_wall + before_cold:
        hand.discards.append(("North", hand.wall.pop()))
    hand.apply(Action("East", "discard", ("2B",)))
    assert hand.waiting() == {"West": "call"}
    return hand


@pytest.mark.parametrize("played", [Action("West", "call", size=3), Action("West", "no-call")])
def test_TR2_a_call_at_a_cold_wall_is_graded_and_its_reason_says_when_the_wall_goes_cold(played: Action) -> None:
    hand = call_scene(TableRules(wall_end="cold"), before_cold=5)
    judged = grade_decision(hand, played)
    assert judged.grade in GRADES and judged.unit == "points"
    assert judged.rules == ("K2", "TR2") and judged.reason.count("TR2") == 1
    assert "after 5 more tiles from the wall, nobody may call a discard" in judged.reason
    # By the League's rules the same decision says nothing of a cold wall.
    league = grade_decision(call_scene(LEAGUE, before_cold=5), played)
    assert "TR2" not in league.reason and league.rules == ("K2",)
    assert (league.grade, league.coach) == (judged.grade, judged.coach)  # the same moves, the same values


def test_TR2_in_a_cold_walls_last_tiles_a_discard_hands_nobody_mah_jongg_and_the_review_says_why() -> None:
    def scene(rules: TableRules) -> Hand:
        hand = in_play(deal(CARD, 3, rules), {
            "East": "1D 1D 1D 2D 2D 2D 3D 3D 4D 5C 6B 7B 8B 9C", "South": "7B", "North": "7C",
            "West": "F F 1B 1B 1B 2B 2B 2B 3B 3B 3B J J",
        })
        hand.exposed["West"] = []
        while len(hand.wall) > hand.last_wall:
            hand.discards.append(("North", hand.wall.pop()))
        return hand

    league = evaluate(scene(LEAGUE), "East")
    assert any(o.deal_in > 0 for o in league.options)  # by the League's rules some tile is a risk
    cold_hand = scene(TableRules(wall_end="cold"))
    assert cold_hand.in_last_wall
    cold = evaluate(cold_hand, "East")
    assert all(o.deal_in == 0 and not o.hot for o in cold.options)  # nothing thrown can be called (TR2)
    judged = grade_decision(cold_hand, cold.best.action)
    assert judged.grade == BEST and judged.reason.count("TR2") == 1 and "nobody may call" in judged.reason
    assert judged.rules == ("S4", "TR2")


# -- TR3: a joker in the courtesy pass -----------------------------------------------------------


def test_TR3_the_review_grades_a_joker_in_the_courtesy_pass_by_the_hands_rules() -> None:
    rules = TableRules(joker_in_courtesy=True)
    hand = courtesy_hand(rules)
    other = next(tiles.CODES[t] for t in hand.racks["East"] if t != tiles.JOKER)
    mine = Action("East", "courtesy", tuple(sorted(("J", other), key=tiles.sort_key)))
    judged = grade_decision(hand, mine)  # once refused: "pass ..., Joker is not a legal move"
    assert judged.unit == "tiles" and judged.grade in GRADES
    assert judged.rules == ("C3", "TR3") and judged.reason.count("TR3") == 1 and "keeps its jokers" in judged.reason
    assert "J" not in judged.coach.tiles  # the coach keeps its jokers first of all
    # The whole hand's review, through the courtesy pass and on.
    actions = list(hand.actions) + [mine]
    after = replay(HOUSE, hand.seed, actions, rules)
    for seat in ("South", "West", "North"):
        move = decide(after, seat, "club", random.Random(1))
        actions.append(move)
        after.apply(move)
    assert after.phase == "play"
    found = review(HOUSE, hand.seed, actions, "East", rules=rules)
    every_decision_graded(found, actions, "East")
    assert found.decisions[-1].kind == "courtesy" and found.decisions[-1].grade == judged.grade
    with pytest.raises(HandError):
        replay(HOUSE, hand.seed, actions, LEAGUE)  # by the League's rules a joker never passes (C4)


# -- TR4, TR5, TR6, C6: whole hands reviewed under their own rules -------------------------------


def test_TR4_a_hand_at_three_is_reviewed_by_its_own_passes_and_seats() -> None:
    rules = TableRules(players=3)
    hand = play(CARD, 5, QUICK, rules=rules)
    found = review(CARD, 5, list(hand.actions), "East", rules=rules)
    every_decision_graded(found, list(hand.actions), "East")
    steps = [d.step for d in found.decisions if d.kind == "pass"]
    assert steps and set(steps) <= {"first-right", "first-left", "second-left", "second-right"}  # no across (TR4)
    assert all(d.kind not in ("offer", "courtesy") for d in found.decisions)  # no courtesy pass at three
    assert not_under_league(hand)


def test_TR5_a_hand_with_picking_ahead_is_reviewed_and_its_positions_show_the_tile_picked_ahead() -> None:
    rules = TableRules(picking_ahead=True)
    for seed in range(40):
        hand = play(CARD, seed, QUICK, rules=rules)
        calls = [n for n, a in enumerate(hand.actions) if a.kind in ("call", "no-call") and a.seat == "South"]
        # South answers a discard by East, after which South draws: it picked the tile ahead.
        ahead = [n for n in calls if rebuild(CARD, position_at(seed, list(hand.actions), n, "South", rules)).picked_ahead("South") is not None]
        if ahead:
            break
    else:
        raise AssertionError("no hand of 40 had South answer a discard with a tile picked ahead")
    found = review(CARD, seed, list(hand.actions), "South", rules=rules)
    every_decision_graded(found, list(hand.actions), "South")
    at = rebuild(CARD, position_at(seed, list(hand.actions), ahead[0], "South", rules))
    assert at.picked_ahead("South") == at.wall[0]
    assert rebuild(CARD, position_at(seed, list(hand.actions), ahead[0], "South", LEAGUE)).picked_ahead("South") is None


def test_TR6_a_hand_played_first_to_speak_is_reviewed_only_under_its_rules() -> None:
    rules = TableRules(first_to_speak=True)
    for seed in range(120):
        hand = play(CARD, seed, QUICK, rules=rules)
        if not_under_league(hand):
            break  # two calls for the same purpose went to the first to speak, not the nearest seat
    else:
        raise AssertionError("no hand of 120 was decided by the first to speak")
    for seat in SEATS:
        every_decision_graded(review(CARD, seed, list(hand.actions), seat, rules=rules), list(hand.actions), seat)


def test_C6_a_hand_whose_charleston_ended_all_blind_is_reviewed_under_C6() -> None:
    rules = TableRules(air_mahjong=True)
    hand = deal(CARD, 8, rules)
    pass_naturals(hand, 2)
    for seat in SEATS:
        hand.apply(Action(seat, "pass", (), blind=3))
    assert hand.phase == "play"  # C6: no vote, no courtesy pass; East discards
    rngs = {s: random.Random(s) for s in SEATS}
    while hand.waiting():
        seat = next(s for s in SEATS if s in hand.waiting())
        hand.apply(decide(hand, seat, "club", rngs[seat]))
    found = review(CARD, 8, list(hand.actions), "East", rules=rules)
    every_decision_graded(found, list(hand.actions), "East")
    blind = [d for d in found.decisions if d.kind == "pass" and d.played.blind == 3]
    assert len(blind) == 1 and blind[0].unit == "tiles"
    assert found.decisions[len(blind) + 2].kind != "vote"  # after the three passes: play, not a vote
    with pytest.raises(ValueError, match="not a legal move"):
        review(CARD, 8, list(hand.actions), "East", rules=LEAGUE)  # by the League's rules a vote comes next


# -- the hint says what the review says -------------------------------------------------------------


def test_TR1_the_hint_explains_a_blank_swap_as_the_review_does_citing_TR1_once() -> None:
    hand = swap_scene("6B 4D 9C")
    action, words = hint(hand, "East")
    assert action == Action("East", BLANK_SWAP, ("4D",), place=1)
    assert "never part of a hand" in words and len(re.findall(r"\bTR1\b", words)) == 1


def test_TR2_the_hint_at_a_cold_wall_says_when_nobody_may_call_and_the_leagues_says_nothing_of_it() -> None:
    cold = call_scene(TableRules(wall_end="cold"), before_cold=5)
    west = cold.waiting()
    assert "West" in west
    _, words = hint(cold, "West")
    assert "after 5 more tiles from the wall, nobody may call a discard" in words
    assert len(re.findall(r"\bTR2\b", words)) == 1
    _, league_words = hint(call_scene(LEAGUE, before_cold=5), "West")
    assert "TR2" not in league_words and "cold" not in league_words
