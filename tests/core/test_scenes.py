"""Scenes a real set can make (T1, H2, J1, J2, S5): the checker of
`coach.rules.scenes`, the retry that keeps every seed answerable, a sweep of every
drill, level and 500 seeds, and the dealing bugs the sweep found."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import drills
from coach.advice.discard import HOT_SHARE, danger
from coach.notation import tiles
from coach.reading.tiles_away import parse_exposure
from coach.rules import scenes
from coach.rules.scenes import Scene
from drills import hot_or_safe, jokers, mahjong_or_not
from drills.kit import base
from drills.kit.base import Question
from tests.support.cards import CARD

SEEDS = range(500)
CASES = [(name, level.number) for name, module in drills.DRILLS.items() for level in module.LEVELS]


# -- the checker ----------------------------------------------------------------------------


def test_T1_a_fifth_copy_is_refused_wherever_it_is_shown():
    assert scenes.problems(Scene(rack=("6C",) * 4 + ("J",))) == []
    assert scenes.problems(Scene(rack=("6C",) * 5 + ("J",))) == ["the rack holds 5 × 6 Crak, but a set has only 4"]
    spread = Scene(rack=("5D", "5D"), exposures=(("5D", "5D", "J"),), discards=("5D",))
    assert "5 Dot" in " ".join(scenes.problems(spread))
    offered = Scene(others=(("North", (("1C", "1C", "1C", "J"),)),), discards=("1C",), offered=("1C",))
    assert "5 × 1 Crak" in scenes.problems(offered)[0]
    assert scenes.problems(Scene(rack=("F",) * 8, offered=("J",) * 8)) == []  # eight of each (T1)
    assert scenes.problems(Scene(rack=("J",) * 9))


@pytest.mark.parametrize("group, legal", [
    (("5D", "5D", "5D"), True),
    (("5D", "5D", "J", "J", "J", "J"), True),  # a sextet may be mostly jokers (J1)
    (("F", "F", "J"), True),  # a Flower pung may hold a joker (J2)
    (("5D", "J"), False),  # a pair is never exposed, and takes no joker (J2)
    (("5D",), False),
    (("5D", "6D", "7D"), False),  # no runs (H2)
    (("J", "J", "J"), False),  # the tile itself must be shown
    (("5D",) * 4 + ("J",) * 3, False),  # nothing bigger than a sextet
])
def test_H2_J1_J2_an_exposure_is_a_group_of_one_tile(group, legal):
    assert (scenes.exposure_problem(group) is None) == legal
    assert (not scenes.problems(Scene(exposures=(group,)))) == legal
    assert (not scenes.problems(Scene(others=(("West", (group,)),)))) == legal


def test_S5_seats_and_turns_must_be_possible():
    assert scenes.problems(Scene(seat="East", order=("North", "East", "South"))) == []
    assert scenes.problems(Scene(order=("East", "West"))) == ["West does not play right after East (S5)"]
    assert scenes.problems(Scene(seat="Middle")) == ["'Middle' is not a seat"]
    mine = (("5D", "5D", "5D"),)
    assert scenes.problems(Scene(seat="East", others=(("East", mine),)))
    assert scenes.problems(Scene(others=(("West", mine), ("West", mine))))
    big = tuple(("F", "F", "F", "F", "J") for _ in range(3))
    assert scenes.problems(Scene(others=(("West", big),)))  # 15 tiles exposed


def test_a_question_without_a_scene_is_checked_as_it_shows():
    q = Question("x", 0, 1, "c", "?", rack=("5D",) * 3, exposed=(("5D", "5D", "J"),), tile="9B")
    assert q.table() == Scene(rack=("5D",) * 3, exposures=(("5D", "5D", "J"),), offered=("9B",))
    assert scenes.problems(q.table())  # five 5 Dots
    assert "scene" not in q.public()


# -- the retry ------------------------------------------------------------------------------


def fake_generate(seed: int, level: int, card: object) -> Question:
    """A drill that shows five 6 Craks on most random sources."""
    rng = base.rng_for("fake", seed, level)
    count = 5 if rng.random() < 0.7 else 4
    return Question("fake", seed, level, "card", "?", rack=("6C",) * count)


def test_a_failing_scene_is_dealt_again_from_the_next_random_source():
    checked = base.checked(fake_generate)
    for seed in range(50):
        q = checked(seed, 1, None)
        assert q.rack == ("6C",) * 4 and q.seed == seed
        assert checked(seed, 1, None) == q  # the same seed, the same question
    assert base.checked(checked) is checked


def test_a_drill_that_never_deals_a_possible_scene_says_so():
    never = base.checked(lambda seed, level, card: Question("bad", seed, level, "c", "?", rack=("J",) * 9))
    with pytest.raises(base.SceneError, match="bad level 1 seed 3"):
        never(3, 1, None)


def test_every_drill_asks_through_the_checker():
    for module in drills.DRILLS.values():
        assert getattr(module.generate, "scene_checked", False), module.NAME


# -- the sweep ------------------------------------------------------------------------------


@pytest.mark.parametrize("name, level", CASES)
def test_T1_every_question_shows_a_scene_a_set_can_make(name, level):
    module = drills.get(name)
    for seed in SEEDS:
        q = module.generate(seed, level, CARD)
        assert scenes.problems(q.table()) == [], (name, level, seed)


# -- the dealing bugs the sweep found, fixed at the source ----------------------------------


def raw(module, seed: int, level: int) -> Question:
    """The drill's own question for the seed, before any retry."""
    return module.generate.__wrapped__(seed, level, CARD)


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_J1_T1_jokers_deals_no_fifth_copy_even_before_a_retry(level):
    for seed in range(400):
        q = raw(jokers, seed, level)
        assert scenes.problems(q.table()) == [], (level, seed)


def test_J1_jokers_level_2_seed_0_shows_a_group_a_set_can_hold():
    q = jokers.generate(0, 2, CARD)
    naturals = [code for code in q.rack if code != "J"]
    assert naturals and len(naturals) <= tiles.COPIES[tiles.INDEX[naturals[0]]]
    if len(q.rack) > tiles.COPIES[tiles.INDEX[naturals[0]]] + 1:  # a sextet of a four-copy tile
        assert "one more joker fills the rest" in q.facts[-1]


def test_J4_jokers_level_4_seed_22_offers_no_fifth_copy_of_the_called_tile():
    q = raw(jokers, 22, 4)
    assert scenes.problems(q.table()) == []
    for seed in range(400):
        q = raw(jokers, seed, 4)
        if q.key["best"] == jokers.TILE and q.scene.discards:
            called = q.scene.discards[0]
            assert q.tile != called or q.scene.rack.count(called) + 2 <= tiles.COPIES[tiles.INDEX[called]]


# -- counts in true numbers -----------------------------------------------------------------

TOO_MANY = [
    tiles.plural(code, n)
    for code in tiles.CODES if tiles.COPIES[tiles.INDEX[code]] == 4
    for n in range(5, 9)
]


def claimed_counts(text: str) -> list[str]:
    """What a choice or explanation says the hand holds: the words before
    "where" in a choice, after "the hand has" in a reason."""
    said = re.findall(r"Not Mah Jongg: (.*?) where ", text) + re.findall(r"the hand has ([^;,.]*)", text)
    return said


@pytest.mark.parametrize("level, seed", [(2, 42), (1, 215)])
def test_H2_mahjong_or_not_seed_counts_real_tiles_and_jokers_apart(level, seed):
    q = mahjong_or_not.generate(seed, level, CARD)
    verdicts = [mahjong_or_not.grade(q, c) for c in q.choices]
    for text in list(q.choices) + [line for v in verdicts for line in v.explanation]:
        for said in claimed_counts(text):
            assert not any(said.startswith(bad) for bad in TOO_MANY), text


def test_H2_mahjong_or_not_never_says_a_hand_holds_more_than_a_set_has():
    for level in (1, 2):
        for seed in range(300):
            q = mahjong_or_not.generate(seed, level, CARD)
            texts = list(q.choices) + list(q.key["why"].values()) + list(q.key["more"])
            for text in texts:
                for said in claimed_counts(text):
                    assert not any(said.startswith(bad) for bad in TOO_MANY), (level, seed, text)


def test_H2_a_size_claim_names_the_jokers_of_an_exposure():
    hand = mahjong_or_not.LaidDown(
        [tiles.INDEX[c] for c in "N E E W GD GD GD GD".split()], [parse_exposure("S S S J J J")]
    )
    assert mahjong_or_not._tally(hand, tiles.INDEX["S"]) == (3, 3)
    assert mahjong_or_not._has(tiles.INDEX["S"], 3, 3) == "three Souths and three jokers"
    assert mahjong_or_not._has(tiles.INDEX["S"], 4, 2, total=True) == "four Souths and two jokers, six in all"


# -- danger in true numbers -----------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_D1_hot_tiles_are_said_with_the_share_of_possible_hands(level):
    for seed in range(0, 150, 3):
        q = hot_or_safe.generate(seed, level, CARD)
        opponents = [
            (seat, [parse_exposure(list(e), n) for n, e in enumerate(groups, 1)])
            for seat, groups in q.key["situation"]["opponents"]
        ]
        for choice in q.choices:
            why = q.key["why"][choice]
            assert "plainly" not in why
            if choice == q.key["best"]:
                continue
            tile = tiles.INDEX[tiles.code_of(choice)]
            found = [(danger(CARD, exposures), seat) for seat, exposures in opponents]
            worst, seat = max(found, key=lambda f: f[0].share(tile))
            assert worst.share(tile) >= HOT_SHARE
            assert worst.words(tile, seat) in why, (seed, why)


def test_D1_hot_or_safe_level_1_seed_1_never_overstates_a_danger():
    q = hot_or_safe.generate(1, 1, CARD)
    for why in q.key["why"].values():
        assert "plainly" not in why
        if "is hot" in why:
            assert "possible hand" in why


def test_scene_is_never_shown_to_the_client():
    q = jokers.generate(22, 4, CARD)
    assert q.scene is not None and "scene" not in q.public()
    assert replace(q, scene=None) == q  # the scene takes no part in what a question is
