"""Find the nearest hand: which line of the card is this rack closest to?

A rack is dealt from a shuffled 152-tile wall (13 tiles, or 14 as East,
S3). Level 1 plays turns on from the deal (the player draws every fourth
tile left on the wall, the others taking theirs), keeping what the line
the rack started nearest to can use and throwing the rest, until the
rack is 1 to 3 tiles from a line, or re-deals if the wall runs out; level 2 re-deals until the
fresh rack is 4 to 6 tiles away; level 3 deals 13 tiles and plays on as
level 1 does until the rack is 2 to 4 tiles from a line, then calls a
discard to expose a pung, kong or quint the rack nearly holds for an
exposed (X) line, which leaves 14 tiles counting the exposure, 1 to 3
tiles away. A player exposes only when the call brings the hand near: an
exposure tells the table what the hand wants and closes every concealed
line (H4), so nobody calls from 5 or 6 tiles away. Every step draws on
the question's own random source, so the same seed gives the same rack.

The answer is a line id. It is correct when that line is as near as the
nearest line of the card (ties count: H3, any line may be aimed at). The
verdict compares the learner's line with the best one: the tiles each
uses, the tiles each still needs, and where a joker may fill a gap (J1)
and where it may not (J2); after an exposure, why the concealed lines
are out (H4).
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from coach.advice.explain import reading_words
from coach.common.errors import CoachError
from coach.notation import tiles
from coach.notation.card import Card, Group
from coach.reading.analysis import Analysis, LineResult, analyze
from coach.reading.tiles_away import Exposure, Holding, Slots, tables_for
from coach.rules.catalog import RULES, cite
from drills.kit import hints, short
from drills.kit.base import AnswerError, Level, Question, Verdict, check_level, rng_for
from drills.kit.shuffle import shuffle

NAME = "nearest-hand"
TITLE = "Find the nearest hand"
LEVELS: tuple[Level, ...] = (
    Level(1, "Close to a hand", "Racks 1 to 3 tiles from a line of the card, a few turns into the game."),
    Level(2, "Fresh from the deal", "Racks straight from the deal, 4 to 6 tiles away."),
    Level(3, "With an exposure", "You have called a discard and exposed a group: concealed lines are out."),
)
RANGES: dict[int, tuple[int, int]] = {1: (1, 3), 2: (4, 6), 3: (1, 3)}
CALL_FROM = (2, 4)  # level 3: how far the rack is from its nearest line when the player calls
MAX_DEALS = 1000  # re-deals are cheap; no seed tried needs more than a handful

CITED = re.compile(r"\b([A-Z]\d)\b(?=[^()]*\))")



class DealError(CoachError, RuntimeError):
    """No rack in the level's range after MAX_DEALS deals (never seen in practice)."""


# -- dealing ------------------------------------------------------------------


def _dealt(rack: list[int], exposures: tuple[Exposure, ...] = ()) -> Holding:
    """The holding of tiles dealt from the wall: no copies to check against the set."""
    return Holding(tuple(tiles.counts(rack)), exposures)


def _nearest(tables, rack: list[int], exposures: tuple[Exposure, ...] = ()) -> int:
    """The nearest line's distance: the nearest reading's."""
    return int(tables.reading_distances(_dealt(rack, exposures)).min())


def _play_on(
    rng: random.Random, tables, rack: list[int], distances: np.ndarray, rest: list[int], target: int
) -> list[int] | None:
    """Draw toward the reading the rack is nearest to until the nearest line
    is `target` away: keep a drawn tile that the reading can use, throwing a
    tile it cannot (never a joker while another will do); throw any other
    drawn tile. One draw and one discard move every line at most one tile, so
    the nearest line reaches `target` exactly before it can pass it.
    `distances` are the rack's reading distances (the deal has them already).
    The rack is followed as counts, filled by `Slots` (`fill`'s numbers, held
    equal by tests); it comes back in tile order, which no caller reads."""
    best = int(distances.min())
    aims = np.flatnonzero(distances == best).tolist()
    slots = Slots.of(tables.readings[rng.choice(aims)])
    current = best  # the aimed reading's own distance, as `fill` counts it too
    takes = [0] * tiles.KINDS  # copies of each tile the reading takes
    for tile, need, _ in slots.tiles:
        takes[tile] = need
    held = tiles.counts(rack)
    for drawn in rest:
        if drawn != tiles.JOKER and held[drawn] >= takes[drawn]:
            continue  # the reading has no place for another copy: it cannot bring it closer
        held[drawn] += 1
        distance = slots.distance(held)
        unused = slots.unused(held) if distance < current else []  # nothing gained: the drawn tile is thrown
        throwable = [t for t in unused if t != tiles.JOKER] or unused
        if not throwable:
            held[drawn] -= 1
            continue
        held[rng.choice(throwable)] -= 1  # in tile order, as `fill` lists them
        current = distance
        # The nearest line is now `current` away: the aimed reading was a
        # nearest one, each step brought it exactly one tile closer, and no
        # reading gains more than one tile a step. So it is at `target`
        # exactly when the aimed reading is, with no search of the card.
        if current <= target:
            return [t for t, c in enumerate(held) for _ in range(c)]
    return None


def _deal(rng: random.Random, level: int, card: Card) -> tuple[list[int], tuple[Exposure, ...], bool, str]:
    """A rack (tile indices), its exposures, whether the player is East, and
    how the rack came about (for the prompt)."""
    tables = tables_for(card)
    tables.warm_batch()  # once a card: every analysis of a bare rack then reads the batch tables (analyze)
    low, high = RANGES[level]
    wall = list(tiles.WALL)
    for _ in range(MAX_DEALS):
        shuffle(rng, wall)  # random.Random.shuffle's own draws, quicker (drills/kit/shuffle.py)
        east = level != 3 and rng.random() < 0.25
        size = 14 if east else 13
        rack, rest = wall[:size], wall[size:]
        if level == 1:
            distances = tables.reading_distances(_dealt(rack))
            nearest = int(distances.min())
            if nearest > high:
                # The other three hands come off the wall too (S3); then the
                # player draws one tile in four, the others taking their turns.
                others = 39 if east else 40
                draws = rest[others::4]
                played = _play_on(rng, tables, rack, distances, draws, rng.randint(low, high))
                if played is not None:  # its nearest line is the target exactly (see _play_on), within the level's range
                    return played, (), east, "played"
            elif low <= nearest:
                return rack, (), east, "dealt"
        elif level == 2:
            if low <= _nearest(tables, rack) <= high:
                return rack, (), east, "dealt"
        else:
            # Played on from the deal to within reach of a line, then a call (see the module's docstring).
            distances = tables.reading_distances(_dealt(rack))
            nearest = int(distances.min())
            if nearest > CALL_FROM[1]:
                played = _play_on(rng, tables, rack, distances, rest[40::4], rng.randint(*CALL_FROM))
                if played is None:
                    continue
                rack = played
            elif nearest < CALL_FROM[0]:
                continue
            held = tiles.counts(rack)
            unseen = [t for t in range(tiles.NATURALS) if held[t] < tiles.COPIES[t]]  # a copy left to be thrown
            called = _call(rng, card, rack, unseen)
            if called is not None:
                rack, exposure = called
                if low <= _nearest(tables, rack, (exposure,)) <= high:
                    return rack, (exposure,), False, "called"
    raise DealError(f"no rack {low}-{high} away in {MAX_DEALS} deals")


def _call(rng: random.Random, card: Card, rack: list[int], rest: list[int]) -> tuple[list[int], Exposure] | None:
    """Call a discard for a group the rack nearly holds on an exposed line.

    The caller holds all but one tile of a pung, kong or quint of a line
    marked X (naturals, at least one, then jokers: K2, J1); the called tile
    comes from the unseen tiles. Returns the rack less the exposed tiles and
    the exposure, 14 tiles in all."""
    analysis = analyze(card, _dealt(rack), within=1)  # only lines within one tile of the nearest are read
    near = analysis.nearest.distance
    assert near is not None
    counts = tiles.counts(rack)
    jokers = counts[tiles.JOKER]
    options: list[tuple[int, int]] = []
    for r in analysis.lines:
        if r.line.concealed or r.distance is None or r.distance > near + 1 or r.reading is None:
            continue
        for g in r.reading.groups:
            held = counts[g.tile]
            if g.size >= 3 and 1 <= held < g.size and held + jokers >= g.size - 1 and g.tile in rest:
                if (g.tile, g.size) not in options:
                    options.append((g.tile, g.size))
    if not options:
        return None
    tile, size = rng.choice(options)
    naturals = min(counts[tile], size - 1)
    joker_count = size - 1 - naturals
    left = list(rack)
    for _ in range(naturals):
        left.remove(tile)
    for _ in range(joker_count):
        left.remove(tiles.JOKER)
    return left, Exposure(tile, size, joker_count)


def _codes(rack: list[int]) -> tuple[str, ...]:
    return tuple(tiles.CODES[t] for t in sorted(rack))


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    rack, exposures, east, how = _deal(rng, level, card)
    holding = Holding.of(rack, exposures)
    analysis = analyze(card, holding)
    if how == "called":
        e = exposures[0]
        prompt = (
            f"A few turns into the hand, you called the {tiles.name(e.tile)} and exposed a {e.describe()}. "
            "Before you discard: which line of the card are you nearest to?"
        )
    else:
        seat = "You are East: 14 tiles. " if east else ""
        when = "A few turns into the hand. " if how == "played" else ""
        prompt = f"{when}{seat}Which line of the card is your rack nearest to?"
    items = ("rule:H1", "rule:J2") + (("rule:H4",) if exposures else ())
    return Question(
        drill=NAME,
        seed=seed,
        level=level,
        card=card.name,
        prompt=prompt,
        rack=_codes(rack),
        exposed=tuple(tuple(e.codes) for e in exposures),
        items=items,
        key=analysis,
    )


# -- grading ------------------------------------------------------------------


def _join(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _missing(r: LineResult) -> list[tuple[int, int, Group]]:
    """(tile, count, group) still needed; singles of one tile merged."""
    f = r.fill
    assert f is not None
    merged: dict[tuple[int, int], list] = {}
    for m in f.missing:
        key = (m.tile, m.group.size) if m.group.size == 1 else (m.tile, -len(merged))
        if key in merged:
            merged[key][1] += m.count
        else:
            merged[key] = [m.tile, m.count, m.group]
    return [(t, n, g) for t, n, g in merged.values()]


def _missing_text(r: LineResult) -> str:
    parts = []
    for tile, count, group in _missing(r):
        amount = f"{count} × " if count > 1 else ""
        if group.size == 1:
            where = "as singles" if count > 1 else "as a single"
        else:
            where = f"for the {group.describe()}"
        parts.append(f"{amount}{tiles.name(tile)} {where}")
    return "; ".join(parts)


def _count(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def _away(n: int) -> str:
    return f"{_count(n)} away"


def _fill_line(r: LineResult, who: str, holding: Holding) -> str:
    """ "Your pick, 2468-1, uses 9 of your 13 rack tiles and still needs 5: ..." """
    f = r.fill
    assert f is not None and r.distance is not None
    held = sum(holding.rack)
    besides = " besides your exposure" if holding.exposures else ""
    # The concrete hand, not only the letters: "a = Dots" alone hides which numbers a run needs.
    read = f" (read here as {reading_words(r.reading)})" if r.reading is not None else ""
    uses = f"{who}, {r.line.id}{read}, uses {len(f.used)} of your {held} rack tiles{besides}"
    if r.distance == 0:
        return f"{uses}: it is complete, Mah Jongg (H1)."
    return f"{uses} and still needs {_count(r.distance)}: {_missing_text(r)} (H1)."


def _joker_lines(r: LineResult) -> list[str]:
    """Where a joker could fill a gap of this line (J1) and where not (J2)."""
    f = r.fill
    assert f is not None
    lines: list[str] = []
    line_id = r.line.id
    if r.line.singles_and_pairs:
        lines.append(f"{line_id} is a Singles & Pairs line: no joker can ever fill it (J2).")
    else:
        big = [m for m in f.missing if m.joker_ok]
        small = [m for m in f.missing if not m.joker_ok]
        if big:
            groups = _join([f"the {m.group.describe()}" for m in big])
            lines.append(f"In {line_id} a joker could fill {groups}: jokers go in groups of three or more (J1).")
        if small:
            groups = _join(list(dict.fromkeys(
                f"the {m.group.describe()}" if m.group.size > 1 else f"a single {tiles.name(m.tile)}" for m in small
            )))
            lines.append(f"No joker can fill {groups}: singles and pairs take only the real tile (J2).")
    if tiles.JOKER in f.unused:
        lines.append(f"Your joker has no place in {line_id}: nothing left there is a group of three or more (J2).")
    return lines


def _summary(r: LineResult, rack: tuple[str, ...]) -> dict[str, Any]:
    """What a page shows of one line: used rack positions, missing tiles."""
    line = r.line
    data: dict[str, Any] = {
        "id": line.id,
        "section": line.section,
        "pattern": line.pattern,
        "note": line.note,
        "value": line.value,
        "concealed": line.concealed,
        "distance": r.distance,
        "reachable": r.distance is not None,
        "reason": r.reason,
        "reading": None,
        "suits": "",
        "form": "",
        "used": [],
        "missing": [],
    }
    f = r.fill
    if f is None or r.reading is None:
        return data
    data["reading"] = r.reading.printed()
    data["suits"] = r.reading.describe()
    data["form"] = line.form_of(r.reading) if line.read_as(r.reading) else ""  # the form of a line of several
    taken = [False] * len(rack)
    for t in f.used:
        code = tiles.CODES[t]
        for i, c in enumerate(rack):
            if c == code and not taken[i]:
                taken[i] = True
                break
    data["used"] = [i for i, x in enumerate(taken) if x]
    data["missing"] = [
        {"tile": tiles.CODES[tile], "name": tiles.name(tile), "count": count,
         "group": group.kind, "joker_ok": group.takes_jokers and not line.singles_and_pairs}
        for tile, count, group in _missing(r)
    ]
    return data


def _find(analysis: Analysis, answer: str) -> LineResult:
    try:
        return analysis.result(answer)
    except KeyError:
        pass
    folded = [r for r in analysis.lines if r.line.id.lower() == answer.lower()]
    if len(folded) == 1:
        return folded[0]
    example = analysis.lines[0].line.id
    raise AnswerError(f'there is no line "{answer}" on {analysis.card.name}: answer with a line id such as "{example}"')


def _headline(pick: LineResult | None, best: LineResult, ties: list[str]) -> str:
    nearest = best.distance
    assert nearest is not None
    if pick is None:
        return f"The nearest line is {best.line.id}, {_away(nearest)} (H1)."
    if pick.distance is None:
        return f"{pick.line.id} is out of reach: {pick.reason}."
    if pick.distance > nearest:
        return (
            f"Not the nearest: {pick.line.id} is {_away(pick.distance)}, "
            f"but {best.line.id} is only {_away(nearest)} (H1)."
        )
    if pick is not best:
        return (
            f"Right: {pick.line.id} is {_away(nearest)}, as near as any line. {best.line.id} is just as "
            "near, and a tie counts: you may aim at either (H3)."
        )
    others = len(ties) - 1
    if others:
        also = f"{others} other line{'s are' if others > 1 else ' is'}"
        return f"Right: {pick.line.id} is {_away(nearest)}, the nearest on the card; {also} just as near (H3)."
    return f"Right: {pick.line.id} is {_away(nearest)}, the nearest line on the card (H1)."


def grade(question: Question, answer: object) -> Verdict:
    analysis: Analysis = question.key
    if answer is None:
        pick = None
    elif not isinstance(answer, str):
        raise AnswerError('the answer must be a line id as text, such as "2468-1" (or null for "show me")')
    elif not answer.strip():
        raise AnswerError('the answer is empty: give a line id such as "2468-1", or null for "show me"')
    else:
        pick = _find(analysis, answer.strip())
    best = analysis.nearest
    nearest = best.distance
    assert nearest is not None
    holding = analysis.holding
    ties = [r.line.id for r in analysis.lines if r.distance == nearest]
    correct = pick is not None and pick.distance == nearest
    lines = [_headline(pick, best, ties)]
    if pick is not None and pick.distance is not None and pick is not best:
        lines.append(_fill_line(pick, "Your pick", holding))
    lines.append(_fill_line(best, "Your pick" if pick is best else "The nearest line", holding))
    lines += _joker_lines(pick if correct and pick is not None else best)
    if holding.exposures:
        concealed = [r.line.id for r in analysis.lines if r.line.concealed]
        if concealed and not (pick is not None and pick.line.concealed):
            lines.append(f"Your exposure rules out the concealed (C) lines, such as {concealed[0]} (H4).")
        lines.append(cite("H4"))
        if pick is not None and pick.distance is None and not pick.line.concealed:
            lines.append(cite("K2"))
    lines.append(cite("J2"))
    rules = tuple(dict.fromkeys(r for r in CITED.findall(" ".join(lines)) if r in RULES))
    if pick is None or pick.distance is None:
        score = 0.0
    elif correct:
        score = 1.0
    else:
        score = max(0.0, 1 - (pick.distance - nearest) / 4)
    verdict = Verdict(
        correct=correct,
        score=score,
        explanation=tuple(lines),
        rules=rules,
        best=best.line.id,
        answer=pick.line.id if pick is not None else None,
        items=tuple((item, correct) for item in question.items),
        detail={
            "rack": list(question.rack),
            "exposed": [list(e) for e in question.exposed],
            "pick": _summary(pick, question.rack) if pick is not None else None,
            "best": _summary(best, question.rack),
            "same": pick is best,
            "ties": ties,
            "nearest": nearest,
        },
    )
    return short.shaped(verdict, _title(pick, best, correct), _reasons(pick, best, correct, lines[0], holding), lines[1:])


def _title(pick: LineResult | None, best: LineResult, correct: bool) -> str:
    assert best.distance is not None
    if correct and pick is not None:
        return short.headline("right", f"{pick.line.id}, {_away(best.distance)}")
    return short.headline(short.kind_of(False, pick is not None), f"{best.line.id}, {_away(best.distance)}", "the nearest line is")


def _reasons(pick: LineResult | None, best: LineResult, correct: bool, first: str, holding: Holding) -> list[str]:
    """At most three short reasons: how the pick compares (a tie said so), what the
    line answered uses and needs, and where a joker helps."""
    shown = pick if correct and pick is not None else best
    reasons = []
    if pick is not None and not correct and pick.distance is not None:
        reasons.append(f"Your pick, {pick.line.id}, is {_away(pick.distance)}.")
    elif pick is not None and (not correct or "just as near" in first or "tie" in first):
        reasons.append(first.removeprefix("Right: "))
    f = shown.fill
    assert f is not None and shown.distance is not None
    uses = f"{shown.line.id} uses {len(f.used)} of your {sum(holding.rack)} rack tiles"
    needs = [f"{n} × {tiles.name(t)}" if n > 1 else tiles.name(t) for t, n, _ in _missing(shown)]
    reasons.append(f"{uses}: it is complete." if shown.distance == 0 else f"{uses} and still needs {_join(needs)}.")
    return reasons + _joker_lines(shown)[:1]


def hint(question: Question) -> str:
    """Where to start reading: the rack's biggest groups, or its lack of them."""
    groups = hints.held_groups(question.rack)
    if groups:
        start = f"Start from your biggest groups ({_join(groups)}): which lines of the card use them?"
    else:
        start = "You hold no pairs: look at lines made of singles, such as runs and Singles & Pairs."
    if question.exposed:
        return f"{start} Your exposure must fit the line too."
    if "J" in question.rack:
        return f"{start} A joker fills only groups of three or more."
    return start
