"""A hand where some seats are people (issue 28, coach/play/people.py): who owes a
decision, "pass for me when I cannot use it" (K1), answers given together held
until all have answered (C2, C3, K1), the rule that gives a discard several
people call (K4, TR6), the coach standing in for a person away from a friends'
table, and replay: the same actions always make the same hand."""

from __future__ import annotations

import random

import pytest

from coach.play.evaluation import coach_move
from coach.play.hand import Action, Hand, HandError, deal, replay
from coach.play.legal import legal_actions, trial_copy
from coach.play.people import (
    CallRuling,
    TableSettings,
    advance,
    choices,
    could_call,
    owed,
    stand_ins,
    take,
)
from coach.play.seat_view import state_number
from coach.rules.table_rules import TableRules
from tests.support.cards import CARD as HOUSE
from tests.support.hands import CARD, in_play

OFF = TableSettings(auto_pass=False)
WAITS = TableSettings.for_kind("waits")

# East throws the 3 Dot: South (3D 3D) and West (3D and a joker) may each call it for a
# pung (K2); North holds nothing that uses it.
PUNG_SCENE = {
    "East": "3D 9C",
    "South": "3D 3D 2D 2D 1D 1D F F 9C 8C 8C 7B 7B",
    "West": "3D J 2D 5D 1D 6D F F 9B 8B 8B 7C 7C",
    "North": "5B 6B 7B 5C 6C 7C 5D 6D 7D N N E E",
}
# East throws the 4 Dot: South may call it for a pung, North for Mah Jongg (K3).
MAH_JONGG_SCENE = {
    "East": "4D 9C",
    "South": "4D 4D 5B 6B 7B 8B 9B 5C 6C 7C 8C N N",
    "North": "F F 1D 1D 1D 2D 2D 2D 3D 3D 3D 4D J",
}


def scene(racks: dict[str, str], rules: TableRules = TableRules()) -> Hand:
    return in_play(deal(CARD, 1, rules), racks)


def thrown(racks: dict[str, str], tile: str, people: set[str], settings: TableSettings = TableSettings(),
           rules: TableRules = TableRules()) -> tuple[Hand, list[Action]]:
    """East, a person here, throws `tile`: into the hand, or held for the others'
    answers when `auto_pass` is off. The hand and the held answers come back."""
    hand = scene(racks, rules)
    return hand, take(hand, Action("East", "discard", (tile,)), people | {"East"}, settings)


# -- who is asked: "pass for me when I cannot use it" (K1) ------------------------------------


def test_K1_a_person_who_could_call_is_asked_and_one_who_could_not_is_passed_for():
    hand, held = thrown(PUNG_SCENE, "3D", {"West", "North"})
    assert owed(hand, {"West", "North"}, held=held) == {"West": "call"}
    assert could_call(hand, "West") and not could_call(hand, "North")
    # "could call" is exactly: legal.py lists a call for the seat
    for seat in ("South", "West", "North"):
        assert could_call(hand, seat) == any(a.kind == "call" for a in legal_actions(hand, seat))
    assert choices(hand, "North", {"West", "North"}) == []
    with pytest.raises(HandError) as refused:
        take(hand, Action("North", "no-call"), {"West", "North"}, held=held)
    assert refused.value.rule == "K1"


def test_K1_with_auto_pass_off_every_person_but_the_thrower_answers_the_discard():
    hand, held = thrown(PUNG_SCENE, "3D", {"West", "North"}, OFF)
    assert len(hand.actions) == 0 and hand.latest is None  # the discard is held: not yet in the hand
    assert owed(hand, {"West", "North"}, OFF, held) == {"West": "call", "North": "call"}
    assert choices(hand, "North", {"West", "North"}, OFF, held) == [Action("North", "no-call")]
    assert Action("West", "call", size=3) in choices(hand, "West", {"West", "North"}, OFF, held)
    with pytest.raises(HandError) as refused:
        take(hand, Action("North", "call", size=3), {"West", "North"}, OFF, held)
    assert refused.value.rule == "K1"
    held = take(hand, Action("North", "no-call"), {"West", "North"}, OFF, held)
    assert owed(hand, {"West", "North"}, OFF, held) == {"West": "call"}
    held = take(hand, Action("West", "no-call"), {"West", "North"}, OFF, held)
    progress = advance(hand, {"West", "North"}, settings=OFF, held=held)
    # in: the discard and West's no-call; North's pass was the table's, never the engine's
    assert [(a.seat, a.kind) for a in hand.actions[:2]] == [("East", "discard"), ("West", "no-call")]
    assert all(not (a.seat == "North" and a.kind == "no-call") for a in hand.actions)
    assert hand.phase == "over" or owed(hand, {"West", "North"}, OFF, progress.held)  # up to a person's decision


def test_K1_with_auto_pass_off_a_discard_nobody_can_call_still_waits_for_every_person():
    hand, held = thrown(PUNG_SCENE, "9C", {"South", "North"}, OFF)
    assert owed(hand, {"South", "North"}, OFF, held) == {"South": "call", "North": "call"}
    held = take(hand, Action("South", "no-call"), {"South", "North"}, OFF, held)
    assert advance(hand, {"South", "North"}, settings=OFF, held=held).held == held  # North not yet
    assert hand.actions == []
    held = take(hand, Action("North", "no-call"), {"South", "North"}, OFF, held)
    advance(hand, {"South", "North"}, settings=OFF, held=held)
    assert hand.actions[0] == Action("East", "discard", ("9C",))
    assert hand.turn == "South" and hand.acquired == "draw"  # S5: nobody called, South drew


# -- answers held until all have answered (K1, C2, C3) ----------------------------------------


def test_K1_a_call_is_held_and_shown_to_nobody_until_every_person_has_answered():
    people = {"South", "West"}
    hand, held = thrown(PUNG_SCENE, "3D", people)
    held = take(hand, Action("West", "call", size=3), people, held=held)
    assert hand.answers == {} and [a.kind for a in hand.actions] == ["discard"]  # not in the hand: no log, no view
    assert owed(hand, people, held=held) == {"South": "call"}
    assert advance(hand, people, held=held).held == held  # waits for South
    held = take(hand, Action("South", "no-call"), people, held=held)
    advance(hand, people, held=held)
    assert [e.tile for e in hand.exposed["West"]] and hand.turn == "West"  # K5: West exposes, then discards


def test_C2_the_stop_vote_is_held_until_every_person_has_voted():
    hand = deal(HOUSE, 3)
    hand.step = "vote"
    people = {"South", "West"}
    progress = advance(hand, people)
    assert owed(hand, people, held=progress.held) == {"South": "vote", "West": "vote"}
    held = take(hand, Action("South", "vote", go=False), people, held=progress.held)
    assert hand.actions == [] and hand.passes == {}  # West is not shown South's vote
    assert choices(hand, "West", people, held=held) == [Action("West", "vote", go=True), Action("West", "vote", go=False)]
    held = take(hand, Action("West", "vote", go=True), people, held=held)
    advance(hand, people, held=held)
    assert [(a.seat, a.go) for a in hand.actions[:2]] == [("South", False), ("West", True)]  # in the order given
    assert {a.seat for a in hand.actions if a.kind == "vote"} == {"East", "South", "West", "North"}
    assert hand.step in ("offer", "courtesy") or hand.phase == "play"  # C2: South stopped it


# -- who gets a discard several call (K4, TR6) ----------------------------------------------


def _both_call(rules: TableRules, first: str) -> tuple[Hand, list[CallRuling]]:
    people = {"South", "West"}
    hand, held = thrown(PUNG_SCENE, "3D", people, rules=rules)
    second = "South" if first == "West" else "West"
    held = take(hand, Action(first, "call", size=3), people, held=held)
    held = take(hand, Action(second, "call", size=3), people, held=held)
    return hand, advance(hand, people, held=held).rulings


def test_K4_between_two_exposures_the_seat_nearest_after_the_discarder_gets_it_whoever_spoke_first():
    hand, rulings = _both_call(TableRules(), first="West")
    (ruling,) = rulings
    assert (ruling.winner, ruling.rule, ruling.thrower) == ("South", "K4", "East")
    assert ruling.claims == (("West", "expose"), ("South", "expose"))
    assert hand.exposed["South"] and not hand.exposed["West"]  # the engine gave it where the ruling says


def test_TR6_at_a_first_to_speak_table_the_first_person_to_answer_gets_it():
    hand, rulings = _both_call(TableRules(first_to_speak=True), first="West")
    (ruling,) = rulings
    assert (ruling.winner, ruling.rule) == ("West", "TR6")
    assert hand.exposed["West"] and not hand.exposed["South"]


def test_K4_mah_jongg_beats_an_exposure_called_by_a_nearer_seat():
    people = {"South", "North"}
    hand, held = thrown(MAH_JONGG_SCENE, "4D", people)
    held = take(hand, Action("South", "call", size=3), people, held=held)
    held = take(hand, Action("North", "call"), people, held=held)
    (ruling,) = advance(hand, people, held=held).rulings
    assert (ruling.winner, ruling.rule, ruling.ruling.facts["by"]) == ("North", "K4", "purpose")
    assert hand.phase == "over" and hand.result is not None and hand.result.winner == "North"


# -- away, waiting, the turn timer --------------------------------------------------------


def test_a_friends_table_has_the_coach_play_for_a_person_away_and_a_waits_table_waits():
    people = {"South", "West"}
    hand, held = thrown(PUNG_SCENE, "3D", people)
    waiting = advance(hand, people, away={"West"}, settings=WAITS, held=held)
    assert owed(hand, people, WAITS, waiting.held) == {"South": "call", "West": "call"}  # nobody moves for West
    progress = advance(hand, people, away={"West"}, held=held)  # a friends' table
    assert [a.seat for a in progress.held] == ["West"]  # the coach answered for West, held with the others
    assert owed(hand, people, held=progress.held) == {"South": "call"}
    assert stand_ins(people, {"West"}, WAITS) == frozenset()
    assert stand_ins(people, {"West"}, WAITS, expired={"South"}) == {"South"}  # out of time: at any table
    assert stand_ins(people, {"West", "East"}, TableSettings()) == {"West"}  # East is a computer player anyway


def test_TableSettings_read_back_and_refuse_what_no_table_has():
    settings = TableSettings("shark", auto_pass=False, waits_for_everyone=True, turn_timer=45)
    assert TableSettings.from_json(settings.to_json()) == settings
    assert TableSettings.for_kind("friends").waits_for_everyone is False
    assert TableSettings.for_kind("class").waits_for_everyone is True
    with pytest.raises(ValueError):
        TableSettings("grandmaster")
    with pytest.raises(ValueError):
        TableSettings(turn_timer=1)
    with pytest.raises(ValueError):
        TableSettings.for_kind("party")


# -- a whole hand, and its replay ----------------------------------------------------------


def drive(seed: int, people: set[str], settings: TableSettings, pick: int) -> tuple[Hand, list[CallRuling], int]:
    """Play a whole hand: the people choose with a seeded generator (any call first).
    Each person's moves are made on state numbers that only grow (seat_view.state_number)."""
    hand = deal(HOUSE, seed)
    rng = random.Random(pick)
    progress = advance(hand, people, settings=settings)
    held, rulings, asked = progress.held, list(progress.rulings), 0
    numbers: dict[str, list[int]] = {s: [] for s in people}
    while hand.phase != "over":
        due = owed(hand, people, settings, held)
        assert due, "advance stops only where a person owes a decision"
        seat = rng.choice(sorted(due))
        numbers[seat].append(state_number(hand, seat, held))  # the number this move carries back
        open_ = choices(hand, seat, people, settings, held)
        assert open_
        calls = [a for a in open_ if a.kind in ("call", "mahjong")]
        held = take(hand, calls[0] if calls else rng.choice(open_), people, settings, held)
        progress = advance(hand, people, settings=settings, held=held)
        held, asked = progress.held, asked + 1
        rulings += progress.rulings
    assert held == []
    for seen in numbers.values():
        assert seen == sorted(set(seen)), "each move is made on a state number of its own: a repeat is refused"
    return hand, rulings, asked


@pytest.mark.parametrize("settings", [TableSettings(), OFF], ids=["auto-pass", "every-discard"])
def test_S4_a_table_of_people_and_computer_players_plays_to_the_end_and_its_actions_replay_it(settings):
    people = {"East", "South", "West"}
    hand, rulings, asked = drive(9, people, settings, pick=9)
    assert asked > 20
    again = replay(HOUSE, 9, hand.actions)
    assert again.record() == hand.record()
    twice, _, _ = drive(9, people, settings, pick=9)
    assert twice.actions == hand.actions  # the same choices meet the same replies
    for ruling in rulings:
        assert ruling.rule == "K4" and len(ruling.claims) >= 2


def test_S4_when_a_person_s_turn_timer_runs_out_the_coach_moves_for_them_even_at_a_table_that_waits():
    racks = dict(PUNG_SCENE, East="3D 9C 1B 2B 3B 4B 5B 6B 7B 8B 9B N N E")
    hand = scene(racks)
    assert advance(hand, {"East"}, settings=WAITS).held == [] and hand.actions == []  # East's turn: the table waits
    assert owed(hand, {"East"}, WAITS) == {"East": "turn"}
    before = trial_copy(hand)
    advance(hand, {"East"}, settings=WAITS, expired={"East"})
    assert hand.actions[0] == coach_move(before, "East")  # the coach's own move, as its hint would say
    assert hand.phase == "over" or owed(hand, {"East"}, WAITS)  # once: East is waited for again after it
    assert not any(a.seat == "East" for a in hand.actions[1:])
