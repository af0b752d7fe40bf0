"""Hot or safe (D1): levels, determinism, grading, the safe tile worked out again
from the table, and the JSON API."""

from __future__ import annotations

from functools import cache

import pytest

from coach.advice.discard import HOT_SHARE, advise_discard, danger, wanted_share
from coach.notation import tiles
from coach.reading.analysis import analyze
from coach.reading.tiles_away import Holding, parse_exposure
from coach.rules.catalog import RULES
from drills import hot_or_safe as drill
from tests.support import choice_drill_checks as checks
from tests.support.cards import CARD

LEVELS = [1, 2, 3]
SEEDS = range(200)
SAMPLE = range(0, 200, 9)
ASSIGNED = ("D1",)


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def code(choice: str) -> str:
    return tiles.code_of(choice.removesuffix(" Wind"))


# -- the protocol ---------------------------------------------------------------------


def test_name_title_levels_and_template():
    assert drill.NAME == "hot-or-safe" and drill.TITLE and drill.TEMPLATE == "choice"
    assert [level.number for level in drill.LEVELS] == LEVELS


@pytest.mark.parametrize("level", [0, 4, True, "2"])
def test_a_level_out_of_range_is_an_answer_error(level):
    checks.check_level_refused(drill, CARD, level)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_question(level):
    checks.check_same_seed_same_question(drill, CARD, level, range(20))


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_generates_valid_questions(level):
    for seed in SEEDS:
        q = ask(level, seed)
        assert q.prompt and 1 <= len(q.facts) <= 5 and all(q.facts)
        assert 3 <= len(q.choices) <= 4 and len(set(q.choices)) == len(q.choices)
        assert q.key["best"] in q.choices and set(q.key["why"]) == set(q.choices)
        assert q.items == ("rule:D1",)
        assert all(i[5:] in RULES for i in q.items)
        assert len(q.rack) == 14  # your turn to discard
        assert all(code(c) in q.rack for c in q.choices)  # the choices are tiles of your rack
        assert q.facts[0].startswith("Late in the hand")
        seen = list(q.key["situation"]["discards"]) + [t for e in q.exposed for t in e]
        tiles.check_supply([("rack", q.rack), ("table", seen)])
        shown = [e for _, exposures in q.key["situation"]["opponents"] for e in exposures]
        assert [tuple(e) for e in q.exposed] == shown


@pytest.mark.parametrize("level", LEVELS)
def test_choices_come_in_a_seeded_order(level):
    assert len({ask(level, s).choices.index(ask(level, s).key["best"]) for s in SEEDS}) >= 3


# -- grading --------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_right_wrong_and_show_me(level):
    for seed in SAMPLE:
        q = ask(level, seed)
        best = q.key["best"]
        right = checks.grade_right(drill, q)
        assert right.items == (("rule:D1", True),) and right.rules == ("D1",)
        for choice in q.choices:
            if choice == best:
                continue
            wrong = checks.grade_wrong(drill, q, choice)
            assert wrong.items == (("rule:D1", False),)
            mine = checks.picked_line(wrong, choice)
            assert "hot" in mine and "D1" in checks.cited_ids(mine) and "D1" in wrong.rules
        shown = checks.grade_show_me(drill, q)
        for line in shown.explanation:
            ids = checks.cited_ids(line)
            assert ids and all(r in shown.rules for r in ids)


@pytest.mark.parametrize("answer", [3, 2.5, False, [], ["5D"], {}])
def test_answers_of_the_wrong_type_are_answer_errors(answer):
    checks.check_answer_refused(drill, ask(1, 0), answer, match="as text")


@pytest.mark.parametrize("answer", ["", "Joker", "5D", "the safest one"])
def test_answers_not_among_the_choices_are_answer_errors(answer):
    q = ask(1, 0)
    assert answer not in q.choices  # choices are tile names such as "5 Dot", never codes or jokers
    checks.check_answer_refused(drill, q, answer, match="not one of the choices")


def test_the_rule_is_asked():
    asked = {item[5:] for level in LEVELS for seed in SEEDS for item in ask(level, seed).items}
    assert asked >= set(ASSIGNED)


# -- the truth, worked out again from the table -------------------------------------------------


def classify(q) -> dict[str, str]:
    """Each choice as D1 reads it: "safe" or "hot" (or "neither")."""
    shares = [
        wanted_share(CARD, [parse_exposure(list(e), n) for n, e in enumerate(exposures, 1)])
        for _, exposures in q.key["situation"]["opponents"]
    ]
    out = {}
    for choice in q.choices:
        t = tiles.INDEX[code(choice)]
        hot = any(s[t] >= HOT_SHARE for s in shares)
        twice = q.key["situation"]["discards"].count(tiles.CODES[t]) >= 2
        nothing = all(s[t] == 0 for s in shares)
        out[choice] = "hot" if hot else "safe" if (twice or nothing) else "neither"
    return out


@pytest.mark.parametrize("level", LEVELS)
def test_exactly_one_choice_is_safe_and_the_rest_hot_D1(level):
    for seed in SEEDS:
        q = ask(level, seed)
        kinds = classify(q)
        assert kinds[q.key["best"]] == "safe", (seed, kinds)
        assert all(kind == "hot" for choice, kind in kinds.items() if choice != q.key["best"]), (seed, kinds)
        best = code(q.key["best"])
        thrown = q.key["situation"]["discards"].count(best)
        if level == 1:
            assert thrown == 0  # safe because it fits no exposure
        if level == 2:
            assert thrown == 2 and f"{q.key['best']}, " in q.facts[-1] + ", "


def test_level_3_puts_defence_before_your_own_rack_D1():
    for seed in SEEDS:
        q = ask(3, seed)
        holding = Holding.of(list(q.rack))
        seen = tuple(tiles.counts(list(q.key["situation"]["discards"])))
        nearest = analyze(CARD, holding, seen).nearest
        used = list(nearest.fill.used)
        assert f"Your nearest line is {nearest.line.id}" in q.facts[-1]
        best = tiles.INDEX[code(q.key["best"])]
        assert used.count(best) == holding.rack[best]  # your line keeps it...
        for choice in q.choices:
            if choice != q.key["best"]:
                assert tiles.INDEX[code(choice)] not in used  # ...and has no use for the hot ones


def test_the_discard_advisor_agrees_late_in_the_hand_D1():
    for seed in range(0, 200, 5):
        for level in LEVELS:
            q = ask(level, seed)
            others = [[parse_exposure(list(e), n) for n, e in enumerate(ex, 1)] for _, ex in q.key["situation"]["opponents"]]
            seen = tuple(tiles.counts(list(q.key["situation"]["discards"])))
            advice = advise_discard(CARD, Holding.of(list(q.rack)), seen, others, late=True)
            ranked = [tiles.name(o.tile) for o in advice.options]
            picks = [c for c in ranked if c in {tiles.name(tiles.INDEX[code(x)]) for x in q.choices}]
            assert picks[0] == tiles.name(tiles.INDEX[code(q.key["best"])])


# -- hand-built cases of the core truth -----------------------------------------------------


def test_a_tile_thrown_twice_without_a_call_is_safe_D1():
    rack = ["1D", "2D", "3D", "5B", "6B", "7B", "9C", "9C", "N", "E", "W", "S", "RD", "GD"]
    seen = tiles.counts(["5B", "5B"])
    advice = advise_discard(CARD, Holding.of(rack), seen, [[parse_exposure("4D 4D 4D")]], late=True)
    five_bam = next(o for o in advice.options if tiles.CODES[o.tile] == "5B")
    assert five_bam.safe and not five_bam.hot


def test_the_only_line_an_exposure_allows_makes_its_tiles_hot_D1():
    # A kong of East is exposed only on concealed 369-2: no exposed line allows it at all.
    assert danger(CARD, (parse_exposure("E E E E"),)).hands == 0
    # A quint of Souths sits only on QUINT-2 with a kong of Norths: Norths are hot.
    exposures = (parse_exposure("S S S S J"),)
    assert danger(CARD, exposures).hands >= 1
    assert wanted_share(CARD, exposures)[tiles.INDEX["N"]] == 1.0


# -- through the web ----------------------------------------------------------------------


registered = checks.registered


@pytest.mark.parametrize("level", LEVELS)
def test_api_right_and_wrong(client, registered, level):
    data = checks.api_question(client, drill, level, 3)
    q = drill.generate(3, level, CARD)
    assert data["choices"] == list(q.choices) and data["rack"] == list(q.rack) and "key" not in data
    assert data["exposed"] == [list(e) for e in q.exposed]
    checks.check_api_right(client, drill, data["token"], q.key["best"])
    wrong_choice = next(c for c in q.choices if c != q.key["best"])
    wrong = checks.api_answer(client, drill, data["token"], wrong_choice)
    assert wrong.get_json()["correct"] is False and wrong.get_json()["rules"] == ["D1"]
    bad = checks.api_answer(client, drill, data["token"], 7)
    assert bad.status_code == 400


def test_page_renders_the_choices(client, registered):
    html = checks.drill_page(client, drill, 1, 3)
    q = drill.generate(3, 1, CARD)
    checks.check_page_shows(html, q.choices + q.facts)


# -- warmed before the fork (issue 26) ------------------------------------------------


def test_D1_the_warm_up_covers_every_player_a_deal_can_seat():
    """`warm` works out every set of groups `_opponents` can deal, so no deal meets one
    for the first time in a worker; the sets kept are exactly what the deals would keep."""
    import random

    dealable = drill._dealable(CARD)
    assert 0 < len(dealable) <= drill._PLAYERS.size
    rng = random.Random(26)
    for _ in range(3000):
        for _, exposures in drill._opponents(rng, CARD, rng.choice(drill.SEATS)):
            assert drill._groups(exposures) in dealable
    drill.warm(CARD)
    for groups in sorted(dealable)[:50]:
        kept = drill._PLAYERS.peek((id(CARD), groups), owner=CARD)
        assert kept == drill._player_bits(CARD, groups)
