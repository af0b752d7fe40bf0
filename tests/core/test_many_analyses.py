"""The practice table's batched analyses (issue 26) give exactly what one
`analyze` a rack gives: `analyze_many` line by line, the coach's
`prospects_many` prospect by prospect and the shark's `live_lines`, on
every candidate discard of positions from self-play and on random racks
with exposures and many tiles seen (dead lines)."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from coach.notation import tiles
from coach.play.bots import live_lines, live_lines_each, play
from coach.play.hand import SEATS, Hand, deal
from coach.play.outlook import prospects_each, prospects_many, seen_tiles
from coach.reading.analysis import analyze
from coach.reading.many import analyze_many
from coach.reading.tiles_away import OUT_OF_REACH, Exposure, Holding, tables_for
from tests.support.cards import CARD

STRENGTHS = ({s: "shark" for s in SEATS}, {"East": "coach", "South": "shark", "West": "club", "North": "beginner"})


@cache
def positions() -> list[tuple[np.ndarray, tuple[Exposure, ...], np.ndarray]]:
    """(the candidate racks, their shared exposures, what the seat has seen) of
    the holdings in four self-play hands, seat by seat, every third action of play:
    a rack less each kind it holds, as a turn's or a call's discards are."""
    found = []
    for seed, bots in ((5, STRENGTHS[0]), (11, STRENGTHS[1]), (23, STRENGTHS[0]), (42, STRENGTHS[1])):
        actions = play(CARD, seed, bots).actions
        hand: Hand = deal(CARD, seed)
        for number, action in enumerate(actions):
            hand.apply(action)
            if hand.phase != "play" or number % 3:
                continue  # every third position of play: the hands' whole length, a third of the time
            for seat in SEATS:
                holding = hand.holding(seat)
                if holding.size < 14:
                    rack = list(holding.rack)
                    rack[tiles.JOKER] += 1  # as if a joker were drawn
                    holding = Holding(tuple(rack), holding.exposures)
                kinds = sorted(set(holding.rack_tiles()))
                racks = np.repeat(np.array([holding.rack], dtype=np.int16), len(kinds), axis=0)
                racks[np.arange(len(kinds)), kinds] -= 1
                found.append((racks, holding.exposures, seen_tiles(hand, seat)))
    return found


def same_as_analyze(racks: np.ndarray, exposures: tuple[Exposure, ...], seen: np.ndarray) -> None:
    many = analyze_many(CARD, racks, exposures, seen)
    seens = np.broadcast_to(seen, racks.shape)
    for n, rack in enumerate(racks):
        one = analyze(CARD, Holding(tuple(int(x) for x in rack), exposures), tuple(int(x) for x in seens[n]))
        assert [r.order for r in one.lines] == many.order[n].tolist()
        for r in one.lines:
            assert (r.distance if r.distance is not None else OUT_OF_REACH) == many.distance[n, r.order]
            assert r.dead == many.dead[n, r.order] and r.live_outs == many.live_outs[n, r.order]
            if r.reading is not None:
                assert tables_for(CARD).readings[many.best[n, r.order]] is r.reading


def test_analyze_many_is_analyze_on_every_candidate_discard_of_self_play():
    for racks, exposures, seen in positions():
        same_as_analyze(racks, exposures, seen)


def test_prospects_many_and_live_lines_are_the_one_at_a_time_path():
    for racks, exposures, seen in positions():
        # The coach's discards: each discard is seen once thrown, one seen row a rack.
        seens = np.repeat(seen[None, :], len(racks), axis=0)
        seens += racks.max(axis=0) - racks
        assert prospects_many(CARD, racks, exposures, seens) == prospects_each(CARD, racks, exposures, seens)
        assert prospects_many(CARD, racks, exposures, seen) == prospects_each(CARD, racks, exposures, seen)
        # The shark's: one seen for all.
        for mine, reference in zip(live_lines(CARD, racks, list(exposures), seen), live_lines_each(CARD, racks, list(exposures), seen)):
            assert mine.dtype == reference.dtype and np.array_equal(mine, reference)


SUITED = [t for t, code in enumerate(tiles.CODES) if code[0].isdigit()]


@st.composite
def crowded(draw: st.DrawFn) -> tuple[np.ndarray, tuple[Exposure, ...], np.ndarray]:
    """Racks sharing exposures (up to two, jokers in some) with much of the set seen:
    dead lines, lines short of jokers, every branch of the outs."""
    pool = list(tiles.WALL)
    order = draw(st.permutations(range(len(pool))))
    wall = [pool[i] for i in order]
    exposures: list[Exposure] = []
    for _ in range(draw(st.integers(0, 2))):
        tile = draw(st.sampled_from(SUITED))
        size = draw(st.sampled_from((3, 4)))
        jokers = draw(st.integers(0, 1))
        if wall.count(tile) >= size - jokers and wall.count(tiles.JOKER) >= jokers:
            for _ in range(size - jokers):
                wall.remove(tile)
            for _ in range(jokers):
                wall.remove(tiles.JOKER)
            exposures.append(Exposure(tile, size, jokers))
    keep = 14 - sum(e.size for e in exposures)
    rack, rest = wall[:keep], wall[keep:]
    seen = np.array(tiles.counts(rest[: draw(st.integers(0, 80))]), dtype=np.int16)
    held = np.array(tiles.counts(rack), dtype=np.int16)
    kinds = sorted(set(rack))
    racks = np.repeat(held[None, :], len(kinds), axis=0)
    racks[np.arange(len(kinds)), kinds] -= 1
    return racks, tuple(exposures), seen


@given(crowded())
def test_every_batched_analysis_is_the_one_at_a_time_path_on_random_racks(case):
    racks, exposures, seen = case
    same_as_analyze(racks, exposures, seen)
    assert prospects_many(CARD, racks, exposures, seen) == prospects_each(CARD, racks, exposures, seen)
    for mine, reference in zip(live_lines(CARD, racks, list(exposures), seen), live_lines_each(CARD, racks, list(exposures), seen)):
        assert np.array_equal(mine, reference)
