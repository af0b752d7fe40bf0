"""Analysis: best reading, used/missing/unused, dead readings, live outs, ranking."""

import random

from coach.notation import tiles
from coach.notation.card import house_card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import Holding, parse_exposure, read_holding
from tests.support.cards import holding, make_card


def seen_counts(text: str) -> tuple[int, ...]:
    return tuple(tiles.counts(tiles.parse(text)))


WINDS = make_card(("W1", "NNN EEE WWW SSS FF", 25))


def test_live_outs_count_unseen_tiles_that_bring_the_hand_closer():
    h = holding("N N N E E E W W W S S F J")
    r = analyze(WINDS, h).result("W1")
    assert r.distance == 1
    # Only a Flower helps: the joker already fills the South pung, so
    # another South or joker would have nowhere to go.
    assert r.live_outs == 7 and not r.dead


def test_J2_missing_pair_tile_all_seen_makes_the_reading_dead():
    h = holding("N N N E E E W W W S S F J")
    r = analyze(WINDS, h, seen_counts("F F F F F F F")).result("W1")
    assert r.dead and r.live_outs == 0 and r.distance == 1


def test_a_missing_pung_slot_stays_alive_while_jokers_are_unseen():
    card = make_card(("K", "NNNN EEEE WWW SSS", 25))
    h = holding("N N N E E E E W W W S S S")
    r = analyze(card, h, seen_counts("N")).result("K")
    assert (r.distance, r.dead, r.live_outs) == (1, False, 8)  # the 8 jokers
    r = analyze(card, h, seen_counts("N J J J J J J J J")).result("K")
    assert r.dead and r.live_outs == 0


def test_own_exposure_uses_up_copies():
    # Exposed pung of North (two naturals); the line also needs a North
    # pair, which only naturals can fill: two Norths are left unseen.
    card = make_card(("L", "NNN NN EEEE WWW SS", 25))
    h = holding("E E E E W W W S S", "N N J")
    r = analyze(card, h).result("L")
    assert (r.distance, r.dead, r.live_outs) == (2, False, 2)
    r = analyze(card, h, seen_counts("N")).result("L")
    assert r.dead
    # With three natural Norths exposed, the pair can never be made.
    h = holding("E E E E W W W S S", "N N N")
    assert analyze(card, h).result("L").dead


def test_ranking_distance_then_live_outs_then_value():
    card = make_card(
        ("FAR", "NNNN EEEE WWWW SS", 75),
        ("CHEAP", "NNN EEE WWW SSS FF", 25),
        ("DEAR", "NNN EEE WWW SSS FF", 50),
        ("OUTS", "NNN EEE WWW SSSS F", 30),
    )
    h = holding("N N N E E E W W W S S F J")
    result = analyze(card, h)
    ids = [r.line.id for r in result.lines]
    # OUTS, DEAR and CHEAP are all 1 away; OUTS has more live outs (Souths,
    # Flowers... and jokers) so ranks first; DEAR beats CHEAP on value.
    by_id = {r.line.id: r for r in result.lines}
    assert by_id["OUTS"].live_outs > by_id["DEAR"].live_outs == by_id["CHEAP"].live_outs
    assert ids == ["OUTS", "DEAR", "CHEAP", "FAR"]


def test_best_reading_names_actual_suits_and_what_is_used_missing_unused():
    card = make_card(("L", "111a 222b 3333a FFFF", 25))
    h = holding("1B 1B 1B 2C 2C 3B 3B J F F F 9D N")
    r = analyze(card, h).result("L")
    assert dict(r.reading.suits) == {"a": "B", "b": "C"}
    f = r.fill
    assert sorted(tiles.CODES[t] for t in f.used) == sorted("1B 1B 1B 2C 2C 3B 3B J F F F".split())
    assert sorted(tiles.CODES[t] for t in f.unused) == ["9D", "N"]
    assert r.distance == 14 - 11
    # The joker fills one of the three open slots; each may take a joker.
    assert sum(m.count for m in f.missing) == 3 and all(m.joker_ok for m in f.missing)
    assert {tiles.CODES[m.tile] for m in f.missing} <= {"2C", "3B", "F"}
    data = r.to_json()
    assert data["reading"]["suits"] == {"a": "B", "b": "C"}
    assert data["uses"] and data["unused"] == ["9D", "N"]


def test_json_lists_every_line_with_the_contract_keys():
    h, seen = read_holding("2B 2B 0 2C 6C 6C 2D 2D J F F N E")
    data = analyze(house_card(), h, seen).to_json()
    assert len(data["hands"]) == len(house_card().lines)
    for hand in data["hands"]:
        assert {"id", "section", "distance", "value", "concealed"} <= set(hand)
    distances = [hand["distance"] for hand in data["hands"]]
    assert distances == sorted(distances, key=lambda d: 99 if d is None else d)


def test_a_won_hand_reads_distance_zero_and_nothing_missing():
    card = make_card(("W1", "NNN EEE WWW SSS FF", 25))
    r = analyze(card, holding("N N N E E E W W W S S J F F")).result("W1")
    assert r.distance == 0 and r.fill.missing == () and r.fill.unused == ()


def test_best_reading_prefers_a_live_one_among_equals():
    card = make_card(("P", "11a NNNN EEEE SSSS", 25))
    h = holding("N N N N E E E E S S S S 9C")
    seen = seen_counts("1D 1D 1D 1D 1B 1B 1B")
    r = analyze(card, h, seen).result("P")
    assert r.distance == 2 and not r.dead
    assert dict(r.reading.suits) == {"a": "C"}
    assert r.live_outs == 4


def test_analyze_rack_is_analyze_of_the_bare_rack_kept_per_card():
    """Issue 13: a first-pass question, its hint and its grade share one analysis of the rack."""
    from coach.reading import analysis as module

    def kinds(text: str) -> list[int]:
        return [tiles.INDEX[code] for code in tiles.parse(text)]

    card = house_card()
    rack = kinds("1B 1B 2B 3B 5D 5D N N E GD RD F J")
    kept = module.analyze_rack(card, list(reversed(rack)))
    assert kept == analyze(card, holding("1B 1B 2B 3B 5D 5D N N E GD RD F J"))
    assert module.analyze_rack(card, rack) is kept  # any order of the same tiles
    other = module.analyze_rack(WINDS, rack)  # another card: its own analysis
    assert other is not kept and other.card is WINDS and other == analyze(WINDS, holding("1B 1B 2B 3B 5D 5D N N E GD RD F J"))
    import itertools

    pairs = list(itertools.combinations(range(27), 2))[: module.RACKS_KEPT + 5]
    for a, b in pairs:  # as many different racks and more: the oldest go
        module.analyze_rack(WINDS, kinds("N N N E E E W W W S S") + [a, b])
    assert len(module._RACKS) == module.RACKS_KEPT
    assert module.analyze_rack(card, rack) is not kept  # long gone, made afresh


def test_within_keeps_the_near_lines_of_the_full_analysis_exactly():
    card = house_card()
    rng = random.Random(5)
    wall = list(tiles.WALL)
    for n in range(60):
        rng.shuffle(wall)
        exposures = (parse_exposure("F F F J"),) if n % 3 == 0 else ()
        h = Holding.of(wall[: 13 - 4 * bool(exposures)], exposures)
        full = analyze(card, h)
        for within in (0, 1, 3):
            near = analyze(card, h, within=within)
            edge = full.nearest.distance + within if full.nearest.distance is not None else None
            kept = [r for r in full.lines if edge is None or (r.distance is not None and r.distance <= edge)]
            assert [r.to_json() for r in near.lines] == [r.to_json() for r in kept]
