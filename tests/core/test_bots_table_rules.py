"""The computer players, the coach's evaluation and the review under the table
rules (docs/table-rules.md): every strength plays legally under each switch,
keeps its blanks in the Charleston, swaps a blank only for a tile that brings
its hand nearer, speaks in the stated order (TR6), and the review grades a
blank swap and replays a hand under the rules it was played by."""

from __future__ import annotations

import random

import pytest

from coach.advice.passes import evaluate_pass, pass_grade, question_options
from coach.notation import tiles
from coach.play.bots import STRENGTHS, answer, decide, next_to_act, play
from coach.play.evaluation import evaluate, position_seed
from coach.play.hand import BLANK_SWAP, SEATS, Action, Exposed, Hand, HandError, deal
from coach.play.legal import is_legal
from coach.play.positions import position_at, rebuild
from coach.play.review import BEST, GOOD, INACCURACY, MISTAKE, grade_decision, review
from coach.rules.table_rules import LEAGUE, TableRules
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, codes, courtesy_hand, in_play, pass_naturals

BLANKS = TableRules(blanks=4)


def on_floor(hand: Hand, text: str, seat: str = "North") -> None:
    for tile in codes(text):
        hand.wall.remove(tile)
        hand.discards.append((seat, tile))


def swap_scene(floor: str, east: str = "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D BL 7C") -> Hand:
    """East, after a draw, one blank and one tile from KONGS; `floor` is in the discards."""
    hand = in_play(deal(CARD, 1, BLANKS), {"East": east, "South": "7B", "West": "8B", "North": "9B"})
    on_floor(hand, floor)
    return hand


@pytest.mark.parametrize("strength", STRENGTHS)
def test_TR1_every_strength_swaps_a_blank_for_a_tile_that_brings_it_nearer(strength: str) -> None:
    hand = swap_scene("6B 4D 9C")
    action = decide(hand, "East", strength, random.Random(1))
    assert action == Action("East", BLANK_SWAP, ("4D",), place=1)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_TR1_no_strength_swaps_for_a_tile_that_brings_it_no_nearer(strength: str) -> None:
    hand = swap_scene("6B 9C")
    action = decide(hand, "East", strength, random.Random(1))
    assert action.kind == "discard" and is_legal(hand, action)
    assert action.tiles == ("7C",)  # the tile no line needs goes; the blank is kept for a later swap


@pytest.mark.parametrize("strength", STRENGTHS)
def test_TR1_a_blank_is_thrown_when_every_other_tile_would_cost_the_hand(strength: str) -> None:
    hand = swap_scene("6B", east="1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D BL")
    assert decide(hand, "East", strength, random.Random(1)) == Action("East", "discard", ("BL",))


def test_TR1_a_swap_that_completes_the_hand_is_the_coachs_move_and_its_miss_a_mistake() -> None:
    hand = swap_scene("6B 4D", east="1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D BL")
    best = evaluate(hand, "East").best
    assert best.action == Action("East", BLANK_SWAP, ("4D",), place=1) and best.wins_now
    judged = grade_decision(hand, Action("East", "discard", ("BL",)))
    assert judged.grade == MISTAKE and judged.missed_win and judged.rules == ("TR1", "P3")
    assert "swap a blank for the 4 Dot" in judged.reason


@pytest.mark.parametrize("strength", ("beginner", "club"))
def test_TR1_the_simple_strengths_keep_their_blanks_in_the_charleston(strength: str) -> None:
    rules = TableRules(blanks=8)
    seed = next(s for s in range(200) if deal(HOUSE, s, rules).racks["South"].count(tiles.BLANK) >= 2)
    hand = deal(HOUSE, seed, rules)
    action = decide(hand, "South", strength, random.Random(seed))
    assert action.kind == "pass" and "BL" not in action.tiles and is_legal(hand, action)


def test_TR1_the_coach_passes_as_the_first_pass_drill_a_blank_only_when_keeping_it_costs() -> None:
    rules = TableRules(blanks=8)
    for seed in range(200):
        hand = deal(HOUSE, seed, rules)
        if hand.racks["South"].count(tiles.BLANK) < 2:
            continue
        evaluation = evaluate(hand, "South")
        advice = evaluation.advice
        assert advice is not None and advice.rules == rules and tiles.BLANK in advice.rack  # it reads the blanks
        # The first-pass drill's evaluation of the same rack, at the same table, with its effort.
        drill = evaluate_pass(HOUSE, hand.racks["South"], "first-right", seed=position_seed(hand), options=question_options(), rules=rules)
        assert advice.best.tiles == drill.best.tiles
        action = decide(hand, "South", "coach", random.Random(seed))
        assert action == evaluation.best.action and is_legal(hand, action)
        if "BL" in action.tiles:  # a blank goes only when no pass keeping every blank is as good
            keeping = [o for o in advice.options if tiles.BLANK not in o.tiles]
            assert all(pass_grade(o) not in ("best", "as good") for o in keeping)
            return
        assert "BL" not in action.tiles
    # Every rack kept its blanks: still the drill's own pass each time (asserted above).


def test_TR1_a_pass_that_sends_a_blank_is_graded_by_the_pass_evaluation_and_says_so() -> None:
    rules = TableRules(blanks=8)
    seed = next(s for s in range(200) if tiles.BLANK in deal(HOUSE, s, rules).racks["East"])
    hand = deal(HOUSE, seed, rules)
    others = [tiles.CODES[t] for t in hand.racks["East"] if t not in (tiles.JOKER, tiles.BLANK)][:2]
    mine = Action("East", "pass", tuple(sorted(("BL", *others), key=tiles.sort_key)))
    assert is_legal(hand, mine)
    judged = grade_decision(hand, mine)
    assert judged.unit == "tiles" and judged.grade in (BEST, GOOD, INACCURACY, MISTAKE)
    assert judged.rules == ("C1", "TR1") and judged.reason.count("TR1") == 1 and "blank" in judged.reason
    # The review of a hand where East passes a blank grades that pass too.
    found = review(HOUSE, seed, [mine, *(decide(hand, s, "club", random.Random(1)) for s in ("South", "West", "North"))], "East", rules=rules)
    assert [d.kind for d in found.decisions] == ["pass"] and found.decisions[0].grade == judged.grade


def test_TR1_the_review_grades_every_blank_swap_of_a_hand() -> None:
    rules = TableRules(blanks=8)
    for seed in range(60):
        hand = play(CARD, seed, {"East": "club", "South": "beginner", "West": "club", "North": "beginner"}, rules=rules)
        if any(a.seat == "East" and a.kind == BLANK_SWAP for a in hand.actions):
            break
    else:
        raise AssertionError("no hand of 60 had a blank swap by East")
    found = review(CARD, seed, hand.actions, "East", rules=rules)
    swaps = [d for d in found.decisions if d.kind == BLANK_SWAP]
    assert swaps and all(d.rules == ("TR1",) and d.name == "Blank swap" and d.reason for d in swaps)
    # A replayed position of that hand is rebuilt under the same rules.
    number = swaps[0].number
    position = position_at(seed, list(hand.actions), number, "East", rules)
    assert rebuild(CARD, position).waiting() == {"East": "turn"}


def test_TR2_a_hand_played_at_a_cold_wall_replays_and_is_reviewed_only_under_its_rules() -> None:
    cold = TableRules(wall_end="cold")
    for seed in range(80):
        hand = play(CARD, seed, {s: "club" for s in SEATS}, rules=cold)
        try:
            review(CARD, seed, hand.actions, "East")  # under the League's rules
        except (HandError, ValueError):
            break  # a discard in the last wall was callable by the League's rules: the record no longer replays
    else:
        raise AssertionError("no hand of 80 met a call the cold wall forbade")
    found = review(CARD, seed, hand.actions, "East", rules=cold)
    assert found.decisions and all(d.kind != "call" or d.wall > hand.last_wall for d in found.decisions)


def callers_scene(rules: TableRules) -> Hand:
    """West throws the 2 Bam; East (the learner), South and North may each call it."""
    hand = in_play(deal(CARD, 2, rules), {
        "West": "2B 5C", "East": "F F 2B 2B 9D", "South": "F F J J 9B", "North": "F F 2B J 9C",
    }, turn="West")
    hand.apply(Action("West", "discard", ("2B",)))
    assert set(hand.waiting()) == {"East", "South", "North"}
    return hand


def test_TR6_the_learner_speaks_first_then_the_computer_players_in_seat_order_after_the_discarder() -> None:
    hand = callers_scene(TableRules(first_to_speak=True))
    answer(hand, "East", "club")
    assert len(hand.actions) == 1  # nobody spoke before the learner (East)
    hand.apply(Action("East", "no-call"))
    assert next_to_act(hand, hand.waiting()) == "North"  # then seat order after the discarder, West
    answer(hand, "East", "club")
    assert [a.seat for a in hand.actions[1:4]] == ["East", "North", "South"]
    league = callers_scene(LEAGUE)
    answer(league, "East", "club")
    assert [a.seat for a in league.actions[1:]] == ["South", "North"]  # League: the computer players first, as before
    assert league.waiting() == {"East": "call"}


def test_TR4_TR3_a_hand_of_bots_at_a_three_player_table_never_seats_north() -> None:
    rules = TableRules(players=3, joker_in_courtesy=True)
    hand = play(CARD, 5, {s: "shark" for s in SEATS}, rules=rules)
    assert hand.phase == "over" and all(a.seat != "North" for a in hand.actions)
    assert hand.result is not None and set(hand.result.pays) == {"East", "South", "West"}


def defence_scene(rules: TableRules) -> Hand:
    """Late in the hand, East holds two tiles its KONGS never uses: the 2 Bam, which
    South's exposed pung of 1 Bams plainly wants (PUNGS in Bams), and the 9 Crak."""
    hand = in_play(deal(CARD, 3, rules), {
        "East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 2B 9C", "South": "F F 5B", "West": "7B", "North": "7C",
    })
    hand.exposed["South"] = [Exposed(tiles.INDEX["1B"], 3, 0)]
    for tile in codes("1B 1B 1B"):
        hand.wall.remove(tile)
    while len(hand.wall) > hand.last_wall:
        hand.discards.append(("North", hand.wall.pop()))
    assert hand.census() == hand.full_set()
    return hand


def test_TR2_in_a_cold_walls_last_tiles_the_shark_keeps_no_tile_back_for_defence() -> None:
    league = defence_scene(LEAGUE)
    assert decide(league, "East", "shark", random.Random(1)).tiles == ("9C",)  # D1: the 2 Bam is hot, kept
    cold = defence_scene(TableRules(wall_end="cold"))
    assert cold.in_last_wall
    assert decide(cold, "East", "shark", random.Random(1)).tiles == ("2B",)  # nobody may call it (TR2): first of the two
    # The coach's evaluation agrees: no discard there hands anyone Mah Jongg.
    assert all(o.deal_in == 0 for o in evaluate(cold, "East").options)
    assert any(o.deal_in > 0 for o in evaluate(league, "East").options)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_TR3_every_strength_keeps_its_jokers_in_the_courtesy_pass_the_coach_having_weighed_them(strength: str) -> None:
    hand = courtesy_hand(TableRules(joker_in_courtesy=True), offer=3)
    assert hand.waiting().get("East") == "courtesy" and tiles.JOKER in hand.racks["East"]
    action = decide(hand, "East", strength, random.Random(1))
    assert action.kind == "courtesy" and "J" not in action.tiles and is_legal(hand, action)
    if strength == "coach":  # the joker passes were on its list, and valued
        assert any("J" in o.action.tiles for o in evaluate(hand, "East").options)


def ahead_call_scene(rules: TableRules) -> Hand:
    """East throws a 2 Bam South may pung; the next wall tile, South's draw, is another."""
    hand = in_play(deal(CARD, 2, rules), {"East": "2B 5C", "South": "F F 2B 2B 9D", "West": "7D", "North": "7C"},
                   wall="2B 8D")
    hand.apply(Action("East", "discard", ("2B",)))
    assert hand.waiting() == {"South": "call"}
    return hand


@pytest.mark.parametrize("strength", ["club", "shark"])
def test_TR5_a_player_who_picked_ahead_declines_an_exposure_its_draw_does_as_well(strength: str) -> None:
    league = ahead_call_scene(LEAGUE)
    assert decide(league, "South", strength, random.Random(1)) == Action("South", "call", size=3)
    ahead = ahead_call_scene(TableRules(picking_ahead=True))
    assert ahead.picked_ahead("South") == tiles.INDEX["2B"]
    assert decide(ahead, "South", strength, random.Random(1)) == Action("South", "no-call")  # the draw brings the same tile


@pytest.mark.parametrize("strength", STRENGTHS)
def test_C6_after_three_all_blind_passes_each_strength_passes_legally_and_the_charleston_ends_only_if_all_four_did(
    strength: str,
) -> None:
    rules = TableRules(air_mahjong=True)
    hand = deal(CARD, 8, rules)
    pass_naturals(hand, 2)
    for seat in ("East", "South", "West"):
        hand.apply(Action(seat, "pass", (), blind=3))
    action = decide(hand, "North", strength, random.Random(1))
    assert action.kind == "pass" and is_legal(hand, action)
    hand.apply(action)
    if action.blind == 3:
        assert hand.phase == "play" and hand.waiting() == {"East": "turn"}  # C6: the Charleston ends
    else:
        assert hand.phase == "charleston" and hand.step == "vote"
    assert hand.census() == hand.full_set()


def test_TR4_at_three_the_coach_and_the_shark_pass_by_the_first_pass_drills_evaluation_for_three() -> None:
    rules = TableRules(players=3)
    hand = deal(HOUSE, 6, rules)
    evaluation = evaluate(hand, "East")
    assert evaluation.advice is not None and evaluation.advice.rules == rules
    drill = evaluate_pass(HOUSE, hand.racks["East"], "first-right", seed=position_seed(hand), options=question_options(), rules=rules)
    assert evaluation.best.action.tiles == tuple(sorted((tiles.CODES[t] for t in drill.best.tiles), key=tiles.sort_key))
    for seat in hand.seats:
        hand.apply(decide(hand, seat, "shark", random.Random(seat)))
    assert hand.step == "first-left"  # no across pass at three (TR4)
    assert all(is_legal(hand, decide(hand, s, "coach", random.Random(1))) for s in hand.seats)


def test_TR2_at_a_hot_wall_the_coach_counts_a_hot_throw_at_the_whole_tables_share() -> None:
    def scene(rules: TableRules) -> Hand:
        hand = in_play(deal(CARD, 3, rules), {
            "East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 9C", "South": "F F 5B", "West": "7B", "North": "7C",
        })
        hand.exposed["South"] = [Exposed(tiles.INDEX["1B"], 3, 0)]
        for tile in codes("1B 1B 1B"):
            hand.wall.remove(tile)
        while len(hand.wall) > hand.last_wall:
            hand.discards.append(("North", hand.wall.pop()))
        return hand

    hot, league = scene(TableRules(wall_end="hot")), scene(LEAGUE)
    at_hot = {o.action.tiles: o for o in evaluate(hot, "East").options if o.action.kind == "discard"}
    at_league = {o.action.tiles: o for o in evaluate(league, "East").options if o.action.kind == "discard"}
    risky = [t for t, o in at_league.items() if o.deal_in > 0]
    thrown_hot = [t for t in risky if hot.throw_is_hot("East", tiles.INDEX[t[0]])]
    assert thrown_hot and not any(league.throw_is_hot("East", tiles.INDEX[t[0]]) for t in risky)
    for t in risky:  # the same chance of dealing in; a dearer loss when it does, if thrown hot (TR2)
        assert at_hot[t].deal_in == at_league[t].deal_in
        assert (at_hot[t].value < at_league[t].value) == (t in thrown_hot)
