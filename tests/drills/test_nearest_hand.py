"""Find the nearest hand (H1, H3, H4, J1, J2): deals, levels, grading, detail."""

from __future__ import annotations

import re
from functools import cache

import pytest

from coach.notation import tiles
from coach.reading.analysis import analyze
from coach.reading.tiles_away import Holding, parse_exposure, tables_for
from coach.rules.catalog import RULES
from drills import nearest_hand as drill
from drills.kit.base import AnswerError
from tests.support.cards import CARD

CITATION = re.compile(r"\(([A-Z]\d(?:, [A-Z]\d)*)\)")
SEEDS = range(200)


@cache
def ask(level: int, seed: int):
    return drill.generate(seed, level, CARD)


def holding_of(q) -> Holding:
    exposures = [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, start=1)]
    return Holding.of(list(q.rack), exposures)


def assert_cites_rules(verdict) -> None:
    for line in verdict.explanation:
        found = CITATION.findall(line)
        assert found, f"no rule id cited in: {line}"
        for group in found:
            for rule_id in group.split(", "):
                assert rule_id in RULES and rule_id in verdict.rules


def test_levels_and_ranges():
    assert [level.number for level in drill.LEVELS] == [1, 2, 3]
    assert drill.RANGES == {1: (1, 3), 2: (4, 6), 3: (1, 3)}


@pytest.mark.parametrize("level", [1, 2, 3])
def test_same_seed_same_rack(level):
    for seed in range(30):
        first = drill.generate(seed, level, CARD)
        second = drill.generate(seed, level, CARD)
        assert first == second
        assert first.public() == second.public()


@pytest.mark.parametrize("level", [1, 2, 3])
def test_different_seeds_deal_different_racks(level):
    assert len({ask(level, seed).rack for seed in range(40)}) == 40


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_rack_is_a_real_holding_within_the_levels_range_T1_H1(level):
    low, high = drill.RANGES[level]
    distances = set()
    for seed in SEEDS:
        q = ask(level, seed)
        holding = holding_of(q)
        # never more copies than a set holds (T1)
        tiles.check_supply([("rack", q.rack)] + [(f"exposure {n}", e) for n, e in enumerate(q.exposed)])
        nearest = analyze(CARD, holding).nearest.distance
        assert low <= nearest <= high, (seed, nearest)
        distances.add(nearest)
        # the verdict agrees with an analysis made from the public question alone
        assert q.key.nearest.distance == nearest
        if level < 3:
            assert holding.size in (13, 14) and not q.exposed
        else:
            assert holding.size == 14 and len(q.exposed) == 1
    assert len(distances) >= 2  # the range is used, not one value of it


def test_levels_1_and_2_deal_east_fourteen_tiles_sometimes_S3():
    sizes = {len(ask(level, seed).rack) for level in (1, 2) for seed in SEEDS}
    assert sizes == {13, 14}
    east = next(ask(2, seed) for seed in SEEDS if len(ask(2, seed).rack) == 14)
    assert "East" in east.prompt


def test_level_3_exposure_is_a_real_call_for_an_exposed_line_K2_H4():
    for seed in SEEDS:
        q = ask(3, seed)
        (group,) = q.exposed
        naturals = [c for c in group if c != "J"]
        assert 3 <= len(group) <= 6 and naturals and len(set(naturals)) == 1
        exposure = parse_exposure(list(group))
        # some exposed (X) line has a group of that tile and size, within reach
        analysis = q.key
        fitting = [
            r for r in analysis.lines
            if r.distance is not None and not r.line.concealed
            and any(g.tile == exposure.tile and g.size == exposure.size for g in r.reading.groups)
        ]
        assert fitting
        # every concealed line is out of reach after the exposure (H4)
        assert all(r.distance is None for r in analysis.lines if r.line.concealed)
        assert not analysis.nearest.line.concealed
        assert tiles.name(exposure.tile) in q.prompt


def test_level_3_calls_only_when_the_call_brings_the_hand_near_K2_H4():
    # An exposure tells the table what the hand wants and closes the concealed lines (H4):
    # a player calls from a few tiles away, never from a fresh deal 5 or 6 tiles off.
    low, high = drill.CALL_FROM
    tables = tables_for(CARD)
    before_the_call = set()
    for seed in range(300):
        q = ask(3, seed)
        assert 1 <= q.key.nearest.distance <= 3, seed
        (group,) = q.exposed
        exposure = parse_exposure(list(group))
        # the 13 tiles held before the call: the rack and the exposure less the called tile
        held = list(q.rack) + list(group)
        held.remove(tiles.CODES[exposure.tile])
        assert len(held) == 13
        before = int(tables.line_distances(Holding.of(held)).min())
        assert low <= before <= high, seed
        before_the_call.add(before)
        assert q.prompt.startswith("A few turns into the hand, you called the ")
    assert before_the_call == set(range(low, high + 1))


def test_the_best_line_is_right_and_a_farther_line_is_wrong_H1():
    q = ask(2, 5)
    analysis = q.key
    best = analysis.nearest
    right = drill.grade(q, best.line.id)
    assert right.correct and right.score == 1.0 and right.best == best.line.id and right.answer == best.line.id
    farther = next(r for r in analysis.lines if r.distance is not None and r.distance == best.distance + 1)
    wrong = drill.grade(q, farther.line.id)
    assert not wrong.correct and 0 < wrong.score < 1 and wrong.best == best.line.id
    assert wrong.explanation[0].startswith("Not the nearest")
    assert farther.line.id in wrong.explanation[0] and best.line.id in wrong.explanation[0]
    assert_cites_rules(right)
    assert_cites_rules(wrong)
    assert right.items == tuple((item, True) for item in q.items)
    assert wrong.items == tuple((item, False) for item in q.items)


def test_a_tie_with_the_nearest_line_counts_as_right_H3():
    tied = (
        (q, ties)
        for level in (1, 2, 3)
        for q in (ask(level, seed) for seed in SEEDS)
        for ties in [[r for r in q.key.lines if r.distance == q.key.nearest.distance]]
        if len(ties) > 1
    )
    q, ties = next(tied)
    other = ties[1]
    verdict = drill.grade(q, other.line.id)
    assert verdict.correct and verdict.score == 1.0
    assert verdict.best == q.key.nearest.line.id != other.line.id
    assert "H3" in verdict.rules
    assert verdict.detail["pick"]["id"] == other.line.id
    assert set(verdict.detail["ties"]) == {r.line.id for r in ties}


def test_score_falls_with_each_extra_tile_away():
    q = ask(2, 8)
    best = q.key.nearest.distance
    for r in q.key.lines:
        if r.distance is None:
            continue
        score = drill.grade(q, r.line.id).score
        assert score == pytest.approx(max(0.0, 1 - (r.distance - best) / 4))


def test_a_concealed_line_after_an_exposure_is_out_of_reach_H4():
    q = ask(3, 2)
    concealed = next(r for r in q.key.lines if r.line.concealed)
    verdict = drill.grade(q, concealed.line.id)
    assert not verdict.correct and verdict.score == 0.0
    assert "out of reach" in verdict.explanation[0] and "(H4)" in verdict.explanation[0]
    assert "H4" in verdict.rules
    assert verdict.detail["pick"]["reachable"] is False
    assert_cites_rules(verdict)


def test_level_3_explains_the_concealed_lines_H4():
    q = ask(3, 4)
    verdict = drill.grade(q, q.key.nearest.line.id)
    assert verdict.correct
    assert any("concealed (C) lines" in line for line in verdict.explanation)
    assert "H4" in verdict.rules


def test_jokers_where_they_help_and_where_they_cannot_J1_J2():
    checked_big = checked_small = False
    for seed in SEEDS:
        q = ask(2, seed)
        verdict = drill.grade(q, None)
        best = verdict.detail["best"]
        for m in best["missing"]:
            line = CARD.line(best["id"])
            assert m["joker_ok"] == (m["group"] in ("pung", "kong", "quint", "sextet") and line.takes_jokers)
        if any(m["joker_ok"] for m in best["missing"]):
            assert any("joker could fill" in line and "(J1)" in line for line in verdict.explanation)
            checked_big = True
        if any(not m["joker_ok"] for m in best["missing"]):
            assert any(("No joker can fill" in line or "no joker can ever" in line) and "(J2)" in line
                       for line in verdict.explanation)
            checked_small = True
        assert "J2" in verdict.rules
    assert checked_big and checked_small


def test_detail_marks_the_used_tiles_on_the_rack_and_the_missing_tiles():
    for seed in range(60):
        q = ask(3 if seed % 2 else 1, seed)
        verdict = drill.grade(q, None)
        best = verdict.detail["best"]
        result = q.key.nearest
        used = best["used"]
        assert len(used) == len(set(used)) == len(result.fill.used)
        assert all(0 <= i < len(q.rack) for i in used)
        assert sorted(q.rack[i] for i in used) == sorted(tiles.CODES[t] for t in result.fill.used)
        # used tiles plus missing tiles plus the exposure make 14 (H1)
        missing = sum(m["count"] for m in best["missing"])
        exposed = sum(len(e) for e in q.exposed)
        assert len(used) + missing + exposed == 14
        assert missing == best["distance"] == verdict.detail["nearest"]
        assert verdict.detail["rack"] == list(q.rack)


def test_side_by_side_detail_for_a_wrong_pick():
    q = ask(2, 3)
    far = q.key.lines[-1]
    if far.distance is None:
        far = next(r for r in reversed(q.key.lines) if r.distance is not None)
    verdict = drill.grade(q, far.line.id)
    assert verdict.detail["pick"]["id"] == far.line.id
    assert verdict.detail["best"]["id"] == q.key.nearest.line.id
    assert verdict.detail["same"] is False
    assert any(line.startswith("Your pick, " + far.line.id) for line in verdict.explanation)
    assert any(line.startswith("The nearest line, " + q.key.nearest.line.id) for line in verdict.explanation)


def test_line_ids_are_matched_exactly_or_ignoring_case():
    card_ids = [line.id for line in CARD.lines]
    q = ask(1, 1)
    for line_id in card_ids[:5]:
        assert drill.grade(q, f"  {line_id} ").answer == line_id
    lettered = next(i for i in card_ids if any(ch.isalpha() for ch in i))
    assert drill.grade(q, lettered.lower()).answer == lettered


def test_an_unknown_line_id_is_an_answer_error_naming_it():
    q = ask(1, 1)
    with pytest.raises(AnswerError, match='no line "9999-9" on Mahjong Coach House Card 2026'):
        drill.grade(q, "9999-9")


@pytest.mark.parametrize("answer", [5, 2468, True, [], ["2468-1"], {"line": "2468-1"}, "", "   "])
def test_answers_of_the_wrong_shape_are_answer_errors(answer):
    with pytest.raises(AnswerError):
        drill.grade(ask(1, 1), answer)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_show_me_gives_the_best_line_and_is_not_correct(level):
    q = ask(level, 7)
    verdict = drill.grade(q, None)
    assert not verdict.correct and verdict.score == 0.0 and verdict.answer is None
    assert verdict.best == q.key.nearest.line.id
    assert verdict.explanation[0].startswith(f"The nearest line is {verdict.best}")
    assert verdict.detail["pick"] is None
    assert_cites_rules(verdict)


def test_public_question_shows_rack_and_exposure_but_no_key():
    q = ask(3, 1)
    data = q.public()
    assert data["rack"] == list(q.rack) and data["exposed"] == [list(e) for e in q.exposed]
    assert "key" not in data and "choices" not in data
    assert list(q.rack) == sorted(q.rack, key=tiles.sort_key)


# -- Runs hidden (issue 12): the reading is shown as the tiles it stands for.


def test_run_reading_is_shown_as_its_tiles_level_2_seed_34():
    verdict = drill.grade(ask(2, 34), None)
    best = verdict.detail["best"]
    assert best["id"] == "RUN-2"
    assert best["reading"] == [["6D", "6D"], ["7C"] * 4, ["8B"] * 4, ["9D", "9D"], ["F", "F"]]
    text = " ".join(verdict.explanation)
    assert "read here as pair of 6 Dots, kong of 7 Craks, kong of 8 Bams, pair of 9 Dots, pair of Flowers" in text


def test_every_explained_line_names_its_reading():
    for seed in range(40):
        verdict = drill.grade(ask(1, seed), None)
        fill_line = next(line for line in verdict.explanation if line.startswith("The nearest line, "))
        assert "(read here as " in fill_line


def test_the_verdict_page_shows_the_reading_as_tiles(client):
    from tests.support.pages import open_drill

    html, csrf, token = open_drill(client, "/drills/nearest-hand?level=2&seed=34")
    response = client.post("/drills/nearest-hand/answer", data={"token": token, "answer": "RUN-2", "csrf_token": csrf})
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    panel = body[body.index("line-panel__reading") :]
    panel = panel[: panel.index("</div>")]
    assert panel.count("<img") == 14 and 'alt="7 Crak"' in panel and 'alt="9 Dot"' in panel
