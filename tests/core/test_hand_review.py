"""The review of a played hand (issue 24): every decision of one player
graded against the coach's one evaluation, in points of expected payment
for play and in tiles for the Charleston, with the thresholds the module
states; `python -m coach review` prints it."""

from __future__ import annotations

import io
import json

import pytest

from coach.cli import main
from coach.notation import tiles
from coach.play.bots import play
from coach.play.evaluation import evaluate
from coach.play.hand import SEATS, Action, Exposed, deal
from coach.play.review import BEST, GOOD, INACCURACY, MISTAKE, grade_decision, review
from coach.reading.tiles_away import Holding
from coach.rules.mahjong import score
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, codes, in_play


def test_a_coach_players_every_decision_is_graded_best():
    hand = play(HOUSE, 3, {"East": "coach", "South": "shark", "West": "club", "North": "shark"})
    found = review(HOUSE, 3, hand.actions, "East")
    assert len(found.decisions) == sum(1 for a in hand.actions if a.seat == "East")
    assert found.decisions and all(d.grade == BEST and d.cost == 0 and d.played == d.coach for d in found.decisions)


def test_E1_holding_a_winning_hand_and_discarding_is_a_mistake_that_says_so():
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D"})
    judged = grade_decision(hand, Action("East", "discard", ("4D",)))
    assert judged.grade == MISTAKE and judged.missed_win and judged.rules == ("E1",)
    assert judged.coach == Action("East", "mahjong") and judged.reason.startswith("You had Mah Jongg")


def test_K3_letting_the_winning_discard_go_is_a_missed_mah_jongg():
    hand = in_play(deal(CARD, 1), {"East": "4D 9C", "South": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D"})
    hand.apply(Action("East", "discard", ("4D",)))
    judged = grade_decision(hand, Action("South", "no-call"))
    assert judged.grade == MISTAKE and judged.missed_win and judged.rules == ("K3",)
    assert judged.coach == Action("South", "call") and "4 Dot" in judged.reason


def test_J4_P6_a_mah_jongg_through_a_joker_exchange_is_never_missed():
    # East's 5 Crak buys West's joker, and the joker finishes the kong of 3 Dots.
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 4D 4D 5C", "West": "9B 9B"})
    hand.exposed["West"] = [Exposed(tiles.INDEX["5C"], 3, 1)]
    for tile in codes("5C 5C J"):
        hand.wall.remove(tile)
    judged = grade_decision(hand, Action("East", "discard", ("5C",)))
    assert judged.grade == MISTAKE and judged.missed_win and judged.rules == ("J4", "P6")
    assert judged.coach == Action("East", "exchange", ("5C",), owner="West", group=0)
    assert "5 Crak for West's joker" in judged.reason
    # P6: a win by a joker from another's exposure pays as self-picked, and is valued so.
    won = Holding.of(codes("1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D J 4D 4D"))
    assert evaluate(hand, "East").best.value == score(CARD, won, "exchange").total == score(CARD, won, "self").total


def test_E3_a_dead_line_counts_for_nothing():
    # PUNGS (FF 111 222 333 444) is one Flower away; KONGS three tiles away.
    rack = "F 1D 1D 1D 2D 2D 2D 3D 3D 3D 4D 4D 4D 1C"
    alive = in_play(deal(CARD, 1), {"East": rack})
    dead = in_play(deal(CARD, 1), {"East": rack})
    flowers = [t for t in dead.wall if t == tiles.INDEX["F"]][:7]
    for tile in flowers:  # every other Flower is on the floor: PUNGS can never be made
        dead.wall.remove(tile)
        dead.discards.append(("West", tile))
    assert evaluate(alive, "East").best.line == "PUNGS" and evaluate(alive, "East").best.distance == 1
    best = evaluate(dead, "East").best
    assert best.line == "KONGS" and best.distance == 3
    # Keeping the Flower for the dead line is worth nothing over throwing it.
    flower = evaluate(dead, "East").find(Action("East", "discard", ("F",)))
    assert flower is not None and flower.value >= best.value - 0.5


def test_D1_a_hot_tile_thrown_late_is_graded_below_a_safe_one_as_near():
    # West shows kongs of 1, 2 and 3 Dot: KONGS is all they can hold, and it needs the 4 Dot.
    hand = in_play(
        deal(CARD, 1),
        {"East": "4D 5B 5B 5B 6B 6B 6B 7B 7B 7B 9C N N E", "West": "4D 9B 9B 9B"},
    )
    hand.exposed["West"] = [Exposed(tiles.INDEX[c], 4, 0) for c in ("1D", "2D", "3D")]
    for tile in codes("1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D"):
        hand.wall.remove(tile)
    del hand.wall[16:]  # late in the hand
    safe = Action("East", "discard", ("9C",))
    hot = grade_decision(hand, Action("East", "discard", ("4D",)))
    assert hot.grade in (INACCURACY, MISTAKE) and "West" in hot.reason and "Mah Jongg" in hot.reason
    assert grade_decision(hand, safe).grade in (BEST, GOOD)


def test_S4_a_discard_that_costs_a_tile_is_graded_in_points():
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 9C"})
    coach = grade_decision(hand, Action("East", "discard", ("9C",)))
    assert (coach.grade, coach.cost) == (BEST, 0)
    worse = grade_decision(hand, Action("East", "discard", ("1D",)))
    assert worse.grade in (INACCURACY, MISTAKE) and worse.cost > 0 and worse.unit == "points"
    assert "1 tile away" in coach.reason and "2 tiles away" in worse.reason and "points of expected payment" in worse.reason


def test_C1_a_pass_that_breaks_the_hand_is_a_mistake_in_tiles():
    hand = deal(CARD, 1)
    hand.racks["East"] = codes("1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 9C 8C 7C")
    kept = grade_decision(hand, Action("East", "pass", ("7C", "8C", "9C")))
    assert (kept.grade, kept.unit) == (BEST, "tiles")
    broken = grade_decision(hand, Action("East", "pass", ("1D", "2D", "3D")))
    assert broken.grade == MISTAKE and broken.rules == ("C1",) and broken.cost > 1
    assert "tiles away on average" in broken.reason


def test_review_summary_has_accuracy_and_the_three_costliest():
    hand = play(HOUSE, 3, {"East": "club", "South": "beginner", "West": "shark", "North": "beginner"})
    found = review(HOUSE, 3, hand.actions, "South")
    assert 0 <= found.accuracy <= 1
    worst = found.costliest()
    assert len(worst) <= 3 and all(d.grade in (INACCURACY, MISTAKE) for d in worst)
    data = found.to_json()
    assert data["winner"] == (hand.result.winner if hand.result else None)
    assert data["costliest"] == [d.number for d in worst]
    assert all(d["unit"] in ("points", "tiles") for d in data["decisions"])


def test_review_reports_its_progress():
    hand = play(HOUSE, 4, {s: "club" for s in SEATS})
    seen: list[tuple[int, int]] = []
    found = review(HOUSE, 4, hand.actions, "East", progress=lambda done, total: seen.append((done, total)))
    assert seen == [(n + 1, len(found.decisions)) for n in range(len(found.decisions))]


def test_review_command_prints_the_review_and_refuses_a_bad_record(tmp_path):
    out = io.StringIO()
    assert main(["play", "--seed", "3", "--bots", "club,beginner,shark,beginner", "--compact"], stdout=out) == 0
    path = tmp_path / "hand.json"
    path.write_text(out.getvalue())
    shown = io.StringIO()
    assert main(["review", str(path), "--seat", "South"], stdout=shown) == 0
    assert shown.getvalue().startswith("Review of South's decisions:") and "Every decision:" in shown.getvalue()
    as_json = io.StringIO()
    assert main(["review", str(path), "--seat", "South", "--json"], stdout=as_json) == 0
    assert json.loads(as_json.getvalue())["seat"] == "South"
    broken = tmp_path / "broken.json"
    record = json.loads(out.getvalue())
    record["actions"][0]["tiles"] = ["J", "J", "J"]
    broken.write_text(json.dumps(record))
    assert main(["review", str(broken)], stdout=io.StringIO()) == 2
    (tmp_path / "junk.json").write_text("not json")
    assert main(["review", str(tmp_path / "junk.json")], stdout=io.StringIO()) == 2


def _to_step(seed: int, step: str):
    """A hand of the house card moved on to `step` of the Charleston, every seat passing its first three tiles."""
    hand = deal(HOUSE, seed)
    while hand.step != step:
        owed = hand.waiting()
        for seat in SEATS:
            if owed.get(seat) == "pass":
                own = [t for t in hand.racks[seat] if t != tiles.JOKER][:3]
                hand.apply(Action(seat, "pass", tuple(tiles.CODES[t] for t in own)))
            elif owed.get(seat) == "vote":
                hand.apply(Action(seat, "vote", go=True))
    return hand


def test_C5_a_blind_pass_is_graded_by_the_pass_evaluation_in_tiles():
    hand = _to_step(5, "first-left")
    own = next(t for t in hand.racks["East"] if t != tiles.JOKER)
    judged = grade_decision(hand, Action("East", "pass", (tiles.CODES[own],), blind=2))
    assert judged.unit == "tiles" and judged.grade in (BEST, GOOD, INACCURACY, MISTAKE)
    assert "send on 2 of the tiles coming to you, unseen" in judged.reason and "tiles away on average" in judged.reason
    coach = evaluate(hand, "East").best.action
    assert grade_decision(hand, coach).grade == BEST


def test_C2_the_stop_vote_is_valued_by_the_pass_it_gives_up():
    hand = _to_step(6, "vote")
    found = evaluate(hand, "East")
    assert found.unit == "tiles" and {o.action.go for o in found.options} == {True, False}
    other = next(o for o in found.options if o is not found.best)
    judged = grade_decision(hand, other.action)
    assert judged.cost == pytest.approx(found.best.value - other.value) and judged.rules == ("C2",)
    assert judged.grade == (GOOD if judged.cost <= 0.1 else INACCURACY if judged.cost <= 0.35 else MISTAKE)


def test_K2_a_call_is_valued_by_the_holding_it_leaves():
    # South holds KONGS but for a 1 Dot and two 4 Dots. A kong of the called 1 Dot brings it
    # nearer; a pung of it fits only PUNGS, five tiles away: the call gives up the hand.
    hand = in_play(deal(CARD, 2), {"East": "1D 5C", "South": "1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 9B 9C"})
    hand.apply(Action("East", "discard", ("1D",)))
    assert {("expose", 3), ("expose", 4)} <= set(hand.may_call["South"])
    assert evaluate(hand, "South").best.action == Action("South", "call", size=4)
    pung = grade_decision(hand, Action("South", "call", size=3))
    assert pung.grade == MISTAKE and pung.rules == ("K2",) and "5 tiles away" in pung.reason and "2 tiles away" in pung.reason
    assert grade_decision(hand, Action("South", "no-call")).grade in (GOOD, INACCURACY)


def test_J4_a_call_that_exposes_a_joker_and_brings_the_hand_no_nearer_is_not_good():
    # South's two jokers already finish the kong of 1 Dots; calling the 1 Dot for it only puts a joker
    # on the table for others to take (J4), and the pair of 4 Dots is as far as before.
    hand = in_play(deal(CARD, 2), {"East": "1D 5C", "South": "J J 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 9B"})
    del hand.wall[30:]
    hand.apply(Action("East", "discard", ("1D",)))
    kong = grade_decision(hand, Action("South", "call", size=4))
    assert kong.grade in (INACCURACY, MISTAKE) and kong.coach == Action("South", "no-call")
    assert "2 tiles away" in kong.reason


def test_K3_an_exposure_that_uses_the_last_tiles_of_the_rack_is_valued_as_the_win_it_makes():
    # Seed 24500292: a coach player holds two jokers and three exposures; a pung of the thrown
    # tile with both jokers leaves nothing to throw, and the hand is complete (found by self-play).
    bots = dict(zip(SEATS, ("beginner", "coach", "beginner", "coach")))
    seen = []

    def watch(hand, action, spent):
        for seat in hand.may_call:
            if bots[seat] == "coach" and set(hand.racks[seat]) == {tiles.JOKER}:
                seen.append((seat, evaluate(hand, seat)))

    hand = play(HOUSE, 24500292, bots, watch=watch)
    assert hand.phase == "over"
    assert seen, "the scene no longer arises on this seed"
    seat, found = seen[-1]
    options = {o.action: o for o in found.options}
    exposed = next(o for a, o in options.items() if a.kind == "call" and a.size)
    assert exposed.wins_now and exposed.value == options[Action(seat, "call")].value


def test_K3_the_coach_takes_every_mah_jongg_it_is_offered():
    # Seed 20063: East (the coach) is offered a win on a discard with a bigger hand one tile away;
    # a win in hand is taken, whatever the model makes of holding out (E1, K3).
    bots = dict(zip(SEATS, ("coach", "beginner", "club", "shark")))
    offered = []

    def watch(hand, action, spent):
        for seat, purposes in hand.may_call.items():
            if bots[seat] == "coach" and ("mahjong", 0) in purposes and seat not in hand.answers:
                offered.append(evaluate(hand, seat).best.action)

    hand = play(HOUSE, 20063, bots, watch=watch)
    assert offered and all(a.kind == "call" and not a.size for a in offered)
    assert hand.result is not None and hand.result.winner is not None
