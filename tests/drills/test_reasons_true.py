"""Every "no line has X" reason a drill gives is true of the card, and no
reply to a choice contradicts the core's verdict (K2, K3, K7, E3, H1, J2, D1).

The reasons are read back from the words the learner sees and checked
against the card here, with `assign_exposures` and `fill` (the definition,
not the drills' fast tables): a reason saying no line, or the line the
question names, has a group is false when some reading of it does.
Every level of each drill is asked over SEEDS seeds.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from coach.notation import tiles
from coach.notation.card import GROUP_NAMES
from coach.reading.tiles_away import Exposure, Holding, assign_exposures, fill, parse_exposure
from coach.rules.calls import call_ruling
from coach.rules.mahjong import winning_lines
from coach.rules.table_rules import TableRules
from drills import calls, dead_or_alive, hot_or_safe, jokers, mahjong_or_not, nearest_hand
from drills.kit.wording import line_text, many
from tests.support import table_rules_checks as tables
from tests.support.cards import CARD

SEEDS = range(300)
SIZE_OF = {name: size for size, name in GROUP_NAMES.items()}
# "5 Dots", "Norths", "Soaps" and "5 Dot", "North Wind", "Soap": every way a reason names a tile.
TILE_OF = {many(t): t for t in range(tiles.KINDS)} | {tiles.label(tiles.CODES[t]): t for t in range(tiles.KINDS)}
TILE_OF |= {tiles.name(t): t for t in range(tiles.KINDS)}
TILE = "(?:" + "|".join(sorted((re.escape(n) for n in TILE_OF), key=len, reverse=True)) + ")"
SIZE = "(?:" + "|".join(GROUP_NAMES.values()) + ")"
LINE_ID = r"[A-Z0-9]+-\d+"


@cache
def ask(drill, level: int, seed: int):
    return drill.generate(seed, level, CARD)


def replies(q) -> dict[str, str]:
    """Each choice's reply, and the lines every verdict ends with (under "")."""
    return {**q.key["why"], "": " ".join(q.key["more"])}


def holding_of(q) -> Holding:
    return Holding.of(list(q.rack), [parse_exposure(list(e), n) for n, e in enumerate(q.exposed, 1)])


def has_group(line_id: str, tile: int, size: int, exposures: tuple[Exposure, ...] = ()) -> bool:
    """Some reading of the line has a group of `size` of `tile` beside these exposures."""
    return any(
        any(g.tile == tile and g.size == size for g in r.groups) and assign_exposures(r.groups, exposures) is not None
        for r in CARD.line(line_id).readings
    )


# -- calls (K1-K7, J3) ----------------------------------------------------------------------------


def call_scene(q):
    """What a level 1-2 question shows: the discard, the line and reading played, the holding, the timing."""
    said = re.match(r"May you call (.+?)(?:, and for what\?| and still play )", q.prompt).group(1)
    discard = tiles.JOKER if said == "a Joker" else TILE_OF[said.removeprefix("the ")]
    text = " ".join(q.facts)
    line = CARD.line(re.search(r"You play (\S+),", text).group(1))
    reading = next(r for r in line.readings if f"You play {calls.line_text(line, r)}." in q.facts)
    timing = "latest"
    if "; then" in text:
        timing = "older"
    elif "already discarded" in text:
        timing = "discarded"
    elif "not yet put it on the rack" in text:
        timing = "drawn"
    elif "put it on the rack" in text:
        timing = "racked"
    return discard, line, reading, holding_of(q), timing


def check_call_reasons(q) -> None:
    discard, line, reading, holding, timing = call_scene(q)
    ruling = call_ruling(CARD, holding, discard, line, timing)
    right = {q.key["best"], *q.key["also"]}
    groups = {g.size for g in reading.groups if g.tile == discard}
    rack = holding.rack[discard] + holding.jokers if discard != tiles.JOKER else 0
    for choice, reply in replies(q).items():
        where = (q.seed, choice, reply)
        # "No line still open to your hand has a pung of 6 Bams": no exposed line has it beside the exposures.
        for size, name in re.findall(rf"No line still open to your hand has a ({SIZE}) of ({TILE})", reply):
            call = Exposure(TILE_OF[name], SIZE_OF[size])
            assert not any(
                has_group(other.id, call.tile, call.size, holding.exposures + (call,))
                for other in CARD.lines if not other.concealed
            ), where
        # "No other line still open ... your rack completes": the core allows no exposure of the tile.
        if "still open to your hand has a group of" in reply:
            assert not ruling.facts.get("calls"), where
        # "As you play it, RUN-7 wants the 6 Bam only as a pair": the reading shown.
        for size in re.findall(rf"As you play it, {LINE_ID} wants the {TILE} only as a ({SIZE})", reply):
            assert groups == {SIZE_OF[size]}, where
        for size in re.findall(rf"As you play it, {LINE_ID} has no ({SIZE}) of", reply):
            assert SIZE_OF[size] not in groups, where
        # A "has no" said of a line without "as you play it" is said of every reading of it.
        for line_id, other, size, name in re.findall(rf"(?<!play it, )({LINE_ID}) has no (other )?({SIZE}) of ({TILE})", reply):
            assert other or not has_group(line_id, TILE_OF[name], SIZE_OF[size]), where
        # "A pung takes 2 tiles of yours besides the 6 Bam, and you hold one 6 Bam": the rack is short.
        for size, needed in re.findall(rf"A ({SIZE}) takes (\d) tiles of yours", reply):
            assert SIZE_OF[size] >= 3 and int(needed) == SIZE_OF[size] - 1 > rack, where
        # The reply agrees with the core: a call it allows is never refused, one it refuses never allowed.
        size = calls._size_of(choice)
        if choice == calls.PAIR:
            assert reply.startswith("A pair is never called for an exposure") and "(K2, K3)" in reply, where
            assert "No line" not in reply and "tiles of yours" not in reply, where
        elif size is not None:
            assert ("you may call it" in reply) == (choice in right), where
        elif choice == calls.NO:
            assert (calls.NO in right) == (not re.search(r"may call it|call it for Mah Jongg", reply)), where
        elif choice == calls.MAH_JONGG:
            assert (calls.MAH_JONGG in right) == ("not the last tile" not in reply and "never be called" not in reply
                                                  and "too late" not in reply), where
        if ruling.rule in ("K1", "J3"):
            assert "you may call it" not in reply.lower(), where


@pytest.mark.parametrize("level", [1, 2])
def test_K2_K3_K7_call_reasons_are_true_and_agree_with_the_core(level):
    seen_pairs = 0
    for seed in SEEDS:
        q = ask(calls, level, seed)
        check_call_reasons(q)
        seen_pairs += calls.PAIR in q.choices
    assert level == 1 or seen_pairs > 30  # the pair choice is asked often enough to be checked


@pytest.mark.parametrize("rules", [TableRules(wall_end="cold"), TableRules(blanks=4, players=3)], ids=tables.table_id)
@pytest.mark.parametrize("level", [1, 2])
def test_TR2_TR1_TR4_call_reasons_are_true_and_agree_with_the_core_under_table_rules(level, rules):
    """The League's call questions asked at a table of its own, and a cold wall's:
    every reason is true of the card and agrees with the core's ruling."""
    checked = 0
    for seed in range(150):
        q = tables.asked(calls.NAME, level, seed, rules)
        if q.key["kind"] in ("call", "call-concealed", "call-joker", "cold-wall"):
            check_call_reasons(q)
            checked += 1
    assert checked > 50


def test_K2_K3_a_pair_is_never_called_except_for_mah_jongg_seed_7001_7003():
    for seed in (7001, 7003, 7062, 7070, 7078, 7079, 7030):
        q = ask(calls, 2, seed)
        check_call_reasons(q)
        assert calls.PAIR in q.choices
        reply = q.key["why"][calls.PAIR]
        assert "K2, K3" in reply and "No line" not in reply and "1 tiles" not in reply


def test_K7_a_concealed_line_question_names_the_line_kept_so_one_answer_is_right():
    asked = 0
    for seed in SEEDS:
        q = ask(calls, 2, seed)
        _, line, _, holding, _ = call_scene(q)
        if not line.concealed:
            assert "still play" not in q.prompt
            continue
        asked += 1
        assert q.prompt.startswith("May you call") and f"and still play {line.id}?" in q.prompt
        assert not q.key["also"]  # keeping the line, only the core's one answer is right
        if q.key["best"] == calls.NO:
            assert q.key["why"][calls.NO].startswith(f"No: {line.id} is concealed")
    assert asked > 30


@pytest.mark.parametrize("level", [3, 4])
def test_K4_K5_K6_later_levels_give_no_no_line_reason(level):
    for seed in SEEDS:
        for reply in replies(ask(calls, level, seed)).values():
            assert not re.search(r"\bno line\b|has no (pung|kong|quint|sextet|pair|group)", reply, re.I), (seed, reply)


# -- dead or alive (E3) ------------------------------------------------------------------------------


GROUP_WORDS = re.compile(rf"\b(pung|kong|quint|sextet) of ({TILE})(?: \((\d) as jokers?\))?")


def exposures_in(words: str) -> tuple[Exposure, ...]:
    return tuple(Exposure(TILE_OF[t], SIZE_OF[s], int(j or 0)) for s, t, j in GROUP_WORDS.findall(words))


@pytest.mark.parametrize("level", [lv.number for lv in dead_or_alive.LEVELS])
def test_E3_no_line_holds_the_exposures_said_to_fit_no_line(level):
    checked = 0
    for seed in SEEDS:
        q = ask(dead_or_alive, level, seed)
        for choice, reply in replies(q).items():
            for shown in re.findall(r"[Nn]o line of the card has groups for (.+?) together", reply):
                exposures = exposures_in(shown)
                assert len(exposures) >= 2, (seed, shown)
                assert not any(assign_exposures(r.groups, exposures) is not None for ln in CARD.lines for r in ln.readings), (seed, choice, reply)
                checked += 1
            for line_id, needed, extra in re.findall(rf"({LINE_ID}) would still need (.+?) and has no place for (a Joker|the {TILE})", reply):
                tile = tiles.JOKER if extra == "a Joker" else TILE_OF[extra.removeprefix("the ")]
                need = sum(int(n) for n in re.findall(r"(\d+) more", needed))
                holding = holding_of(q)
                # the reading the facts show (else every reading as near as the one told) leaves a copy unplaced
                line = CARD.line(line_id)
                shown = [r for r in line.readings if line_text(line, r) in " ".join(q.facts)]
                near = [f for f in (fill(r, holding) for r in shown or line.readings) if f.distance <= need]
                assert near and all(tile in f.unused for f in near), (seed, choice, reply)
                checked += 1
    assert checked or level > 2


# -- Mah Jongg or not (H1) -------------------------------------------------------------------------


@pytest.mark.parametrize("level", [lv.number for lv in mahjong_or_not.LEVELS])
def test_H1_no_reading_and_no_line_reasons_are_true(level):
    for seed in SEEDS:
        q = ask(mahjong_or_not, level, seed)
        holding = holding_of(q)
        for choice, reply in replies(q).items():
            where = (seed, choice, reply)
            for line_id, name in re.findall(rf"No reading of ({LINE_ID}) uses the ({TILE})", reply):
                assert not any(g.tile == TILE_OF[name] for r in CARD.line(line_id).readings for g in r.groups), where
            for line_id in re.findall(rf"The exposures fit no group of ({LINE_ID})", reply):
                assert all(assign_exposures(r.groups, holding.exposures) is None for r in CARD.line(line_id).readings), where
            if "These tiles complete no line of the card" in reply:
                assert not winning_lines(CARD, holding), where


# -- nearest hand (J2) and jokers (J1, J2) -----------------------------------------------------------------


@pytest.mark.parametrize("level", [lv.number for lv in nearest_hand.LEVELS])
def test_J2_a_joker_said_to_have_no_place_has_none(level):
    for seed in SEEDS:
        q = ask(nearest_hand, level, seed)
        verdict = nearest_hand.grade(q, None)
        holding = q.key.holding
        for line_id in re.findall(rf"Your joker has no place in ({LINE_ID})", " ".join(verdict.explanation)):
            result = q.key.result(line_id)
            assert result.reading is not None and holding.jokers
            placed = fill(result.reading, holding, result.line.concealed)
            assert not any(m.joker_ok for m in placed.missing), (seed, line_id)


@pytest.mark.parametrize("level", [lv.number for lv in jokers.LEVELS])
def test_J2_jokers_replies_give_no_no_line_reason_that_a_named_line_contradicts(level):
    for seed in SEEDS:
        q = ask(jokers, level, seed)
        key = q.key if isinstance(q.key, dict) else {}
        for reply in key.get("why", {}).values():
            for line_id, size, name in re.findall(rf"({LINE_ID}) has no ({SIZE}) of ({TILE})", reply):
                assert not has_group(line_id, TILE_OF[name], SIZE_OF[size]), (seed, reply)


# -- hot or safe (D1) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [lv.number for lv in hot_or_safe.LEVELS])
def test_D1_your_line_has_no_place_for_a_hot_tile_in_any_reading_as_near(level):
    for seed in SEEDS:
        q = ask(hot_or_safe, level, seed)
        said = re.search(rf"Your nearest line is ({LINE_ID}), (\d+) tiles away", " ".join(q.facts))
        for choice, reply in replies(q).items():
            if "has no place for it" not in reply:
                continue
            assert said, (seed, reply)
            line, distance = CARD.line(said.group(1)), int(said.group(2))
            tile = TILE_OF[choice.removeprefix("the ")]
            fills = [fill(r, Holding.of(list(q.rack))) for r in line.readings]
            assert not any(f.distance == distance and tile in f.used for f in fills), (seed, choice, reply)
