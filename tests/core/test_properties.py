"""Property-based tests of tiles away, Mah Jongg and the analysis.

Racks are drawn as real deals: a sample without replacement from the
152-tile set (T1), so no rack ever holds more copies of a tile than a set
has. Exposures are built legally: one natural tile, 3 to 6 tiles, some of
them jokers (K2, J1), and never more copies across rack and exposures than
the set holds. Hands that are Mah Jongg are built from a reading of a card
line, laid out exactly, with jokers only in groups of three or more (J1, J2).

Every property is checked against the house card (coach.notation.card.house_card()).
The settings are derandomized and use no example database, so a CI run
always tries the same examples.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach.notation import tiles
from coach.notation.card import Group, Line, Reading
from coach.reading.analysis import analyze, ranked
from coach.reading.tiles_away import (
    HAND_SIZE,
    OUT_OF_REACH,
    Exposure,
    Holding,
    Slots,
    batch_rank_exposed,
    fill,
    tables_for,
)
from coach.rules.mahjong import WINS, pay, score, winning_lines
from tests.support.cards import CARD
from tests.support.examples import examples

TABLES = tables_for(CARD)
LINES: tuple[Line, ...] = CARD.lines
OPEN_LINES = tuple(line for line in LINES if not line.concealed)
CONCEALED_INDEX = np.array([line.concealed for line in LINES], dtype=bool)
JOKER = tiles.JOKER
# The 152 tiles of a set, one entry per physical tile (T1, T3).
WALL: tuple[int, ...] = tuple(t for t in range(tiles.KINDS) for _ in range(tiles.COPIES[t]))


def _settings(default: int) -> settings:
    return settings(
        max_examples=examples(default),
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------------------
# Strategies


def _pool(supply: list[int]) -> list[int]:
    """The physical tiles still in the set, given copies left of each kind."""
    return [t for t in range(tiles.KINDS) for _ in range(supply[t])]


@st.composite
def sample_tiles(draw: st.DrawFn, supply: list[int], size: int) -> list[int]:
    """`size` physical tiles drawn without replacement from what is left."""
    pool = _pool(supply)
    size = min(size, len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return [pool[i] for i in picks]


@st.composite
def exposure_for(draw: st.DrawFn, tile: int, size: int, supply: list[int]) -> Exposure | None:
    """A legal exposure of `size` x `tile` from what is left, or None; takes it from `supply`."""
    # At least one natural (an exposure shows a real tile), jokers for the rest.
    low = max(0, size - supply[tile])
    high = min(size - 1, supply[JOKER])
    if low > high:
        return None
    jokers = draw(st.integers(low, high))
    supply[tile] -= size - jokers
    supply[JOKER] -= jokers
    return Exposure(tile, size, jokers)


@st.composite
def exposures(draw: st.DrawFn, supply: list[int], room: int) -> list[Exposure]:
    """0 to 3 legal exposures of at most `room` tiles in all.

    Half the time they are groups of 3+ of a reading of an exposed line,
    so that some readings stay in reach; otherwise any tile and size.
    """
    found: list[Exposure] = []
    used = 0
    if draw(st.booleans()):
        line = draw(st.sampled_from(OPEN_LINES))
        reading = draw(st.sampled_from(line.readings))
        for g in reading.groups:
            if not g.takes_jokers or used + g.size > room or not draw(st.booleans()):
                continue
            e = draw(exposure_for(g.tile, g.size, supply))
            if e is not None:
                found.append(e)
                used += g.size
    else:
        for _ in range(draw(st.integers(0, 3))):
            tile = draw(st.integers(0, tiles.NATURALS - 1))
            size = draw(st.integers(3, 6))
            if used + size > room:
                continue
            e = draw(exposure_for(tile, size, supply))
            if e is not None:
                found.append(e)
                used += size
    return found


@st.composite
def holdings(
    draw: st.DrawFn,
    sizes: st.SearchStrategy[int] = st.sampled_from([13, 14]),
    exposed: bool | None = None,
    jokers_at_least: int = 0,
) -> Holding:
    """A real deal of `sizes` tiles in all (rack plus exposures).

    exposed: True always tries exposures, False never, None sometimes.
    jokers_at_least: at least that many jokers on the rack (some racks get more).
    """
    total = draw(sizes)
    # Jokers are 8 of 152 tiles; some racks get extra ones so joker rules get exercised.
    jokers_at_least = min(total, max(jokers_at_least, draw(st.sampled_from([0, 0, 0, 1, 2, 3, 5]))))
    supply = list(tiles.COPIES)
    supply[JOKER] -= jokers_at_least
    with_exposures = draw(st.booleans()) if exposed is None else exposed
    shown = draw(exposures(supply, total - jokers_at_least)) if with_exposures else []
    room = total - jokers_at_least - sum(e.size for e in shown)
    rack = [JOKER] * jokers_at_least + draw(sample_tiles(supply, room))
    holding = Holding.of(rack, shown)
    _check_real(holding)
    return holding


def _check_real(holding: Holding) -> None:
    """The generator's own contract: a deal a real set can make, at most 14 tiles."""
    everything = Counter(holding.all_tiles())
    assert all(everything[t] <= tiles.COPIES[t] for t in everything)
    assert holding.size <= HAND_SIZE
    for e in holding.exposures:
        assert 3 <= e.size <= 6 and 0 <= e.jokers < e.size


@st.composite
def mah_jongg(draw: st.DrawFn, line: Line | None = None, expose: bool = True) -> tuple[Line, Reading, Holding]:
    """A reading of a line laid out exactly: 14 tiles at distance 0 on it.

    Singles and pairs are naturals (J2); a tile a set has too few of for
    its groups of 3+ is made up with jokers, and further slots of groups
    of 3+ may be jokers (J1), never more than 8 jokers. On an exposed line
    some groups of 3+ may be exposures (with at least one natural each).
    """
    if line is None:
        line = draw(st.sampled_from(LINES))
    reading = draw(st.sampled_from(line.readings))
    groups = reading.groups
    jokers = [0] * len(groups)
    # Jokers a set forces: more of a tile than its copies (completable() allows it).
    need = Counter()
    for g in groups:
        need[g.tile] += g.size
    for t, n in need.items():
        excess = n - tiles.COPIES[t]
        for i, g in enumerate(groups):
            if excess <= 0:
                break
            if g.tile == t and g.takes_jokers:
                take = min(excess, g.size - jokers[i])
                jokers[i] += take
                excess -= take
        assert excess <= 0
    # Optional extra jokers in groups of 3+; sometimes as many as the set has,
    # which makes hands that read as more than one line (H5).
    greedy = draw(st.booleans())
    for i, g in enumerate(groups):
        spare = tiles.COPIES[JOKER] - sum(jokers)
        if g.takes_jokers and spare > 0 and (greedy or draw(st.booleans())):
            most = min(spare, g.size - jokers[i])
            jokers[i] += most if greedy else draw(st.integers(0, most))
    rack: list[int] = []
    shown: list[Exposure] = []
    for i, g in enumerate(groups):
        exposable = expose and not line.concealed and g.takes_jokers and jokers[i] < g.size
        if exposable and draw(st.booleans()):
            shown.append(Exposure(g.tile, g.size, jokers[i]))
        else:
            rack += [g.tile] * (g.size - jokers[i]) + [JOKER] * jokers[i]
    holding = Holding.of(rack, shown)
    _check_real(holding)
    assert holding.size == HAND_SIZE
    return line, reading, holding


# ---------------------------------------------------------------------------
# Helpers


def line_distances_by_fill(holding: Holding) -> list[int]:
    """Each line's distance, straight from the definition (min over readings)."""
    return [min(fill(r, holding, line.concealed).distance for r in line.readings) for line in LINES]


def open_slots(reading: Reading, holding: Holding) -> tuple[list[Group], Counter, Counter]:
    """Groups not covered by exposures, and their small / big slots per tile."""
    groups = list(reading.groups)
    for e in holding.exposures:
        for i, g in enumerate(groups):
            if g.tile == e.tile and g.size == e.size:
                del groups[i]
                break
    small: Counter = Counter()
    big: Counter = Counter()
    for g in groups:
        (big if g.takes_jokers else small)[g.tile] += g.size
    return groups, small, big


def add_tile(holding: Holding, tile: int) -> Holding:
    return Holding.of(holding.rack_tiles() + [tile], holding.exposures)


def left_in_set(holding: Holding) -> list[int]:
    held = Counter(holding.all_tiles())
    return [tiles.COPIES[t] - held[t] for t in range(tiles.KINDS)]


# ---------------------------------------------------------------------------
# 1. Distance bounds (docs/card-format.md, "Tiles away", step 4)


@_settings(250)
@given(holdings(sizes=st.integers(0, 14)), st.data())
def test_distance_is_between_0_and_14(holding: Holding, data: st.DataObject) -> None:
    readings = TABLES.reading_distances(holding)
    lines = TABLES.line_distances(holding)
    for distances in (readings, lines):
        reachable = distances[distances != OUT_OF_REACH]
        assert np.all(reachable >= 0)
        assert np.all(reachable <= HAND_SIZE)
        # Only exposures can put a reading out of reach (steps 1 and 2).
        if not holding.exposures:
            assert np.all(distances != OUT_OF_REACH)
    # With no exposures, distance >= 14 - tiles held (each tile fills one slot).
    if not holding.exposures:
        assert np.all(readings >= HAND_SIZE - holding.size)
    # The definition itself, for the readings of one line.
    line = data.draw(st.sampled_from(LINES))
    for reading in line.readings:
        d = fill(reading, holding, line.concealed).distance
        assert d == OUT_OF_REACH or 0 <= d <= HAND_SIZE


# ---------------------------------------------------------------------------
# 2. Distance 0 is Mah Jongg (H1)


@_settings(200)
@given(mah_jongg())
def test_laid_out_reading_is_mah_jongg(case: tuple[Line, Reading, Holding]) -> None:
    line, reading, holding = case
    f = fill(reading, holding, line.concealed)
    assert f.distance == 0, (line.id, reading.printed(), holding)
    assert f.missing == () and f.unused == ()
    n = LINES.index(line)
    assert TABLES.line_distances(holding)[n] == 0
    wins = winning_lines(CARD, holding)
    assert line in [w.line for w in wins]
    for win in WINS:
        payment = score(CARD, holding, win)
        assert payment.line is not None, (line.id, win)
        # H5: paid as the line that pays most, so at least what this line pays.
        assert payment.total >= pay(line, win, payment.jokerless)[2]
        assert payment.total == max(pay(w.line, win, payment.jokerless)[2] for w in wins)


@st.composite
def fourteen_tiles(draw: st.DrawFn) -> Holding:
    """14 tiles: a random deal, or a Mah Jongg hand with perhaps one tile changed."""
    if draw(st.integers(0, 2)) == 0:
        return draw(holdings(sizes=st.just(14)))
    _, _, holding = draw(mah_jongg())
    if draw(st.booleans()) and sum(holding.rack):
        rack = holding.rack_tiles()
        out = draw(st.integers(0, len(rack) - 1))
        supply = left_in_set(holding)
        supply[rack[out]] = 0  # change it for a different tile
        new = draw(sample_tiles(supply, 1))
        rack[out:out + 1] = new
        holding = Holding.of(rack, holding.exposures)
        _check_real(holding)
    return holding


@_settings(250)
@given(fourteen_tiles())
def test_fourteen_tiles_at_distance_0_iff_winning_lines(holding: Holding) -> None:
    distances = TABLES.line_distances(holding)
    wins = winning_lines(CARD, holding)
    assert (distances == 0).any() == bool(wins)
    assert {w.line.id for w in wins} == {LINES[n].id for n in np.flatnonzero(distances == 0)}
    for w in wins:
        assert fill(w.reading, holding, w.line.concealed).distance == 0
    payment = score(CARD, holding, "self")
    assert (payment.line is not None) == bool(wins)


@_settings(200)
@given(holdings(sizes=st.just(13)))
def test_thirteen_tiles_are_never_mah_jongg(holding: Holding) -> None:
    assert np.all(TABLES.reading_distances(holding) >= 1)
    assert winning_lines(CARD, holding) == []


@_settings(150)
@given(mah_jongg(), st.data())
def test_mah_jongg_less_one_tile_is_one_away(case: tuple[Line, Reading, Holding], data: st.DataObject) -> None:
    line, reading, holding = case
    rack = holding.rack_tiles()
    if not rack:
        return
    rack.pop(data.draw(st.integers(0, len(rack) - 1)))
    short = Holding.of(rack, holding.exposures)
    assert fill(reading, short, line.concealed).distance == 1
    assert TABLES.line_distances(short)[LINES.index(line)] == 1


def test_every_line_first_reading_scores_at_least_its_value() -> None:
    """H5: a hand laid out from each line's first reading pays as that line or a better one."""
    for line in LINES:
        reading = line.readings[0]
        need = Counter()
        for g in reading.groups:
            need[g.tile] += g.size
        rack: list[int] = []
        for g in reading.groups:
            naturals = g.size
            if g.takes_jokers:
                naturals = min(g.size, max(0, tiles.COPIES[g.tile] - (need[g.tile] - g.size)))
                need[g.tile] -= g.size - naturals
            rack += [g.tile] * naturals + [JOKER] * (g.size - naturals)
        holding = Holding.of(rack)
        _check_real(holding)
        assert holding.size == HAND_SIZE
        assert fill(reading, holding, line.concealed).distance == 0, line.id
        wins = winning_lines(CARD, holding)
        assert line in [w.line for w in wins], line.id
        for win in WINS:
            payment = score(CARD, holding, win)
            assert payment.line is not None, line.id
            assert payment.line in [w.line for w in wins]
            assert payment.total >= pay(line, win, payment.jokerless)[2], (line.id, win)
            best = max(pay(w.line, win, payment.jokerless)[2] for w in wins)
            assert payment.total == best


def test_hand_reading_as_two_lines_is_paid_as_the_better_one() -> None:
    """H5, a fixed example: four Reds, two 1 Bams and eight jokers complete
    QUINT-3 (FFFFF RRRRR 1111B, 40) and QUINT-5 (RRRRR GGGGG 1111B, 45)."""
    holding = Holding.of(tiles.parse("RD RD RD RD 1B 1B J J J J J J J J"))
    assert {w.line.id for w in winning_lines(CARD, holding)} == {"QUINT-3", "QUINT-5"}
    for win in WINS:
        payment = score(CARD, holding, win)
        assert payment.line is not None and payment.line.id == "QUINT-5"
        assert "H5" in payment.rules


# ---------------------------------------------------------------------------
# 3. One more tile: at most one closer, never farther


@_settings(250)
@given(holdings(sizes=st.integers(0, 13)), st.data())
def test_adding_a_tile_lowers_distance_by_at_most_one(holding: Holding, data: st.DataObject) -> None:
    extra = data.draw(sample_tiles(left_in_set(holding), 1))
    if not extra:
        return
    bigger = add_tile(holding, extra[0])
    before = TABLES.line_distances(holding).astype(int)
    after = TABLES.line_distances(bigger).astype(int)
    reach = before != OUT_OF_REACH
    assert np.array_equal(reach, after != OUT_OF_REACH)  # rack tiles never change reachability
    drop = before[reach] - after[reach]
    assert np.all(drop >= 0) and np.all(drop <= 1), (holding, extra)
    # The same, reading by reading, for the definition on one line.
    line = data.draw(st.sampled_from(LINES))
    for reading in line.readings:
        a = fill(reading, holding, line.concealed).distance
        b = fill(reading, bigger, line.concealed).distance
        if a == OUT_OF_REACH:
            assert b == OUT_OF_REACH
        else:
            assert a - 1 <= b <= a


@_settings(150)
@given(holdings(sizes=st.integers(3, 13), exposed=True), st.data())
def test_adding_a_tile_with_exposures(holding: Holding, data: st.DataObject) -> None:
    extra = data.draw(sample_tiles(left_in_set(holding), 1))
    if not extra:
        return
    bigger = add_tile(holding, extra[0])
    before = TABLES.reading_distances(holding).astype(int)
    after = TABLES.reading_distances(bigger).astype(int)
    assert np.array_equal(before == OUT_OF_REACH, after == OUT_OF_REACH)
    reach = before != OUT_OF_REACH
    drop = before[reach] - after[reach]
    assert np.all(drop >= 0) and np.all(drop <= 1), (holding, extra)


# ---------------------------------------------------------------------------
# 4. Swapping a joker for the tile it stands for (J1, J4, J7)


@_settings(250)
@given(holdings(sizes=st.integers(1, 14), jokers_at_least=1), st.data())
def test_joker_for_its_natural_never_raises_distance(holding: Holding, data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(LINES))
    reading = data.draw(st.sampled_from(line.readings))
    before = fill(reading, holding, line.concealed)
    if not before.reachable:
        return
    _, small, big = open_slots(reading, holding)
    left = left_in_set(holding)
    # Tiles a joker can stand for: a group of 3+ of the reading with a slot
    # no natural fills (naturals go to singles and pairs first).
    standing_for = [
        t for t in sorted(big)
        if holding.rack[t] < small[t] + big[t] and left[t] > 0
    ]
    if not standing_for:
        return
    tile = data.draw(st.sampled_from(standing_for))
    rack = holding.rack_tiles()
    rack.remove(JOKER)
    swapped = Holding.of(rack + [tile], holding.exposures)
    _check_real(swapped)
    after = fill(reading, swapped, line.concealed)
    assert after.distance <= before.distance, (reading.printed(), holding, tiles.CODES[tile])
    fast_before = TABLES.reading_distances(holding)
    fast_after = TABLES.reading_distances(swapped)
    h = TABLES.starts[LINES.index(line)] + line.readings.index(reading)
    assert fast_after[h] <= fast_before[h]


# ---------------------------------------------------------------------------
# 5. The fast tables agree with the definition


@_settings(200)
@given(holdings(sizes=st.integers(0, 14)))
def test_tables_agree_with_fill(holding: Holding) -> None:
    fast = TABLES.reading_distances(holding)
    slow = [fill(r, holding, bool(c)).distance for r, c in zip(TABLES.readings, TABLES.concealed)]
    mismatches = [
        (TABLES.lines[TABLES.line_of[h]].id, TABLES.readings[h].printed(), int(fast[h]), slow[h])
        for h in range(len(slow))
        if fast[h] != slow[h]
    ]
    assert not mismatches, (holding, mismatches[:3])
    lines = TABLES.line_distances(holding)
    for n, line in enumerate(LINES):
        s = TABLES.starts[n]
        assert lines[n] == min(slow[s : s + len(line.readings)])


@_settings(150)
@given(holdings(sizes=st.integers(0, 14), exposed=False), st.data())
def test_slots_agree_with_fill(holding: Holding, data: st.DataObject) -> None:
    """`Slots` (a bare rack filled from its counts) gives `fill`'s distance and
    unused tiles, in the same order, for any reading, East's 14 tiles and a
    drawn one too (the nearest-hand deal draws onto a full rack)."""
    if data.draw(st.booleans()):  # one more tile drawn, up to 15
        left = [t for t in range(tiles.KINDS) if holding.rack[t] < tiles.COPIES[t]]
        holding = Holding.of([*holding.rack_tiles(), data.draw(st.sampled_from(left))])
    nearest = int(np.argmin(TABLES.reading_distances(holding)))
    picked = data.draw(st.lists(st.integers(0, len(TABLES.readings) - 1), min_size=1, max_size=40))
    for h in [nearest, *picked]:
        reading, slots = TABLES.readings[h], Slots.of(TABLES.readings[h])
        slow = fill(reading, holding, bool(TABLES.concealed[h]))
        assert (slots.distance(holding.rack), slots.unused(holding.rack)) == (slow.distance, list(slow.unused)), (holding, reading.printed())
        assert all(slots.takes(t) == sum(g.size for g in reading.groups if g.tile == t) for t in range(tiles.KINDS))


@_settings(150)
@given(st.lists(holdings(sizes=st.integers(0, 14), exposed=False), min_size=1, max_size=6))
def test_batch_agrees_with_one_by_one(racks: list[Holding]) -> None:
    matrix = np.array([h.rack for h in racks], dtype=np.int16)
    batch = TABLES.batch_reading_distances(matrix)
    lines = TABLES.batch_line_distances(matrix)
    assert batch.shape == (len(racks), len(TABLES.readings))
    for row, holding in enumerate(racks):
        assert np.array_equal(batch[row], TABLES.reading_distances(holding)), holding
        assert np.array_equal(lines[row], TABLES.line_distances(holding)), holding


@_settings(150)
@given(holdings(sizes=st.integers(3, 14), exposed=True))
def test_batch_with_exposures_agrees_with_one_by_one(holding: Holding) -> None:
    """The bots' fast discard path: every rack one tile short, the exposures shared."""
    kinds = sorted({t for t, c in enumerate(holding.rack) if c}) or [None]
    rows = np.array([[c - (t == k) for t, c in enumerate(holding.rack)] for k in kinds], dtype=np.int16)
    batch = TABLES.batch_reading_distances(rows, holding.exposures)
    lines = TABLES.batch_line_distances(rows, holding.exposures)
    for n, row in enumerate(rows):
        one = Holding(tuple(int(x) for x in row), holding.exposures)
        assert np.array_equal(batch[n], TABLES.reading_distances(one)), one
        assert np.array_equal(lines[n], TABLES.line_distances(one)), one


@st.composite
def seen_for(draw: st.DrawFn, holding: Holding) -> tuple[int, ...]:
    """Tiles seen on the table: drawn from what the holding leaves of the set."""
    supply = [c - h for c, h in zip(tiles.COPIES, holding.rack)]
    picked = draw(sample_tiles(supply, draw(st.sampled_from([0, 0, 5, 20, 60]))))
    return tuple(tiles.counts(picked))


@_settings(120)
@given(st.lists(holdings(sizes=st.sampled_from([13, 14]), exposed=False), min_size=1, max_size=5), st.data())
def test_batch_rank_agrees_with_fill_and_analyze(racks: list[Holding], data: st.DataObject) -> None:
    """The batch path (issue 13): each rack's lines in analyze's order, with the
    same best reading, live outs and deadness, and distances as fill() says."""
    seen = [data.draw(seen_for(h)) for h in racks]
    ranking = TABLES.batch_rank(np.array([h.rack for h in racks]), np.array(seen))
    for row, holding in enumerate(racks):
        result = analyze(CARD, holding, seen[row])
        got = [
            (LINES[n].id, int(ranking.distance[row, n]), TABLES.readings[ranking.best[row, n]],
             int(ranking.live_outs[row, n]), bool(ranking.dead[row, n]))
            for n in ranking.order[row]
        ]
        assert got == [(r.line.id, r.distance, r.reading, r.live_outs, r.dead) for r in result.lines], holding
        for n, line in enumerate(LINES):
            slow = min(fill(r, holding, line.concealed).distance for r in line.readings)
            assert ranking.distance[row, n] == slow
            best = TABLES.readings[ranking.best[row, n]]
            assert best in line.readings and fill(best, holding, line.concealed).distance == slow


@_settings(200)
@given(holdings(sizes=st.integers(0, 14), exposed=False), st.sampled_from([None, 0, 1, 2]))
def test_a_bare_rack_ranked_by_the_batch_tables_as_by_analyze(holding: Holding, within: int | None) -> None:
    """`analyze` of a bare rack with nothing seen reads the batch tables
    (`rank_rack`, issue 26): every line's best reading, distance, deadness and
    live outs, and the order, as the general path (`ranked`) gives them."""
    TABLES.warm_batch()
    assert TABLES.batch_ready
    found = TABLES.rank_rack(holding.rack)
    general = ranked(TABLES, holding)
    assert (found.best.tolist(), found.distance.tolist(), found.dead.tolist(), found.live_outs.tolist(), found.order.tolist()) == general
    batch = TABLES.batch_rank(np.array([holding.rack], dtype=np.int16))  # one rack of a batch: the same row
    assert [a.tolist() for a in (batch.best[0], batch.distance[0], batch.dead[0], batch.live_outs[0], batch.order[0])] == list(general)
    fast = analyze(CARD, holding, within=within)
    slow = ranked(TABLES, holding, (0,) * tiles.KINDS if within == 0 else None, within)  # nothing seen, said either way
    assert [(r.order, r.reading, r.distance, r.dead, r.live_outs) for r in fast.lines] == [
        (n, TABLES.readings[slow[0][n]], slow[1][n], slow[2][n], slow[3][n]) for n in slow[4]
    ]


@st.composite
def seen_beside(draw: st.DrawFn, holding: Holding) -> tuple[int, ...]:
    """Tiles seen on the table: drawn from what the holding, exposures and all, leaves of the set."""
    picked = draw(sample_tiles(left_in_set(holding), draw(st.sampled_from([0, 0, 5, 20, 60]))))
    return tuple(tiles.counts(picked))


EXPOSED_FITS: dict = {}  # shared by every example, as one batch run shares it over its chunks


@_settings(150)
@given(st.lists(holdings(sizes=st.sampled_from([13, 14]), exposed=True), min_size=1, max_size=6), st.data())
def test_batch_rank_exposed_agrees_with_fill_and_analyze(racks: list[Holding], data: st.DataObject) -> None:
    """The batch path for racks with exposures (issue 26: the bar's mix), each
    rack its own: analyze's order, best reading, live outs and deadness, and
    every line's distance as fill() says, the readable definition."""
    seen = [data.draw(seen_beside(h)) for h in racks]
    ranking = batch_rank_exposed(
        TABLES, np.array([h.rack for h in racks]), [h.exposures for h in racks], np.array(seen), EXPOSED_FITS
    )
    for row, holding in enumerate(racks):
        result = analyze(CARD, holding, seen[row])
        got = [
            (LINES[n].id, int(ranking.distance[row, n]), TABLES.readings[ranking.best[row, n]],
             int(ranking.live_outs[row, n]), bool(ranking.dead[row, n]))
            for n in ranking.order[row]
        ]
        want = [(r.line.id, OUT_OF_REACH if r.distance is None else r.distance,
                 TABLES.readings[TABLES.starts[r.order]] if r.reading is None else r.reading, r.live_outs, r.dead)
                for r in result.lines]
        assert got == want, holding
        for n, line in enumerate(LINES):
            slow = min(fill(r, holding, line.concealed).distance for r in line.readings)
            assert ranking.distance[row, n] == slow
            if slow != OUT_OF_REACH:
                best = TABLES.readings[ranking.best[row, n]]
                assert best in line.readings and fill(best, holding, line.concealed).distance == slow


# ---------------------------------------------------------------------------
# 6. A concealed line allows no exposure (H4)


@_settings(200)
@given(holdings(sizes=st.integers(3, 14), exposed=True))
def test_concealed_lines_out_of_reach_with_exposures(holding: Holding) -> None:
    if not holding.exposures:
        return
    lines = TABLES.line_distances(holding)
    assert np.all(lines[CONCEALED_INDEX] == OUT_OF_REACH)
    assert np.all(TABLES.reading_distances(holding)[TABLES.concealed] == OUT_OF_REACH)
    for line in LINES:
        if line.concealed:
            assert all(not fill(r, holding, True).reachable for r in line.readings)
    result = analyze(CARD, holding)
    for r in result.lines:
        if r.line.concealed:
            assert r.distance is None and r.reading is None
            assert "H4" in (r.reason or "")


# ---------------------------------------------------------------------------
# 7. Jokers never fill singles or pairs (J1, J2)


@_settings(200)
@given(holdings(sizes=st.integers(0, 14)), st.data())
def test_jokers_only_in_groups_of_three_or_more(holding: Holding, data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(LINES))
    for reading in line.readings:
        f = fill(reading, holding, line.concealed)
        if not f.reachable:
            continue
        groups, small, big = open_slots(reading, holding)
        # Naturals go to singles and pairs first; what is left of a tile fills its groups of 3+.
        natural_in_big = sum(
            max(0, min(holding.rack[t], small[t] + big[t]) - small[t]) for t in big
        )
        empty_big = sum(big.values()) - natural_in_big
        used_jokers = f.used.count(JOKER)
        assert used_jokers <= empty_big, (reading.printed(), holding)
        assert used_jokers == min(holding.jokers, empty_big)
        for m in f.missing:
            assert m.joker_ok == m.group.takes_jokers
            if not m.joker_ok:
                assert m.group.size <= 2
        # Singles and pairs are only ever short of naturals the rack lacks.
        for m in f.missing:
            if m.group.size <= 2:
                assert holding.rack[m.tile] < small[m.tile] + big[m.tile]
        # Missing slots add up to the distance.
        assert sum(m.count for m in f.missing) == f.distance
        if line.singles_and_pairs:
            assert JOKER not in f.used


# ---------------------------------------------------------------------------
# 8. The analysis ranks every line and reports consistent fills


def _rank_key(r) -> tuple:
    return (r.distance is None, r.distance if r.distance is not None else 0, -r.live_outs, -r.line.value)


@_settings(150)
@given(holdings(sizes=st.sampled_from([13, 14])))
def test_analysis_ranking_and_fills(holding: Holding) -> None:
    result = analyze(CARD, holding)
    assert len(result.lines) == len(LINES)
    assert {r.line.id for r in result.lines} == {line.id for line in LINES}
    keys = [_rank_key(r) for r in result.lines]
    assert keys == sorted(keys)
    distances = dict(zip((line.id for line in LINES), TABLES.line_distances(holding)))
    rack = Counter(holding.rack_tiles())
    for r in result.lines:
        expected = int(distances[r.line.id])
        assert r.distance == (None if expected == OUT_OF_REACH else expected)
        f = r.fill
        if r.distance is None:
            assert f is None and r.live_outs == 0
            continue
        assert r.reading in r.line.readings
        assert f.distance == r.distance
        assert Counter(f.used) + Counter(f.unused) == rack
        assert r.live_outs >= 0
        if r.dead:
            assert r.live_outs == 0


# ---------------------------------------------------------------------------
# 9. Card expansion


def test_every_reading_has_14_tiles_and_readings_are_distinct() -> None:
    for line in LINES:
        assert line.readings, line.id
        keys = set()
        for reading in line.readings:
            assert sum(g.size for g in reading.groups) == HAND_SIZE, line.id
            assert len(reading.tiles) == HAND_SIZE, line.id
            assert all(1 <= g.size <= 6 for g in reading.groups)
            assert all(0 <= g.tile < tiles.NATURALS for g in reading.groups)
            keys.add(tuple(sorted((g.tile, g.size) for g in reading.groups)))
        assert len(keys) == len(line.readings), line.id
