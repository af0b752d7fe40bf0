"""Choose the first pass: which three tiles go right in the first Charleston pass?

The rack is dealt from a shuffled 152-tile wall (13 tiles, or 14 as East,
S3). The answer is three tiles of the rack; jokers may never be passed
(C4). It is graded with the pass evaluation of `coach.advice.passes`: every
legal pass is scored by the tiles-away it is expected to leave once three
unseen tiles come back, on the same seeded samples for every pass. Full
marks for a pass that cannot be told from the best at one-sided 95% on
the paired difference, with a practical margin of a tenth of a tile; the
learner's pass and the leading few are worked out exactly over every three
tiles that could come back, so the call does not depend on a sampling
seed. Half marks ("Half right") only for a pass that is close, at most
CLOSE tiles behind the best; none for one further behind. The verdict is
`coach.advice.passes.pass_grade`, the one the practice hand's review reads.

Under a table's own rules (`generate(..., rules=)`): with blanks (TR1) the
rack is dealt from the table's whole set (drills/kit/deal.py), so it may
hold a blank, which is never part of a hand, may be passed, and is kept by
the coach when a pass without it is as good (the verdict says so); a joker
still never goes in the first pass, whatever the courtesy pass allows
(TR3); with three players the first pass still goes to the right (TR4).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from coach.advice.explain import NEAREST, said_once, tile_note, with_line_words
from coach.advice.passes import (
    PassAdvice,
    PassOption,
    evaluate_pass,
    explain_pass,
    pass_grade,
    question_options,
    shown_decimals,
    with_pass,
)
from coach.advice.passes.evaluation import QUESTION_SCREEN
from coach.advice.passes.words import BLANK_POLICY, blank_note
from coach.common.kept import Kept
from coach.notation import tiles
from coach.notation.card import Card
from coach.reading.analysis import analyze_rack
from coach.reading.tiles_away import tables_for
from coach.rules import blanks
from coach.rules.blanks import BLANK, split
from coach.rules.catalog import cite
from coach.rules.charleston import PassError, check_pass
from coach.rules.scenes import Scene
from coach.rules.table_rules import LEAGUE, TableRules
from drills.kit import short
from drills.kit.base import AnswerError, Level, Question, Verdict, check_level, rng_for
from drills.kit.deal import table_wall
from drills.kit.shuffle import shuffle
from drills.kit.table import says

NAME = "first-pass"
TITLE = "Choose the first pass"
LEVELS: tuple[Level, ...] = (
    Level(1, "Clear throwaways", "Racks with at least three tiles that none of your nearest lines use."),
    Level(2, "Fresh from the deal", "Any 13-tile rack straight from the deal."),
    Level(3, "East's fourteen", "East's rack of 14 tiles, jokers and all."),
)
MAX_DEALS = 200
FIRST_RIGHT = "The first pass of the first Charleston goes to the right, three tiles (C1)."

# Credit by the pass's verdict (pass_grade): full for the best and as good
# as the best, half ("Half right") for close, none for worse.
CREDIT = {"best": 1.0, "as good": 1.0, "close": 0.5, "worse": 0.0}

_CACHE: Kept[PassAdvice] = Kept(256)  # each question's evaluation, by (card, rack, seed)


def _throwaways(card: Card, rack: list[int]) -> int:
    """Tiles of the rack that none of its nearest lines place (a blank, TR1, is none of them)."""
    held = split(rack)[0]
    analysis = analyze_rack(card, held)
    used: set[int] = set()
    for r in analysis.lines[:NEAREST]:
        if r.fill is not None:
            used.update(r.fill.used)
    return sum(1 for t in held if t not in used and t != tiles.JOKER)


def _throwaway_counts(card: Card, racks: list[list[int]]) -> list[int]:
    """`_throwaways` of many bare racks at once, from one `batch_rank`: a
    rack's nearest lines are its first NEAREST in the ranked order, and a
    line's best reading places a tile of the rack exactly when it takes that
    tile at all (`fill` puts each natural on a slot of its own tile). Only a
    pre-check: a rack it passes is confirmed by `_throwaways` itself."""
    tables = tables_for(card)
    counts = np.array([tiles.counts(split(rack)[0]) for rack in racks], dtype=np.int16)
    ranking = tables.batch_rank(counts)
    nearest = np.take_along_axis(ranking.best, ranking.order[:, :NEAREST], axis=1)  # (racks, NEAREST) readings
    placed = (tables.need[nearest] > 0).any(axis=1)  # (racks, naturals): some nearest line takes the tile
    return (counts[:, : tiles.NATURALS] * ~placed).sum(axis=1).tolist()


DEAL_BATCH = 8  # level-1 racks ranked at once: about one in six has three throwaways


def _deal(rng: random.Random, level: int, card: Card, rules: TableRules = LEAGUE) -> list[int]:
    wall = list(tiles.WALL) if not rules.blanks else table_wall(rules)
    size = 14 if level == 3 else 13
    batch: list[list[int]] = []
    for _ in range(MAX_DEALS):
        shuffle(rng, wall)  # random.Random.shuffle's own draws, quicker (drills/kit/shuffle.py)
        rack = sorted(wall[:size])
        if sum(1 for t in rack if t != tiles.JOKER) < 3:
            continue
        if level != 1:
            return rack
        # Level 1 wants three throwaways: the racks are ranked a batch at a
        # time (one batch costs about one analysis), in the order dealt, and
        # only the first that passes gets a full analysis. The random source
        # is the question's alone, so dealing a few racks too many changes nothing.
        batch.append(rack)
        if len(batch) == DEAL_BATCH:
            found = _first_with_throwaways(card, batch)
            if found is not None:
                return found
            batch = []
    found = _first_with_throwaways(card, batch) if batch else None
    if found is None:
        raise RuntimeError("no rack fits this level")  # not reached: most deals have throwaways
    return found


def _first_with_throwaways(card: Card, racks: list[list[int]]) -> list[int] | None:
    """The first of the racks with three throwaways or more, in the order dealt."""
    for rack, count in zip(racks, _throwaway_counts(card, racks)):
        if count >= 3 and _throwaways(card, rack) >= 3:
            return rack
    return None


TABLE_RULES = True  # generate(..., rules=) asks under a table's own rules (drills.generate)


def generate(seed: int, level: int, card: Card, rules: TableRules = LEAGUE) -> Question:
    check_level(LEVELS, level)
    tables_for(card).warm_batch()  # once a card: the deal ranks racks, the hint and grade analyse one (analyze)
    rack = _deal(rng_for(NAME, seed, level), level, card, rules)
    who = "You are East with 14 tiles. " if len(rack) == 14 else ""
    if rules != LEAGUE:
        return _at_table(seed, level, card, rack, who, rules)
    return Question(
        drill=NAME,
        seed=seed,
        level=level,
        card=card.name,
        prompt=f"{who}Choose three tiles to pass to the right: the first pass of the Charleston.",
        rack=tuple(tiles.CODES[t] for t in rack),
        # C4 is exercised only where there is a joker to keep: a rack without one asks nothing of it.
        items=("rule:C1", "rule:C4") if tiles.JOKER in rack else ("rule:C1",),
        key={"card": card, "rack": tuple(rack)},
    )


def _at_table(seed: int, level: int, card: Card, rack: list[int], who: str, rules: TableRules) -> Question:
    """The question at a table of its own: the rack as dealt from its set, the
    table's rules that bear on it said first (TR1 with a blank on the rack,
    TR3 with a joker, TR4), each asked as an item."""
    joker, blank = tiles.JOKER in rack, BLANK in rack
    facts, asked = [], ["C1"] + (["C4"] if joker else [])
    if blank:
        facts.append(says(rules, "TR1"))
        asked.append("TR1")
    if joker and rules.joker_in_courtesy and rules.players == 4:
        facts.append("At your table a joker may go in the courtesy pass, never in the Charleston's own passes: not in this one.")
        asked.append("TR3")
    if rules.players == 3:
        facts.append(says(rules, "TR4") + " The first pass still goes to the right.")
        asked.append("TR4")
    return Question(
        drill=NAME,
        seed=seed,
        level=level,
        card=card.name,
        prompt=f"{who}Choose three tiles to pass to the right: the first pass of the Charleston.",
        rack=tuple(blanks.code(t) for t in rack),
        facts=tuple(facts),
        items=tuple(f"rule:{r}" for r in asked),
        key={"card": card, "rack": tuple(rack), "rules": rules},
        # The scene checker knows the League's tiles: a blank, never part of a hand, is left out of it.
        scene=Scene(rack=tuple(tiles.CODES[t] for t in rack if t != BLANK)) if blank else None,
        rules=rules,
    )


SCREEN = QUESTION_SCREEN  # candidate passes scored by Monte Carlo (the learner's own is worked out exactly by with_pass)
# The grade reads the best pass, the learner's, and how far behind it is;
# never flexibility, which only orders the other passes among themselves.
FLEXIBILITY = False


def evaluate(card: Card, rack: tuple[int, ...], seed: int, include: tuple[int, ...] | None = None,
             rules: TableRules = LEAGUE) -> PassAdvice:
    """The pass evaluation that grades an answer, uncached (drills.weight times it):
    the question's own evaluation, then the learner's pass worked out exactly beside it."""
    question = evaluate_question(card, rack, seed, rules)
    return with_pass(question, include) if include else question


def evaluate_question(card: Card, rack: tuple[int, ...], seed: int, rules: TableRules = LEAGUE) -> PassAdvice:
    """The evaluation of the question alone, whoever answers it and however:
    few draws for every pass, more for the leaders, the leaders worked out
    exactly (issue 12), and only those listed: a grade reads the best pass
    and the learner's, which `with_pass` adds."""
    if rules == LEAGUE:
        return evaluate_pass(card, list(rack), "first-right", seed=seed, options=question_options(FLEXIBILITY))
    return evaluate_pass(card, list(rack), "first-right", seed=seed, options=question_options(FLEXIBILITY), rules=rules)


def advice_for(card: Card, rack: tuple[int, ...], seed: int, include: tuple[int, ...] | None = None,
               rules: TableRules = LEAGUE) -> PassAdvice:
    """The pass evaluation for this question (and the learner's pass): the
    question's evaluation made once and kept, so a class answering the same
    question (a drill set gives everyone the same seeds) pays for it once,
    and each learner's pass adds only its own exact sum."""
    # Keyed by the Card object itself (kept in the entry, so its id() is never
    # another card's): parsed cards are shared by content (coach.web.shared.cards.teachers),
    # so a changed card is a new object and never meets an old evaluation.
    # A table's own rules change the tiles that can come back (its blanks): they are in the key.
    key = (id(card), rack, seed) + ((rules.code(),) if rules != LEAGUE else ())
    question = _CACHE.get(key, lambda: evaluate_question(card, rack, seed, rules), owner=card)
    return with_pass(question, include) if include else question


def prepare(question: Question) -> None:
    """The question's evaluation, kept (`advice_for`) when the question is asked:
    the answer then adds only the learner's own pass (about a third of the work)."""
    advice_for(question.key["card"], question.key["rack"], question.seed, rules=question.key.get("rules", LEAGUE))


PICK_THREE = "Pick exactly 3 tiles to pass"


def _parse(answer: object, rules: TableRules = LEAGUE) -> list[int]:
    # Plain words first: a learner on the page sees these (the API's callers too).
    if not isinstance(answer, list):
        raise AnswerError(f'{PICK_THREE}: send them as a list of tile codes, such as ["7C", "N", "9B"].')
    if len(answer) != 3:
        raise AnswerError(f"{PICK_THREE}; you picked {len(answer)}.")
    if not all(isinstance(a, str) for a in answer):
        raise AnswerError(f'{PICK_THREE}, each named by its tile code, such as "7C" or "N".')
    try:
        if rules.blanks:  # a blank is named "BL" or "blank" at a table that plays them (TR1)
            return [blanks.index(a) for a in answer]
        return [tiles.INDEX[tiles.code_of(a)] for a in answer]
    except tiles.TileError as error:
        raise AnswerError(str(error)) from None


def _holds(rack: tuple[int, ...], passed: list[int]) -> bool:
    (held, held_blanks), (given, given_blanks) = split(rack), split(passed)
    counts = tiles.counts(held)
    return given_blanks <= held_blanks and all(c <= counts[t] for t, c in enumerate(tiles.counts(given)))


def grade(question: Question, answer: object) -> Verdict:
    card: Card = question.key["card"]
    rack: tuple[int, ...] = question.key["rack"]
    rules: TableRules = question.key.get("rules", LEAGUE)
    passed = None if answer is None else _parse(answer, rules)
    legal = passed is not None and tiles.JOKER not in passed and _holds(rack, passed)
    advice = advice_for(card, rack, question.seed, tuple(sorted(passed)) if legal and passed is not None else None, rules)
    best = advice.best
    lines: list[str] = []
    option: PassOption | None
    if passed is not None and tiles.JOKER in passed:
        option = None
        if rules.joker_in_courtesy:
            lines.append("A joker may go only in the courtesy pass at your table, never in the Charleston's own passes (TR3, C4)."
                         " Keep it: it can stand in a pung or more.")
        else:
            lines.append("A joker can never be passed, in any Charleston pass (C4). Keep it: it can stand in a pung or more.")
    elif passed is not None:
        try:
            check_pass(rack, passed, "first-right", rules=rules)
        except PassError as error:
            raise AnswerError(str(error)) from None
        option = advice.option(passed)
    else:
        option = None
    grade_of = pass_grade(option) if option is not None else None
    correct = CREDIT.get(grade_of or "", 0.0) == 1.0
    decimals = shown_decimals(option, best) if option is not None else 1
    if option is not None:
        if option is best:
            lines.append(f"Good pass: {option.label()} is the best pass for this rack.")
        elif correct:
            lines.append(f"Good pass: {option.label()} cannot be told from the best pass.")
        elif grade_of == "close":
            lines.append(f"{option.label()} is close, but another pass leaves you closer.")
        else:
            lines.append(f"{option.label()} works, but another pass leaves you clearly closer.")
        lines += explain_pass(advice, option, decimals=decimals)
    if option is None or not correct:
        lines.append(f"Best: pass {best.label()}.")
        # Only a learner who passed nothing ("show me") is told "This is the best pass" of the best.
        lines += [line for line in explain_pass(advice, best, yours=passed is None, decimals=decimals) if line not in lines]
    lines.append(FIRST_RIGHT)
    attributed_rules = attributed(rack, passed, correct)
    if "C4" in attributed_rules and not rules.joker_in_courtesy:
        lines.append(cite("C4"))  # its own words say "not in the courtesy pass either": not at a table whose does (TR3)
    # The table's rules the question asks (TR1, TR3, TR4) count for the answer too.
    attributed_rules += tuple(item[5:] for item in question.items if item[5:].startswith("TR"))
    score = CREDIT[grade_of] if grade_of is not None else 0.0
    analysis = advice.analysis
    # A tile of the best pass (or of a pass as good) is given up rightly: its note says so, not what it costs.
    worth_it = set(best.tiles) | (set(option.tiles) if option is not None and correct else set())
    notes = {blanks.code(t): blank_note(True, t in best.tiles) if t == BLANK else tile_note(card, analysis, t, passing=True, worth_it=t in worth_it)
             for t in dict.fromkeys(rack) if t != tiles.JOKER}
    detail: dict[str, Any] = {
        "rack": list(question.rack),
        "pick": [blanks.code(t) for t in passed] if passed is not None else None,
        "best": best.codes,
        "expected": round(option.expected, 2) if option is not None else None,
        "best_expected": round(best.expected, 2),
        "behind": round(option.behind, 2) if option is not None else None,
        "grade": grade_of,  # pass_grade: best, as good, close or worse
        "current": advice.current,
        "notes": notes,
    }
    verdict = Verdict(
        correct=correct,
        score=score,
        explanation=tuple(lines),
        rules=attributed_rules,
        best=best.codes,
        answer=detail["pick"],
        items=tuple((item, ok) for item, ok in _items(question.items, passed, correct) if item[5:] in attributed_rules),
        detail=detail,
    )
    return _shaped(verdict, advice, option, passed, notes, decimals)


def attributed(rack: tuple[int, ...], passed: list[int] | None, correct: bool) -> tuple[str, ...]:
    """The rules an answer counts for or against: C1 always (which three to
    pass); C4 only where the learner did something about a joker: passed one
    (wrong), or kept the rack's joker in a right pass. A worse pass that kept
    the joker, or "show me", got nothing wrong about jokers, so C4 is not
    charged with it (issue 25: the teacher's weakest rules and the learner's
    "work on these next" read these)."""
    joker_passed = passed is not None and tiles.JOKER in passed
    kept_right = correct and tiles.JOKER in rack
    return ("C1", "C4") if joker_passed or kept_right else ("C1",)


def _items(items: tuple[str, ...], passed: list[int] | None, correct: bool) -> list[tuple[str, bool]]:
    """Each item the question exercises with whether this answer got it right:
    the pass as a whole for C1, no joker among the tiles passed for C4."""
    joker_passed = passed is not None and tiles.JOKER in passed
    return [(item, not joker_passed if item in ("rule:C4", "rule:TR3") else correct) for item in items]


def _shaped(verdict: Verdict, advice: PassAdvice, option: Any, passed: list[int] | None, notes: dict[str, str], decimals: int) -> Verdict:
    """Headline and short reasons: the best pass named, never called yours
    after a worse pick; how far each pass leaves you (to `decimals`, so
    that the two numbers' difference is the gap the verdict states); what
    the tiles do."""
    best = advice.best
    now = f"(you are {advice.current} away now)"
    d = decimals
    if verdict.correct:
        title = f"Right: {option.label()} is {'the best pass' if option is best else 'as good as the best pass'}."
        reasons = [f"It leaves you {option.expected:.{d}f} tiles away on average {now}."]
        shown = option
    else:
        title = short.headline(short.kind_of(False, passed is not None, verdict.score), best.label(), "the best pass is")
        reasons = [verdict.explanation[0]] if option is None and passed is not None else []  # a joker passed
        if option is not None:
            gap = round(round(option.expected, d) - round(best.expected, d), d)
            reasons.append(
                f"Your pass leaves you {option.expected:.{d}f} tiles away on average; the best leaves {best.expected:.{d}f}, "
                f"{gap:.{d}f} tiles nearer."
            )
            reasons += [notes[blanks.code(t)] for t in dict.fromkeys(option.tiles) if t not in best.tiles][:1]
        else:
            reasons.append(f"The best pass leaves you {best.expected:.{d}f} tiles away on average {now}.")
        shown = best
    if passed is not None and BLANK in passed and BLANK not in best.tiles:
        # The coach's policy on blanks, said where the learner's pass gives one the best pass keeps (TR1).
        reasons.append(BLANK_POLICY)
    reasons = said_once(reasons + [notes[blanks.code(t)] for t in dict.fromkeys(shown.tiles)])
    # The rest, less what the headline says and the fact every first pass shares (its chip, C1, links it).
    rest = [line for line in verdict.explanation
            if not line.startswith(("Best: pass", "Good pass:", "This is the best pass", "The best pass leaves")) and line != FIRST_RIGHT
            and "works, but another pass" not in line and "is close, but another pass" not in line]
    return short.shaped(verdict, title, reasons, rest)


def hint(question: Question) -> str:
    """A nudge toward the tiles the rack's nearest lines do not use."""
    analysis = analyze_rack(question.key["card"], split(question.key["rack"])[0])
    jokers = " Jokers never go." if tiles.JOKER in question.key["rack"] else ""
    # A blank is never part of a hand (TR1): the nudge says what the coach does with one, never which tiles go.
    blank = " A blank is never part of a hand, but the coach keeps it when a pass without it is as good." if BLANK in question.key["rack"] else ""
    nearest = analysis.lines[0].line
    return with_line_words(f"Your nearest line is {nearest.id}: which of your tiles do it and the lines near it not use?{jokers}{blank}",
                           [nearest], cite=False)
