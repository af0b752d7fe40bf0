"""Names read back (T1): every name the app shows for a tile, in verdicts,
choices, alt text and charts, is accepted as that tile, in name-the-tile
and wherever a tile is typed; "did you mean" offers names, never codes."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach.notation import tiles
from coach.web.shared.mistakes import tile_label
from coach.web.tiles.art import svg
from drills import name_the_tile as drill
from tests.support.cards import CARD

KINDS = list(tiles.CODES)  # all 36 kinds: 27 suit tiles, 4 winds, 3 dragons, flower, joker


def shown_names(code: str) -> set[str]:
    """Every name some part of the app prints for the tile, taken from the
    functions that print them rather than written out again here."""
    title = re.search(r"<title>(.*?)</title>", svg(code))
    assert title is not None
    names = {
        tiles.name(code), tiles.label(code), drill.label(code), drill.the(code),
        drill._dragon_label(code), tile_label(code), title.group(1),
        tiles.plural(code, 2).split(" ", 1)[1],
        "Soap (White Dragon)" if code == "WD" else tiles.name(code),  # name-the-tile's choices
    }
    return names | set(tiles.display_names(code))


@cache
def typed_question(code: str):
    """A level-2 question ("type the name") showing this tile."""
    for seed in range(2000):
        q = drill.generate(seed, 2, CARD)
        if q.tile == code:
            return q
    raise AssertionError(f"no level-2 seed shows {code}")


@pytest.mark.parametrize("code", KINDS)
def test_T1_every_shown_name_reads_back_as_its_tile(code):
    q = typed_question(code)
    for shown in shown_names(code):
        assert tiles.code_of(shown) == code, shown
        verdict = drill.grade(q, shown)
        assert verdict.correct and verdict.answer == code, (shown, verdict.explanation)


@pytest.mark.parametrize("code", KINDS)
def test_T1_every_alias_reads_back_as_its_tile(code):
    q = typed_question(code)
    aliases = [alias for alias, target in tiles.ALIASES.items() if target == code]
    assert code.lower() in aliases and len(aliases) > 1
    for alias in aliases:
        assert tiles.code_of(alias.upper()) == code
        assert drill.grade(q, f"  {alias.title()} ").correct, alias


def test_T1_no_name_reads_as_two_tiles():
    owners: dict[str, str] = {}
    for code in KINDS:
        for shown in shown_names(code):
            key = " ".join(shown.lower().split())
            assert owners.setdefault(key, code) == code, (shown, owners[key], code)


@given(code=st.sampled_from(KINDS), data=st.data())
def test_T1_case_spacing_and_an_article_do_not_matter(code, data):
    shown = data.draw(st.sampled_from(sorted(shown_names(code))))
    cased = "".join(c.upper() if data.draw(st.booleans()) else c.lower() for c in shown)
    spaced = data.draw(st.sampled_from(["", " ", "  "])) + " ".join(cased.split()).replace(" ", data.draw(st.sampled_from([" ", "  ", "\t"]))) + data.draw(st.sampled_from(["", " "]))
    assert tiles.code_of(spaced) == code
    if not shown.lower().startswith("the "):
        assert tiles.code_of("the " + shown) == code


def test_T1_level_2_takes_north_wind_and_east_wind():
    for code, shown in (("N", "North Wind"), ("E", "East Wind"), ("S", "south wind"), ("W", "the West Wind")):
        verdict = drill.grade(typed_question(code), shown)
        assert verdict.correct, verdict.explanation


def test_T1_did_you_mean_offers_a_name_never_a_bare_code():
    names = {tiles.label(code) for code in KINDS}
    for n, alias in enumerate(tiles.ALIASES):
        if len(alias) < 4:
            continue
        for cut in (n % len(alias), len(alias) // 2):  # a letter dropped, in two places
            typo = alias[:cut] + alias[cut + 1:]
            if " ".join(typo.split()).lower() in tiles.ALIASES:
                continue
            q = typed_question("9C")
            verdict = drill.grade(q, typo)
            hint = re.search(r'Did you mean "(.*?)"\?', verdict.explanation[0])
            if hint:
                assert hint.group(1) in names, (typo, hint.group(1))
                assert hint.group(1) not in tiles.CODES


def test_T1_bird_is_the_1_bam_and_a_near_miss_gets_a_name():
    assert tiles.code_of("bird") == "1B"
    verdict = drill.grade(typed_question("RD"), "bird")
    assert not verdict.correct and verdict.answer == "1B"  # a tile, just not this one
    verdict = drill.grade(typed_question("RD"), "birb")
    assert 'Did you mean "1 Bam"?' in verdict.explanation[0]
    assert '"rd"' not in verdict.explanation[0]


def test_T1_a_rack_reads_wind_names_as_one_tile():
    assert tiles.parse("north wind, 5 dots east") == ["N", "5D", "E"]
