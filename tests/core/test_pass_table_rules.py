"""The Charleston advice at a table of its own (coach.advice.passes with
`rules`): blanks are never in a reading and are kept when a pass without
them is as good (TR1), a joker may go only in the courtesy pass (TR3), and a
three-player table has no across or courtesy pass (TR4). By the League's
rules nothing changes (test_pass_verdicts.py, the frozen questions)."""

from __future__ import annotations

import numpy as np
import pytest

from coach.advice.passes import (
    MARGIN,
    candidate_passes,
    courtesy_advice,
    evaluate_pass,
    explain_pass,
    kernel,
    question_options,
    second_charleston_vote,
    unseen_pool,
    with_pass,
)
from coach.advice.passes.evaluation import kept_first
from coach.advice.passes.words import BLANK_POLICY
from coach.notation import tiles
from coach.reading.tiles_away import Holding, tables_for
from coach.rules.blanks import BLANK, split
from coach.rules.charleston import PassError
from coach.rules.table_rules import LEAGUE, TableRules
from tests.support.cards import CARD

BLANKS = TableRules(blanks=4)
COURTESY_JOKER = TableRules(joker_in_courtesy=True)
THREE = TableRules(players=3)


def rack(text: str, blanks: int = 0) -> list[int]:
    return [tiles.INDEX[c] for c in tiles.parse(text)] + [BLANK] * blanks


WITH_BLANK = rack("1D 1D 3D 4D 5D 1B 7B 8B 3C 4C N J", blanks=1)


def test_TR1_blanks_are_passed_like_any_tile_and_may_come_back():
    passes = candidate_passes(WITH_BLANK, "first-right", BLANKS)
    assert any(BLANK in own for own, _ in passes) and not any(tiles.JOKER in own for own, _ in passes)
    assert candidate_passes(split(WITH_BLANK)[0], "first-right") == candidate_passes(split(WITH_BLANK)[0], "first-right", BLANKS)
    pool = unseen_pool(WITH_BLANK, rules=BLANKS)
    assert pool.count(BLANK) == 3 and tiles.JOKER not in pool  # four in the set, one on the rack
    assert unseen_pool(split(WITH_BLANK)[0]) == [t for t in pool if t != BLANK]


def test_TR1_a_blank_is_never_in_a_reading_the_kernel_scores_a_given_blank_by_the_definition():
    """A pass giving a blank receives three tiles (the kernel's `takes`); a
    received blank changes nothing. Scored by the kernel and by the
    definition (every rack after the pass and the draw, its nearest line)."""
    held = split(WITH_BLANK)[0]
    candidates = [own for own in candidate_passes(WITH_BLANK, "first-right", BLANKS) if BLANK in own[0]][:6]
    takes = np.array([len(own) for own, _ in candidates])
    scorer = kernel.Scorer(CARD, held, candidates, kernel.racks_after(held, candidates), takes=takes)
    pool = unseen_pool(WITH_BLANK, rules=BLANKS)
    draws = kernel.sample_draws(pool, 200, np.random.default_rng(7))
    assert (draws == BLANK).any()
    tables = tables_for(CARD)
    for i, (own, _) in enumerate(candidates):
        scored = scorer.best(np.full(len(draws), i), draws)
        rows = []
        for draw in draws:
            after = list(held)
            for t in own:
                if t != BLANK:
                    after.remove(t)
            after += [t for t in draw if t != BLANK]
            rows.append(tiles.counts(after))
        truth = tables.batch_reading_distances(np.array(rows, dtype=np.int16)).min(axis=1)
        assert scored.tolist() == truth.tolist(), own


def test_TR1_the_coach_keeps_its_blanks_when_a_pass_without_them_is_as_good():
    kept = preferred = 0
    options = question_options()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        wall = list(tiles.WALL) + [BLANK] * 8
        rng.shuffle(wall)
        dealt = [int(t) for t in wall[:13]]
        if BLANK not in dealt or sum(1 for t in dealt if t != tiles.JOKER) < 3:
            continue
        advice = evaluate_pass(CARD, dealt, "first-right", seed=seed, options=options, rules=TableRules(blanks=8))
        best = advice.best
        if BLANK in best.tiles:
            # No pass giving fewer blanks, worked out exactly, is as good.
            assert not [o for o in advice.options if o.exact and kept_first(dealt, o.tiles) < kept_first(dealt, best.tiles)
                        and o.as_good_as_best and o.behind <= MARGIN]
        else:
            kept += 1
            # The nearest pass in tiles away gave a blank, and a pass as good that keeps it is the best instead.
            preferred += any(BLANK in o.tiles and o.exact and o.behind <= 0 for o in advice.options[1:])
        assert advice.current == int(tables_for(CARD).line_distances(Holding.of(split(dealt)[0])).min())
        text = " ".join(explain_pass(advice, best, yours=False))
        assert BLANK_POLICY in text and "(TR1)" in text
    assert kept > 3 and preferred > 0


def test_TR1_a_learners_pass_with_a_blank_is_worked_out_exactly():
    advice = evaluate_pass(CARD, WITH_BLANK, "first-right", seed=3, options=question_options(), rules=BLANKS)
    mine = [t for t in WITH_BLANK if t not in (tiles.JOKER,)][:2] + [BLANK]
    graded = with_pass(advice, mine)
    option = graded.option(mine)
    assert option.exact and option.expected >= 0
    with pytest.raises(PassError, match="TR1"):
        with_pass(evaluate_pass(CARD, split(WITH_BLANK)[0], "first-right", seed=3, options=question_options()), mine)


def test_TR3_a_joker_may_go_in_the_courtesy_pass_only_and_the_coach_keeps_it():
    held = rack("F F N N GD J J S 5D 9C 2B 3B 4B")
    courtesy = candidate_passes(held, "courtesy", COURTESY_JOKER)
    assert any(tiles.JOKER in own for own, _ in courtesy)
    assert not any(tiles.JOKER in own for own, _ in candidate_passes(held, "first-right", COURTESY_JOKER))
    assert not any(tiles.JOKER in own for own, _ in candidate_passes(held, "courtesy"))
    # The coach gives a joker only where no pass keeping more jokers is as good as the nearest pass
    # (kept first of all, `kept_first`); here two jokers on an S&P-minded rack: it keeps one of them at least.
    advice = courtesy_advice(CARD, rack("F F N N GD J J S 5D 9C 2B 3B 4B"), seed=1, rules=COURTESY_JOKER)
    nearest = min(advice.options, key=lambda o: o.expected)
    assert kept_first(advice.rack, advice.best.tiles) <= kept_first(advice.rack, nearest.tiles)
    assert advice.best.tiles.count(tiles.JOKER) < nearest.tiles.count(tiles.JOKER)
    assert tiles.JOKER not in courtesy_advice(CARD, rack("5D 5D 5D 7B 7B 7B J N N 2C 3C 9C WD"), seed=1, rules=COURTESY_JOKER).best.tiles


def test_TR4_no_across_and_no_courtesy_pass_with_three_and_the_first_pass_still_goes_right():
    held = split(WITH_BLANK)[0]
    for which in ("first-across", "second-across", "courtesy"):
        with pytest.raises(PassError, match="TR4"):
            evaluate_pass(CARD, held, which, seed=1, rules=THREE)
    with pytest.raises(PassError, match="TR4"):
        courtesy_advice(CARD, held, seed=1, rules=THREE)
    three = evaluate_pass(CARD, held, "first-right", seed=1, options=question_options(), rules=THREE)
    league = evaluate_pass(CARD, held, "first-right", seed=1, options=question_options(), rules=LEAGUE)
    assert three.options == league.options  # North's tiles stay in the wall, unseen: the same pool
    assert second_charleston_vote(CARD, held, seed=1, rules=THREE).stop == second_charleston_vote(CARD, held, seed=1).stop
