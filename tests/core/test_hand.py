"""The hand engine (issue 16, part 1): deal, Charleston, play, calls,
Mah Jongg and payment, replayed exactly from seed and actions, with all
152 tiles accounted for in every state. Each test names the rule it holds."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.cli import main
from coach.notation import tiles
from coach.play.bots import decide, play
from coach.play.hand import SEATS, Action, Exposed, Hand, HandError, deal, replay
from coach.rules.mahjong import winning_lines
from tests.support.cards import CARD as HOUSE
from tests.support.examples import examples
from tests.support.hands import CARD, FULL_SET, in_play

# -- the deal (S1-S3) ----------------------------------------------------------------------


def test_S3_the_deal_gives_east_14_tiles_and_the_others_13():
    hand = deal(HOUSE, 7)
    assert [len(hand.racks[s]) for s in SEATS] == [14, 13, 13, 13]
    assert len(hand.wall) == 152 - 53
    assert hand.census() == FULL_SET
    assert all(1 <= d <= 6 for d in hand.dice)


def test_S2_the_same_seed_deals_the_same_hand_and_another_seed_another():
    assert deal(HOUSE, 3).racks == deal(HOUSE, 3).racks and deal(HOUSE, 3).wall == deal(HOUSE, 3).wall
    assert deal(HOUSE, 3).racks != deal(HOUSE, 4).racks


# -- the Charleston (C1-C5) ----------------------------------------------------------------


def plain_pass(hand: Hand, seat: str, count: int = 3) -> Action:
    chosen = [t for t in hand.racks[seat] if t != tiles.JOKER][:count]
    return Action(seat, "pass", tuple(tiles.CODES[t] for t in chosen))


def test_C1_the_first_charleston_passes_right_then_across_then_left():
    hand = deal(HOUSE, 11)
    for direction, steps in (("right", 1), ("across", 2), ("left", 3)):
        assert hand.step == f"first-{direction}" and set(hand.waiting().values()) == {"pass"}
        sent = {seat: plain_pass(hand, seat) for seat in SEATS}
        for seat in SEATS:
            hand.apply(sent[seat])
        for seat in SEATS:
            giver = SEATS[(SEATS.index(seat) - steps) % 4]
            assert [tiles.CODES[t] for t in hand.received[seat]] == list(sent[giver].tiles)
        assert hand.census() == FULL_SET
    assert hand.step == "vote"


def test_C1_three_tiles_move_and_only_tiles_you_hold():
    hand = deal(HOUSE, 11)
    two = plain_pass(hand, "East", 2)
    with pytest.raises(HandError) as error:
        hand.apply(two)
    assert error.value.rule == "C1"
    missing = next(c for c in tiles.CODES if c != "J" and tiles.INDEX[c] not in hand.racks["East"])
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", (missing, missing, missing)))
    assert error.value.rule == "C1" and "does not hold" in error.value.message
    assert f"does not hold {tiles.plural(missing, 3)}" in error.value.message  # "three 2 Bams", never "3 2 Bam"


def test_C4_jokers_are_never_passed():
    seed = next(s for s in range(200) if tiles.JOKER in deal(HOUSE, s).racks["East"])
    hand = deal(HOUSE, seed)
    others = [tiles.CODES[t] for t in hand.racks["East"] if t != tiles.JOKER][:2]
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", ("J", *others)))
    assert error.value.rule == "C4"


def test_C5_a_blind_pass_only_on_the_last_pass_and_the_forwarded_tiles_never_enter_the_rack():
    # More cases, the chains and the all-blind end (C6): tests/core/test_hand_blind_pass.py.
    hand = deal(HOUSE, 5)
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "pass", plain_pass(hand, "East", 2).tiles, blind=1))
    assert error.value.rule == "C5"
    for _ in range(2):  # right, across
        for seat in SEATS:
            hand.apply(plain_pass(hand, seat))
    assert hand.step == "first-left"
    mine = plain_pass(hand, "East", 1)
    hand.apply(Action("East", "pass", mine.tiles, blind=2))
    sent = {seat: plain_pass(hand, seat) for seat in SEATS[1:]}
    for action in sent.values():
        hand.apply(action)
    south = [tiles.INDEX[c] for c in sent["South"].tiles]  # South passes left, to East
    assert hand.received["East"] == south[2:]  # the first two went on unseen
    assert hand.received["North"] == [tiles.INDEX[mine.tiles[0]]] + south[:2]  # East passes left, to North
    assert hand.census() == FULL_SET


def finish_first_charleston(hand: Hand) -> None:
    for _ in range(3):
        for seat in SEATS:
            hand.apply(plain_pass(hand, seat))


def test_C2_any_one_player_stops_the_second_charleston():
    hand = deal(HOUSE, 21)
    finish_first_charleston(hand)
    for seat in SEATS:
        hand.apply(Action(seat, "vote", go=seat != "West"))
    assert hand.step == "offer"  # straight to the courtesy pass
    hand = deal(HOUSE, 21)
    finish_first_charleston(hand)
    for seat in SEATS:
        hand.apply(Action(seat, "vote", go=True))
    assert hand.step == "second-left"


def test_C3_in_the_courtesy_pass_the_smaller_offer_moves():
    hand = deal(HOUSE, 21)
    finish_first_charleston(hand)
    for seat in SEATS:
        hand.apply(Action(seat, "vote", go=False))
    for seat, count in zip(SEATS, (3, 0, 1, 2)):
        hand.apply(Action(seat, "offer", count=count))
    assert hand.courtesy == {"East": 1, "West": 1, "South": 0, "North": 0}
    assert hand.waiting() == {"East": "courtesy", "West": "courtesy"}
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "courtesy", tuple(plain_pass(hand, "East").tiles)))
    assert error.value.rule == "C3"
    east_tile = plain_pass(hand, "East", 1).tiles
    west_tile = plain_pass(hand, "West", 1).tiles
    hand.apply(Action("East", "courtesy", east_tile))
    hand.apply(Action("West", "courtesy", west_tile))
    assert hand.phase == "play" and hand.waiting() == {"East": "turn"}
    assert hand.census() == FULL_SET


def test_S4_east_discards_first_without_drawing():
    hand = deal(HOUSE, 21)
    finish_first_charleston(hand)
    for seat in SEATS:
        hand.apply(Action(seat, "vote", go=False))
    wall = len(hand.wall)
    for seat in SEATS:
        hand.apply(Action(seat, "offer", count=0))
    assert hand.waiting() == {"East": "turn"} and len(hand.racks["East"]) == 14 and len(hand.wall) == wall
    with pytest.raises(HandError) as error:
        hand.apply(Action("South", "discard", (tiles.CODES[hand.racks["South"][0]],)))
    assert error.value.rule == "S4"


# -- calls (K1-K7, J3) -------------------------------------------------------------------------


def test_K4_mah_jongg_beats_an_exposure_even_from_a_later_seat():
    hand = in_play(deal(CARD, 1), {
        "East": "4D 5C",
        "South": "F F 4D 4D 7B 7C 8B",  # nearer the discarder, calls for a pung of 4 Dots (PUNGS)
        "West": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D",  # waits on the 4 Dot for KONGS
        "North": "F F 5D 6D 7D",
    })
    hand.apply(Action("East", "discard", ("4D",)))
    assert ("expose", 3) in hand.may_call["South"] and ("mahjong", 0) in hand.may_call["West"]
    hand.apply(Action("South", "call", size=3))
    for seat in hand.callers():
        if seat != "South":
            hand.apply(Action(seat, "call") if seat == "West" else Action(seat, "no-call"))
    assert hand.phase == "over" and hand.result.winner == "West" and hand.result.how == "discard"
    value = CARD.line("KONGS").value * 2  # jokerless (P4)
    assert hand.result.pays == {"East": -2 * value, "South": -value, "North": -value, "West": 4 * value}  # P2
    assert hand.census() == FULL_SET


def test_K4_between_two_exposures_the_seat_nearest_after_the_discarder_wins():
    hand = in_play(deal(CARD, 2), {
        "East": "2B 5C",
        "South": "F F 2B J 9C",
        "West": "F F 2B 2B 9D",
        "North": "7D",
    })
    hand.apply(Action("East", "discard", ("2B",)))
    assert set(hand.callers()) == {"South", "West"}
    hand.apply(Action("West", "call", size=3))
    hand.apply(Action("South", "call", size=3))
    assert [(e.tile, e.size) for e in hand.exposed["South"]] == [(tiles.INDEX["2B"], 3)] and not hand.exposed["West"]
    # K5: the call replaces the draw; South discards next, nobody drew.
    assert hand.waiting() == {"South": "turn"} and hand.acquired == "call" and len(hand.racks["South"]) == 3
    assert hand.exposed["South"][0].jokers == 1  # the one natural held, and the joker (K2, J1)
    assert hand.census() == FULL_SET


def test_K2_an_exposure_must_be_one_an_open_line_allows_with_tiles_already_held():
    hand = in_play(deal(CARD, 3), {"East": "2B 5C", "South": "F F 2B 2B 9C", "West": "3C", "North": "7D"})
    hand.apply(Action("East", "discard", ("2B",)))
    assert hand.may_call["South"] == [("expose", 3)]  # two held: a pung, not a kong
    with pytest.raises(HandError) as error:
        hand.apply(Action("South", "call", size=4))
    assert error.value.rule == "K2"
    with pytest.raises(HandError) as error:
        hand.apply(Action("South", "call"))  # for Mah Jongg: it does not finish the hand
    assert error.value.rule == "K3"


def test_K7_H4_a_concealed_line_is_called_only_for_mah_jongg_and_may_win_on_a_discard():
    waiting = "N E E W W S S 1D 1D 2D 2D 3D 3D"  # WINDS-C (concealed) but for a North Wind
    hand = in_play(deal(CARD, 4), {"East": "E 5C", "North": waiting})
    hand.apply(Action("East", "discard", ("E",)))
    assert "North" not in hand.may_call  # a pung of East Winds fits no open line: no exposure (K7, K2)
    hand = in_play(deal(CARD, 4), {"East": "N 5C", "North": waiting})
    hand.apply(Action("East", "discard", ("N",)))
    assert hand.may_call["North"] == [("mahjong", 0)]  # only for Mah Jongg (K3, K7)
    hand.apply(Action("North", "call"))
    assert hand.result.winner == "North" and hand.result.payment.line.id == "WINDS-C"  # H4: a discard may win it


def test_J3_a_discarded_joker_is_never_called():
    hand = in_play(deal(CARD, 5), {"East": "J 5C", "South": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 4D 4D"})
    before = len(hand.wall)
    hand.apply(Action("East", "discard", ("J",)))
    assert hand.callers() == [] and hand.waiting() == {"South": "turn"} and len(hand.wall) == before - 1


def test_K1_only_the_latest_discard_is_called_and_only_by_a_seat_that_may():
    hand = in_play(deal(CARD, 6), {"East": "5C 6C", "South": "7D"})
    with pytest.raises(HandError) as error:
        hand.apply(Action("South", "call", size=3))
    assert error.value.rule == "S4"
    hand.apply(Action("East", "discard", ("5C",)))  # nobody can use it: South draws at once
    assert hand.waiting() == {"South": "turn"}
    with pytest.raises(HandError) as error:
        hand.apply(Action("West", "call", size=3))
    assert error.value.rule == "S4"


# -- Mah Jongg, jokers, payment, the wall game ---------------------------------------------------


def test_H1_a_false_mah_jongg_is_refused():
    hand = in_play(deal(CARD, 7), {"East": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 5D"})
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "mahjong"))
    assert error.value.rule == "H1" and hand.phase == "play"


def test_P3_a_self_picked_win_is_paid_double_by_all_three():
    hand = in_play(deal(CARD, 8), {"East": "5C", "South": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D"}, wall="4D")
    hand.apply(Action("East", "discard", ("5C",)))
    assert hand.waiting() == {"South": "turn"}  # drew the 4 Dot
    hand.apply(Action("South", "mahjong"))
    value = CARD.line("KONGS").value * 2  # jokerless (P4)
    assert hand.result.how == "self" and hand.result.pays == {"South": 6 * value, "East": -2 * value, "West": -2 * value, "North": -2 * value}


def test_J4_P6_a_joker_exchange_from_another_exposure_and_the_win_it_makes_pays_as_self_picked():
    hand = in_play(deal(CARD, 9), {"East": "5C", "South": "1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D 9C", "West": "7C"}, wall="4D")
    hand.exposed["West"] = [Exposed(tiles.INDEX["9C"], 3, 1)]  # 9 Crak, 9 Crak, joker on the table
    hand.wall.remove(tiles.INDEX["9C"])
    hand.wall.remove(tiles.INDEX["9C"])
    hand.wall.remove(tiles.JOKER)
    assert hand.census() == FULL_SET
    hand.apply(Action("East", "discard", ("5C",)))
    assert hand.waiting() == {"South": "turn"}  # South drew the 4 Dot
    assert hand.exchanges("South") == [("West", 0, tiles.INDEX["9C"])]
    with pytest.raises(HandError) as error:
        hand.apply(Action("South", "exchange", ("2D",), owner="West", group=0))
    assert error.value.rule == "J4"  # the exact tile the joker stands for
    hand.apply(Action("South", "exchange", ("9C",), owner="West", group=0))
    assert (hand.exposed["West"][0].jokers, hand.exposed["West"][0].size) == (0, 3)  # J7: same group, no joker
    assert hand.census() == FULL_SET
    hand.apply(Action("South", "mahjong"))  # the joker is the fourth 1 Dot (J1)
    assert hand.result.how == "exchange" and hand.result.payment.discarder is None  # P6: as self-picked
    assert "P6" in hand.result.payment.rules and set(hand.result.pays.values()) == {-50, 150}  # 25 x 2 each (P3)


def test_J4_no_exchange_before_a_tile_is_acquired():
    hand = in_play(deal(CARD, 9), {"East": "9C 5C", "South": "7D"})
    hand.exposed["West"] = [Exposed(tiles.INDEX["9C"], 3, 1)]
    hand.wall.remove(tiles.INDEX["9C"])
    hand.wall.remove(tiles.INDEX["9C"])
    hand.wall.remove(tiles.JOKER)
    hand.acquired = "deal"  # East's first turn: nothing drawn or called
    assert hand.exchanges("East") == []
    with pytest.raises(HandError) as error:
        hand.apply(Action("East", "exchange", ("9C",), owner="West", group=0))
    assert error.value.rule == "J4"


def test_E2_a_wall_game_ends_the_hand_and_nobody_pays():
    hand = in_play(deal(CARD, 10), {"East": "5C 6C"})
    hand.wall = []
    leftover = FULL_SET - hand.census()
    hand.racks["North"] = sorted(leftover.elements())  # every other tile somewhere in play
    hand.apply(Action("East", "discard", ("5C",)))
    # North holds nearly the whole set and may call: let it pass.
    for seat in hand.callers():
        hand.apply(Action(seat, "no-call"))
    assert hand.phase == "over" and hand.result.winner is None and hand.result.how == "wall"
    assert set(hand.result.pays.values()) == {0}


# -- replay and the 152 tiles ------------------------------------------------------------------


def random_action(hand: Hand, seat: str, rng: random.Random) -> Action:
    """Any legal move, picked at random: the property test's player."""
    owed = hand.waiting()[seat]
    rack = hand.racks[seat]
    naturals = [t for t in rack if t != tiles.JOKER]
    if owed == "pass":
        blind = rng.randint(0, 3) if hand.step in ("first-left", "second-right") else 0
        picked = rng.sample(naturals, 3 - blind)  # own tiles from the whole rack; the rest forwarded unseen (C5)
        return Action(seat, "pass", tuple(tiles.CODES[t] for t in picked), blind=blind)
    if owed == "vote":
        return Action(seat, "vote", go=rng.random() < 0.7)
    if owed == "offer":
        return Action(seat, "offer", count=rng.randint(0, 3))
    if owed == "courtesy":
        return Action(seat, "courtesy", tuple(tiles.CODES[t] for t in rng.sample(naturals, hand.courtesy[seat])))
    if owed == "call":
        purposes = hand.may_call[seat]
        if rng.random() < 0.5:
            return Action(seat, "no-call")
        purpose, size = rng.choice(purposes)
        return Action(seat, "call", size=size)
    if winning_lines(hand.card, hand.holding(seat)) and rng.random() < 0.8:
        return Action(seat, "mahjong")
    swaps = hand.exchanges(seat)
    if swaps and rng.random() < 0.5:
        owner, group, tile = rng.choice(swaps)
        return Action(seat, "exchange", (tiles.CODES[tile],), owner=owner, group=group)
    return Action(seat, "discard", (tiles.CODES[rng.choice(rack)],))


@settings(max_examples=examples(6), suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_T1_every_state_of_random_self_play_holds_all_152_tiles_and_replays_exactly(seed):
    rng = random.Random(seed)
    hand = deal(HOUSE, seed)
    snapshots = []
    while hand.waiting() and len(hand.actions) < 600:
        seat = next(s for s in SEATS if s in hand.waiting())
        hand.apply(random_action(hand, seat, rng))
        assert hand.census() == FULL_SET
        assert sum(len(hand.racks[s]) + sum(e.size for e in hand.exposed[s]) for s in SEATS) + len(hand.discards) + len(hand.wall) == 152
        if len(hand.actions) % 40 == 0:
            snapshots.append((len(hand.actions), {s: sorted(hand.racks[s]) for s in SEATS}, list(hand.discards)))
    for count, racks, floor in snapshots:
        again = replay(HOUSE, seed, hand.actions[:count])
        assert {s: sorted(again.racks[s]) for s in SEATS} == racks and again.discards == floor
    assert replay(HOUSE, seed, hand.actions).record() == hand.record()


def test_a_record_replays_from_json_to_the_same_end():
    hand = play(HOUSE, 2, {s: "club" for s in SEATS})
    record = json.loads(json.dumps(hand.record()))
    again = replay(HOUSE, record["seed"], [Action.from_json(a) for a in record["actions"]])
    assert again.record() == record and again.census() == FULL_SET


def test_an_illegal_action_from_json_is_refused_with_its_rule():
    with pytest.raises(HandError) as error:
        Action.from_json({"seat": "East", "kind": "pass", "tiles": ["XX"]})
    assert error.value.rule == "T1"
    hand = deal(HOUSE, 1)
    with pytest.raises(HandError) as error:
        hand.apply(Action("Nobody", "pass", ("1D", "2D", "3D")))
    assert error.value.rule == "S5"


# -- bots and the command line -------------------------------------------------------------------


@pytest.mark.parametrize("strength", ["beginner", "club", "shark"])
def test_bots_of_each_strength_play_a_hand_to_its_end_with_only_legal_actions(strength):
    hand = play(HOUSE, 3, {s: strength for s in SEATS})
    assert hand.phase == "over" and hand.census() == FULL_SET
    if hand.result.winner is not None:
        assert sum(hand.result.pays.values()) == 0 and hand.result.pays[hand.result.winner] > 0


def test_a_club_bot_takes_a_winning_discard_and_calls_a_pung_that_brings_it_nearer():
    hand = in_play(deal(CARD, 2), {"East": "4D 5C", "West": "1D 1D 1D 1D 2D 2D 2D 2D 3D 3D 3D 3D 4D"})
    hand.apply(Action("East", "discard", ("4D",)))
    assert decide(hand, "West", "club", random.Random(0)) == Action("West", "call")


def test_play_prints_a_record_that_replays():
    out = io.StringIO()
    assert main(["play", "--seed", "2", "--bots", "club,beginner,shark,club", "--compact"], stdout=out) == 0
    record = json.loads(out.getvalue())
    assert record["bots"] == {"East": "club", "South": "beginner", "West": "shark", "North": "club"}
    again = replay(HOUSE, 2, [Action.from_json(a) for a in record["actions"]])
    assert again.record()["result"] == record["result"]
    assert main(["play", "--bots", "grandmaster"], stdout=io.StringIO()) == 2


def test_play_reports_how_long_the_bots_took(capsys):
    assert main(["play", "--seed", "1", "--bots", "shark", "--timing", "--compact"]) == 0
    line = capsys.readouterr().err
    assert "bot decisions (process CPU): median" in line and "max" in line
