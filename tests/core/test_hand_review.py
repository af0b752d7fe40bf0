"""The review of a played hand (issue 16, part 4): every decision of one
player graded against the coach's, in tiles away, with the thresholds the
module states; `python -m coach review` prints it."""

from __future__ import annotations

import io
import json

from coach.cli import main
from coach.notation import tiles
from coach.play.bots import play
from coach.play.hand import SEATS, Action, deal
from coach.play.review import BEST, INACCURACY, MISSED_WIN, MISTAKE, _measure, _nearest, _words, grade_decision, review
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, in_play


def test_a_club_players_discards_are_the_coachs_own():
    hand = play(HOUSE, 3, {s: "club" for s in SEATS})
    found = review(HOUSE, 3, hand.actions, "East")
    discards = [d for d in found.decisions if d.kind == "discard"]
    assert discards and all(d.grade == BEST and d.cost == 0 for d in discards)
    assert len(found.decisions) == sum(1 for a in hand.actions if a.seat == "East")


def test_E1_holding_a_winning_hand_and_discarding_is_a_mistake():
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 4D"})
    grade, cost, reason, rules = grade_decision(hand, Action("East", "discard", ("4D",)), Action("East", "mahjong"))
    assert (grade, cost) == (MISTAKE, MISSED_WIN) and "E1" in rules and "wins it" in reason


def test_S4_a_discard_is_graded_by_the_tiles_away_it_costs():
    # East holds KONGS but for one 4 Dot; throwing a 1 Dot costs a tile, the 9 Crak nothing.
    hand = in_play(deal(CARD, 1), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 9C"})
    coach = Action("East", "discard", ("9C",))
    assert grade_decision(hand, coach, coach)[:2] == (BEST, 0)
    grade, cost, reason, _ = grade_decision(hand, Action("East", "discard", ("1D",)), coach)
    assert (grade, cost) == (INACCURACY, 1) and "1 tiles away" not in reason and "2 tiles away" in reason


def test_C1_a_pass_that_breaks_the_hand_is_a_mistake():
    hand = deal(CARD, 1)
    hand.racks["East"] = [tiles.INDEX[c] for c in "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 9C 8C 7C".split()]
    coach = Action("East", "pass", ("9C", "8C", "7C"))
    assert grade_decision(hand, coach, coach)[:2] == (BEST, 0)
    grade, cost, reason, rules = grade_decision(hand, Action("East", "pass", ("1D", "2D", "3D")), coach)
    assert (grade, cost, rules) == (MISTAKE, 3, ("C1",))
    assert "leaves you 6 tiles away" in reason and "3 away" in reason


def test_K2_a_missed_call_that_would_have_brought_the_hand_nearer_is_graded():
    hand = in_play(deal(CARD, 2), {"East": "2B 5C", "South": "F F 1B 1B 1B 2B 2B 3B 3B 4B 4B 4B 9C"})
    hand.apply(Action("East", "discard", ("2B",)))
    coach = Action("South", "call", size=3)
    assert ("expose", 3) in hand.may_call["South"]
    grade, cost, reason, rules = grade_decision(hand, Action("South", "no-call"), coach)
    assert (grade, cost, rules) == (INACCURACY, 1, ("K2",))
    assert "leaves you 2 tiles away" in reason and "call the 2 Bam for a group of 3: 1 away" in reason


def test_review_summary_has_accuracy_and_the_three_costliest():
    hand = play(HOUSE, 3, {"East": "club", "South": "beginner", "West": "shark", "North": "beginner"})
    found = review(HOUSE, 3, hand.actions, "South")
    assert 0 <= found.accuracy <= 1
    worst = found.costliest()
    assert len(worst) <= 3 and all(d.cost > 0 for d in worst)
    assert [d.cost for d in worst] == sorted((d.cost for d in worst), reverse=True)
    data = found.to_json()
    assert data["winner"] == (hand.result.winner if hand.result else None)
    assert data["costliest"] == [d.number for d in worst]


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


def test_C5_a_blind_pass_is_measured_on_the_rack_less_its_own_tiles():
    # The tiles sent on unseen never enter the rack, so only the own tiles leave it.
    hand = deal(HOUSE, 5)
    while hand.step != "first-left":
        for seat in SEATS:
            hand.apply(Action(seat, "pass", tuple(tiles.CODES[t] for t in [t for t in hand.racks[seat] if t != tiles.JOKER][:3])))
    own = next(t for t in hand.racks["East"] if t != tiles.JOKER)
    played = Action("East", "pass", (tiles.CODES[own],), blind=2)
    kept = list(hand.racks["East"])
    kept.remove(own)
    assert _measure(hand, played) == _nearest(HOUSE, kept, ())
    assert _measure(hand, Action("East", "pass", blind=3)) == _nearest(HOUSE, hand.racks["East"], ())
    assert _words(played, hand) == f"pass {tiles.name(own)} and send on 2 of the tiles coming to you, unseen"
    assert _words(Action("East", "pass", blind=3), hand) == "send on all three tiles coming to you, unseen"
