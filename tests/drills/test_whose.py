"""Whose tiles a question shows (drills.kit.whose): the labels over rack, exposures and discard."""

from __future__ import annotations

import drills
from drills.kit.whose import whose
from tests.support.cards import CARD


def asked(name: str, level: int, seeds=range(12)):
    return [drills.get(name).generate(seed, level, CARD) for seed in seeds]


def test_hot_or_safe_names_each_opponent_by_seat():
    for q in asked("hot-or-safe", 1) + asked("hot-or-safe", 3):
        who = whose(q)
        assert who.rack == "Your rack"
        expected = [f"{seat}'s exposure" for seat, groups in q.scene.others for _ in groups]
        assert list(who.exposures) == expected
        for label in who.exposures:
            seat = label.split("'")[0]
            assert f"{seat} has exposed" in " ".join(q.facts)  # the label agrees with the facts


def test_calls_shows_your_exposures_and_whose_discard_it_is():
    for q in asked("calls", 1):
        who = whose(q)
        assert who.rack == "Your rack" and set(who.exposures) <= {"Your exposure"}
        thrower = q.facts[0].split(". ")[1].split(" just threw")[0]
        assert who.discard == q.scene.discards[0] and who.discard_label == f"{thrower}'s discard"


def test_another_players_hand_is_theirs():
    for q in asked("dead-or-alive", 2):
        if q.exposed:
            who = whose(q)
            seat = q.facts[0].split(" ")[0]
            if seat == "You":
                assert set(who.exposures) == {"Your exposure"}, q.facts
            else:
                assert seat in ("East", "South", "West", "North")
                assert set(who.exposures) == {f"{seat}'s exposure"}, q.facts
    for q in asked("mahjong-or-not", 1):
        assert whose(q).rack == "The player's rack"


def test_a_tile_you_give_is_yours():
    for q in asked("jokers", 3):
        assert whose(q).tile == "Your tile"
