"""The rules of the Charleston (C1-C6): not which tiles to pass, but how passing works.

Level 1 asks which way a pass goes and in what order each Charleston runs
(C1, C2). Level 2 puts the learner in a seat: who receives the tiles, who
sends them, who is the courtesy partner (C1-C3 with S5: "right" is the next
seat in turn order). Level 3 is what may be passed: blind passes (C5),
jokers (C4) and whether a proposed pass from a dealt rack is legal at all,
decided by `coach.rules.charleston.check_pass`. Level 4 is the courtesy pass (C3),
who may stop a Charleston (C1, C2) and the all-blind table rule (C6),
always asked as a table rule at a table that plays it, never assumed.

Every question is answered by picking one of its choices; the answer key
keeps, for each wrong choice, the sentence that says which rule rules it out.

Under a table's own rules (`generate(..., rules=)`, drills/kit/table.py)
each level also asks the table's rules where they differ, saying so first:
three players (TR4: two passes a Charleston, no across pass, no courtesy
pass), a joker in the courtesy pass (TR3), blanks passed (TR1) and the
all-blind pass (C6). Its League questions are asked as the table plays
them, or left out where the table has no such pass.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import charleston as rules_of
from coach.rules.catalog import cite
from coach.rules.charleston import (
    BLIND_PASSES,
    CHARLESTONS,
    COURTESY,
    PASSES,
    RULE_OF,
    SEATS_MOVED,
    PassError,
    check_pass,
    receiver,
    sender,
)
from coach.rules.table import SEATS, seats_in_play
from coach.rules.table_rules import LEAGUE, TableRules
from drills.kit import choice
from drills.kit.base import Level
from drills.kit.choice import Draft
from drills.kit.shuffle import shuffle
from drills.kit.table import Kind, at_table, says
from drills.kit.wording import capitalised, join, tiles_word

NAME = "charleston-rules"
TITLE = "Charleston rules"
TEMPLATE = "choice"
LEVELS: tuple[Level, ...] = (
    Level(1, "Which way?", "Right, across or left: the order of both Charlestons."),
    Level(2, "To whom?", "From your seat: who gets your tiles, who sends you theirs, who is across."),
    Level(3, "Blind passes and jokers", "What may be passed, passed unseen, or never passed at all."),
    Level(4, "Courtesy pass and stopping", "How many tiles the courtesy pass moves, who may stop a Charleston, and a table rule."),
)

ORDINALS = ("first", "second", "third")
ORDERS = ("Right, across, left", "Left, across, right", "Right, left, across", "Across, right, left")


# -- words ------------------------------------------------------------------------


def pass_label(which: str) -> str:
    """ "the first Charleston's left pass", "the courtesy pass"."""
    charleston, direction = PASSES[which]
    if charleston == "courtesy":
        return "the courtesy pass"
    return f"the {charleston} Charleston's {direction} pass"


def pass_position(which: str) -> str:
    """The pass named by its place, not its direction: "the second pass of the first Charleston"."""
    charleston, direction = PASSES[which]
    place = CHARLESTONS[charleston].index(direction)
    return f"the {ORDINALS[place]} pass of the {charleston} Charleston"


def where(seat: str, other: str) -> str:
    """Where `other` sits seen from `seat`: "on your right", "across from you"."""
    direction = next(d for d in SEATS_MOVED if receiver(seat, d) == other)
    return "across from you" if direction == "across" else f"on your {direction}"


def _count(n: int) -> str:
    return ("None", "One", "Two", "Three", "Four")[n]


# -- level 1: which way --------------------------------------------------------------


def _direction(rng: random.Random, card: Card | None = None) -> Draft:
    which = rng.choice([k for k in PASSES if k != "courtesy"])
    charleston, direction = PASSES[which]
    rule = RULE_OF[charleston]
    order = ", then ".join(CHARLESTONS[charleston])
    best = capitalised(direction)
    wrong = {
        capitalised(d): f"{capitalised(pass_position(which))} goes {direction}, not {d}: the {charleston} Charleston passes {order} ({rule})."
        for d in SEATS_MOVED if d != direction
    }
    return Draft(
        prompt=f"Which way do the tiles go on {pass_position(which)}?",
        facts=(f"The players are on {pass_position(which)}.", "Each player passes three tiles."),
        best=best,
        why=(f"the {charleston} Charleston passes {order}, so {pass_position(which)} goes {direction} ({rule}).", cite(rule)),
        wrong=wrong,
        rules=(rule,),
        hint="Say that Charleston's three passes in order, then count along to this one.",
    )


def _next_pass(rng: random.Random, card: Card | None = None) -> Draft:
    charleston = rng.choice(("first", "second"))
    order = CHARLESTONS[charleston]
    place = rng.choice((0, 1))
    done, coming = order[place], order[place + 1]
    rule = RULE_OF[charleston]
    sequence = ", then ".join(order)
    wrong = {
        capitalised(d): f"after the {done} pass the {charleston} Charleston goes {coming}, not {d}: it passes {sequence} ({rule})."
        for d in SEATS_MOVED if d != coming
    }
    return Draft(
        prompt="Which way does the next pass go?",
        facts=(f"The {charleston} Charleston is under way.", f"Everyone has just passed {done}."),
        best=capitalised(coming),
        why=(f"the {charleston} Charleston passes {sequence}, so after {done} comes {coming} ({rule}).", cite(rule)),
        wrong={k: capitalised(v) for k, v in wrong.items()},
        rules=(rule,),
        hint="Which Charleston is under way, and which of its three passes comes after the one just made?",
    )


def _order(rng: random.Random, card: Card | None = None) -> Draft:
    charleston = rng.choice(("first", "second"))
    rule = RULE_OF[charleston]
    best = ", ".join(CHARLESTONS[charleston]).capitalize()
    other = "second" if charleston == "first" else "first"
    wrong = {}
    for option in ORDERS:
        if option == best:
            continue
        if option == ", ".join(CHARLESTONS[other]).capitalize():
            wrong[option] = f"That is the order of the {other} Charleston; the {charleston} one passes {best.lower()} ({rule})."
        else:
            wrong[option] = f"No Charleston passes in that order: the {charleston} one passes {best.lower()} ({rule})."
    return Draft(
        prompt=f"In which order does the {charleston} Charleston pass?",
        facts=(f"The {charleston} Charleston is about to start.", "Each pass is three tiles."),
        best=best,
        why=(f"the {charleston} Charleston passes {best.lower()} ({rule}).", cite(rule)),
        wrong=wrong,
        rules=(rule,),
        hint="Which Charleston is it, the compulsory one or the optional one, and how do the two orders of passes relate?",
    )


# -- level 2: to whom ------------------------------------------------------------------


def _receiver(rng: random.Random, card: Card | None = None) -> Draft:
    seat = rng.choice(SEATS)
    which = rng.choice([k for k in PASSES if k != "courtesy"])
    charleston, direction = PASSES[which]
    rule = RULE_OF[charleston]
    to = receiver(seat, direction)
    wrong = {}
    for other in SEATS:
        if other in (seat, to):
            continue
        wrong[other] = f"{other} sits {where(seat, other)}, but {pass_position(which)} goes {direction} ({rule}, S5)."
    return Draft(
        prompt="Who receives your three tiles?",
        facts=(f"You are {seat}.", f"It is {pass_position(which)}."),
        best=to,
        why=(
            f"{pass_position(which)} goes {direction} ({rule}), and from {seat} the {direction} is {to} (S5).",
            _seat_note(),
            cite(rule),
        ),
        wrong=wrong,
        rules=(rule, "S5"),
        hint="Which way does this pass go, and who sits on that side of your seat?",
    )


def _sender(rng: random.Random, card: Card | None = None) -> Draft:
    seat = rng.choice(SEATS)
    which = rng.choice([k for k in PASSES if k != "courtesy"])
    charleston, direction = PASSES[which]
    rule = RULE_OF[charleston]
    giver = sender(seat, direction)
    wrong = {}
    for other in SEATS:
        if other in (seat, giver):
            continue
        gets = receiver(other, direction)
        wrong[other] = f"{other} passes {direction} to {gets}, not to you ({rule}, S5)."
    return Draft(
        prompt="Who passes three tiles to you?",
        facts=(f"You are {seat}.", f"It is {pass_position(which)}."),
        best=giver,
        why=(
            f"on {pass_position(which)} everyone passes {direction} ({rule}), and {giver} has you on the {direction} (S5).",
            _seat_note(),
            cite(rule),
        ),
        wrong=wrong,
        rules=(rule, "S5"),
        hint="Everyone passes the same way at once: which player has your seat on that side?",
    )


def _courtesy_partner(rng: random.Random, card: Card | None = None) -> Draft:
    seat = rng.choice(SEATS)
    partner = receiver(seat, COURTESY)
    wrong = {
        other: f"{other} sits {where(seat, other)}; the courtesy pass goes across, to {partner} (C3)."
        for other in SEATS if other not in (seat, partner)
    }
    return Draft(
        prompt="With whom may you make the courtesy pass?",
        facts=(f"You are {seat}.", "Both Charlestons are over."),
        best=partner,
        why=(f"the courtesy pass goes across, and across from {seat} sits {partner} (C3).", _seat_note(), cite("C3")),
        wrong=wrong,
        rules=("C3", "S5"),
        hint="Picture the table from your seat: which way does the courtesy pass go?",
    )


def _seat_note() -> str:
    return "Seats go East, South, West, North in turn order; play passes to the right, so your right is the next seat (S5)."


# -- level 3: what may be passed ---------------------------------------------------------


def _blind_which(rng: random.Random, card: Card | None = None, rules: TableRules = LEAGUE) -> Draft:
    blind = rng.choice(BLIND_PASSES)
    others = [k for k in rules_of.passes(rules.players) if k not in BLIND_PASSES]
    picks = [blind] + rng.sample(others, min(3, len(others)))
    labels = {k: capitalised(pass_label(k)[4:]) for k in picks}
    wrong = {}
    for k in picks[1:]:
        if k == "courtesy":
            wrong[labels[k]] = "The courtesy pass comes after both Charlestons; only the last pass of each Charleston may be blind (C5, C3)."
        else:
            wrong[labels[k]] = f"{capitalised(pass_label(k))} is not the last pass of its Charleston, so nothing may be passed unseen on it (C5)."
    return Draft(
        prompt="On which of these passes may tiles coming to you go straight on, unseen?",
        facts=_first(rules, "TR4") + ("On a blind pass some or all of the three tiles coming to you are passed on unseen: they never enter your rack.",),
        best=labels[blind],
        why=(
            "only the last pass of each Charleston may be blind: the first Charleston's left pass and the second's right pass (C5).",
            cite("C5"),
        ),
        wrong=wrong,
        rules=("C5",),
        hint="For each pass, ask: is it the last pass of its Charleston?",
    )


def _blind_count(rng: random.Random, card: Card | None = None) -> Draft:
    which = rng.choice(BLIND_PASSES)
    blind = rng.choice((1, 2, 3))
    rack = _deal(rng)
    naturals = [t for t in rack if t != tiles.JOKER]
    # The core says which counts make a legal pass; exactly one does.
    legal = []
    for own in range(4):
        try:
            check_pass(rack, naturals[:own], which, blind=blind)
        except PassError:
            continue
        legal.append(own)
    if len(legal) != 1:
        raise AssertionError(f"a blind pass of {blind} unseen tiles should allow one count, not {legal}")
    own = legal[0]
    wrong = {
        _count(n): f"{_count(n)} of yours and {blind} unseen make {n + blind}; a blind pass still moves three tiles (C5)."
        for n in range(4) if n != own
    }
    return Draft(
        prompt="How many of your own tiles do you add?",
        facts=(f"It is {pass_label(which)}.", f"Of the three tiles coming to you on this pass, you send {'all three' if blind == 3 else blind} on unseen: they never enter your rack."),
        best=_count(own),
        why=(f"a blind pass still moves three tiles, so {blind} unseen and {own} of yours make three (C5).", cite("C5")),
        wrong=wrong,
        rules=("C5",),
        hint="How many tiles must a Charleston pass move in all, and how many are already going on unseen?",
    )


def _joker(rng: random.Random, card: Card | None = None, rules: TableRules = LEAGUE) -> Draft:
    which = rng.choice(list(rules_of.passes(rules.players)))
    rack = _deal(rng, joker=True)
    naturals = [t for t in rack if t != tiles.JOKER]
    passed = [tiles.JOKER] + naturals[: (2 if which != "courtesy" else rng.choice((0, 1, 2)))]
    try:
        check_pass(rack, passed, which)
    except PassError as error:
        if "(C4)" not in str(error):
            raise
    else:
        raise AssertionError("the core let a joker be passed")
    best = "No, never"
    wrong = {
        "Yes": "Jokers are never passed, on any pass (C4).",
        "Only on a blind pass": "Not even on a blind pass: jokers are never passed, in any pass (C4).",
        "Only in the courtesy pass": (
            "Not in the courtesy pass either (C4). Some tables allow it as a table rule, but the League does not."
        ),
    }
    why = [f"jokers are never passed, in any Charleston pass or in the courtesy pass, so not on {pass_label(which)} (C4).", cite("C4")]
    if which == "courtesy":
        why.append("Some tables let a joker go in the courtesy pass: that is a table rule, off unless your table plays it (C4).")
    return Draft(
        prompt="May you pass your joker on this pass?",
        facts=_first(rules, "TR4") + (f"It is {pass_label(which)}.", "You hold a joker you do not need."),
        best=best,
        why=tuple(why),
        wrong=wrong,
        rules=("C4",),
        rack=tuple(tiles.CODES[t] for t in sorted(rack)),
        hint="A joker is worth a lot to whoever gets it: does the kind of pass change whether one may leave your rack?",
    )


# The answers to "may you make this pass?", one per rule that can forbid it.
OK = "Yes, it is allowed"
NO_JOKER = "No: a joker may never be passed"
NO_BLIND = "No: only the last pass of each Charleston may be blind"
NO_THREE = "No: a Charleston pass moves three tiles"
NO_COURTESY = "No: the courtesy pass moves 0 to 3 tiles"
NO_JOKER_HERE = "No: a joker may not go in this pass"  # at a table that lets a joker go in the courtesy pass (TR3)

# Faults the question may plant, the passes each can be planted on, and the answer
# that names it. Blind faults sit on passes that are not the last of a Charleston, the first pass aside;
# count faults stay where the digest states the count (C1, C3, C5).
FAULT_PASSES = {
    None: tuple(PASSES),
    "joker": tuple(PASSES),
    "blind": ("first-across", "second-left", "second-across"),
    "count": ("first-right", "first-across", "first-left", "second-right", "courtesy"),
}


def _legal_pass(rng: random.Random, card: Card | None = None, rules: TableRules = LEAGUE) -> Draft:
    fault = rng.choice(list(FAULT_PASSES))
    table = rules_of.passes(rules.players)
    # A table's own rules leave out the passes it does not play (TR4) and the joker
    # fault its courtesy pass allows (TR3); by the League's rules every pass is kept.
    kept = [w for w in FAULT_PASSES[fault] if w in table and not (fault == "joker" and rules_of.may_pass_joker(w, rules.joker_in_courtesy))]
    which = rng.choice(kept if rules != LEAGUE else FAULT_PASSES[fault])
    rack = _deal(rng, joker=fault == "joker" or rng.random() < 0.3)
    naturals = [t for t in rack if t != tiles.JOKER]
    rng.shuffle(naturals)
    own, blind = _plan(rng, fault, which)
    passed = ([tiles.JOKER] if fault == "joker" else []) + naturals[: own - (1 if fault == "joker" else 0)]
    try:
        check_pass(rack, passed, which, blind=blind, rules=rules)
        legal = True
    except PassError:
        legal = False
    if legal != (fault is None):
        raise AssertionError(f"the core and the planted fault disagree on {which}: {fault}")
    facts = [*_first(rules, "TR3", "TR4"), f"It is {pass_label(which)}.", "You want to pass " + _describe_pass(passed, blind) + "."]
    choices = [OK, NO_JOKER, NO_BLIND, NO_THREE] + ([NO_COURTESY] if which == "courtesy" else [])
    best = {None: OK, "joker": NO_JOKER, "blind": NO_BLIND, "count": NO_COURTESY if which == "courtesy" else NO_THREE}[fault]
    notes = _pass_notes(which, passed, blind, rules)
    # C4's own words say "never, not in the courtesy pass either": not quoted at a table whose courtesy pass takes a joker.
    why = [notes[best][1]] + [cite(r) for r in notes[best][2] if not (r == "C4" and _courtesy_joker_on(rules))]
    wrong = {c: notes[c][0] for c in choices if c != best}
    asks = tuple(dict.fromkeys(r for c in choices for r in notes[c][2]))
    if _courtesy_joker_on(rules):
        # At a table whose courtesy pass takes a joker, "never" would not be true: the choice says "not in this pass".
        best = NO_JOKER_HERE if best == NO_JOKER else best
        wrong = {NO_JOKER_HERE if c == NO_JOKER else c: text for c, text in wrong.items()}
    return Draft(
        prompt="May you make this pass?",
        facts=tuple(facts),
        best=best,
        why=tuple(why),
        wrong=wrong,
        rules=asks,
        rack=tuple(tiles.CODES[t] for t in sorted(rack)),
        hint="Check the pass three ways: is a joker in it, do tiles go on unseen where that is allowed, and how many tiles move?",
    )


def _plan(rng: random.Random, fault: str | None, which: str) -> tuple[int, int]:
    """(own tiles, blind tiles) for a pass with this planted fault."""
    if which == "courtesy":
        if fault == "count":
            return 4, 0
        return rng.choice((1, 2, 3)), 0
    if fault == "blind":
        blind = rng.choice((1, 2, 3))
        return 3 - blind, blind
    blind = rng.choice((0, 1, 2)) if which in BLIND_PASSES and fault is None else 0
    if fault == "count":
        total = rng.choice((2, 4))
        blind = rng.choice((0, 1)) if which in BLIND_PASSES else 0
        return total - blind, blind
    return 3 - blind, blind


def _describe_pass(passed: list[int], blind: int) -> str:
    names = ["a Joker" if t == tiles.JOKER else f"the {tiles.name(t)}" for t in passed]
    if blind:
        names.append(f"{blind} of the tiles coming to you on this pass, sent on unseen")
    if not names:
        return "nothing"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pass_notes(which: str, passed: list[int], blind: int, rules: TableRules = LEAGUE) -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """For each answer: (why it is wrong here, why it is right here, the rules behind it)."""
    count = len(passed) + blind
    joker = tiles.JOKER in passed
    courtesy = which == "courtesy"
    may_blind = which in BLIND_PASSES
    count_rule = "C3" if courtesy else ("C5" if blind else "C1")
    count_ok = (0 <= count <= 3) if courtesy else count == 3
    label = pass_label(which)
    if courtesy:
        count_text = f"{count} tile{'s' if count != 1 else ''} is {'within' if count_ok else 'more than'} the 0 to 3 the courtesy pass allows (C3)."
    else:
        count_text = f"this pass moves {count} tile{'s' if count != 1 else ''}, and every Charleston pass moves exactly three ({count_rule})."
    if blind and not may_blind:
        blind_text = f"{label} is not the last pass of a Charleston, so no tile may be passed unseen on it (C5)."
    elif blind:
        blind_text = f"{label} is the last pass of its Charleston, where passing tiles on unseen is allowed (C5)."
    else:
        blind_text = "no tile in this pass goes on unseen, so the blind-pass rule does not come into it (C5)."
    joker_text = (
        "a joker is in this pass, and jokers are never passed (C4)."
        if joker else "there is no joker in this pass, so the joker rule does not stop it (C4)."
    )
    joker_rules: tuple[str, ...] = ("C4",)
    if joker and _courtesy_joker_on(rules):
        joker_text = "a joker is in this pass, and at your table a joker may go only in the courtesy pass (TR3, C4)."
        joker_rules = ("TR3", "C4")
    faults = [
        (rule, text)
        for rule, text, bad in (
            (joker_rules[-1], joker_text, joker),
            ("C5", blind_text, bool(blind) and not may_blind),
            (count_rule, count_text, not count_ok),
        )
        if bad
    ]
    fault_rules = tuple(rule for rule, _ in faults)
    ok_rules = tuple(dict.fromkeys((count_rule, "C4") + (("C5",) if blind else ())))
    unseen = ", and tiles go on unseen only on the last pass of a Charleston" if blind else ""
    return {
        OK: (
            capitalised(faults[0][1]) if faults else "",
            f"{label} may move {count} tile{'s' if count != 1 else ''}, you pass no joker{unseen}: "
            f"every rule is kept ({', '.join(ok_rules)}).",
            fault_rules or ok_rules,
        ),
        NO_JOKER: (capitalised(joker_text), joker_text, joker_rules),
        NO_BLIND: (capitalised(blind_text), blind_text, ("C5",)),
        NO_THREE: (
            "The courtesy pass is not held to three: it moves 0 to 3 tiles (C3)." if courtesy else capitalised(count_text),
            count_text,
            ("C3",) if courtesy else (count_rule,),
        ),
        NO_COURTESY: (
            capitalised(count_text) if courtesy else f"This is not the courtesy pass but {label} (C3).",
            count_text,
            ("C3",),
        ),
    }


def _deal(rng: random.Random, joker: bool = False) -> list[int]:
    """A 13-tile rack from a shuffled wall; with `joker`, one joker at least."""
    wall = list(tiles.WALL)
    shuffle(rng, wall)  # random.Random.shuffle's own draws, quicker (drills/kit/shuffle.py)
    rack = wall[:13]
    naturals = [t for t in rack if t != tiles.JOKER]
    if joker and tiles.JOKER not in rack:
        rack[rack.index(naturals[0])] = tiles.JOKER
    return rack


# -- level 4: courtesy pass, stopping, a table rule ----------------------------------------


def _courtesy_count(rng: random.Random, card: Card | None = None) -> Draft:
    seat = rng.choice(SEATS)
    partner = receiver(seat, COURTESY)
    mine, theirs = rng.sample(range(4), 2)
    moves = min(mine, theirs)
    word = tiles_word
    wrong = {}
    for n in range(4):
        if n == moves:
            continue
        if n == max(mine, theirs):
            wrong[word(n)] = "When the two offer different numbers, the smaller number moves, not the larger (C3)."
        else:
            wrong[word(n)] = f"Nobody offered {n}: the smaller of the two offers, {moves}, is what moves (C3)."
    return Draft(
        prompt=f"How many tiles move between you and {partner}?",
        facts=(f"You are {seat}; it is the courtesy pass.", f"You offer {word(mine)}; {partner} offers {word(theirs)}."),
        best=word(moves),
        why=(f"the two offers differ, so the smaller one moves: {word(moves)} each way (C3).", cite("C3")),
        wrong=wrong,
        rules=("C3",),
        hint="In the courtesy pass, when the two offers differ, which number counts?",  # the rule's own nudge fits
    )


def _courtesy_both(rng: random.Random, card: Card | None = None) -> Draft:
    seat = rng.choice(SEATS)
    partner = receiver(seat, COURTESY)
    others = [s for s in SEATS if s not in (seat, partner)]
    best = f"{others[0]} and {others[1]} swap at the same time"
    wrong = {
        f"{others[0]} and {others[1]} wait until you are done": "Nobody waits: both pairs of opposite seats exchange at once (C3).",
        f"{others[0]} and {others[1]} sit it out": (
            f"The courtesy pass is for both pairs across: {others[0]} and {others[1]} sit across from each other and swap too (C3)."
        ),
        f"{others[0]} and {others[1]} pass to you": "The courtesy pass only goes across, never to the side (C3).",
    }
    return Draft(
        prompt=f"What do {others[0]} and {others[1]} do meanwhile?",
        facts=(f"You are {seat}.", f"You and {partner} are making the courtesy pass."),
        best=best,
        why=(
            f"both pairs of opposite seats exchange at once, so {others[0]} and {others[1]} swap across while you do (C3).",
            cite("C3"),
        ),
        wrong=wrong,
        rules=("C3",),
        hint="Who sits across from whom at the other two seats, and is the courtesy pass only for you and your partner?",
    )


def _stop(rng: random.Random, card: Card | None = None, rules: TableRules = LEAGUE) -> Draft:
    seat = rng.choice(seats_in_play(rules.players))
    charleston = rng.choice(("first", "second"))
    rule = RULE_OF[charleston]
    yes, no = "Yes: any one player may stop it", "No: it must be played"
    if charleston == "first":
        facts: tuple[str, ...] = (f"You are {seat}.", "The tiles are dealt; the first Charleston is about to begin.", "You would rather not pass.")
        best = no
        why = ("the first Charleston is compulsory: everyone passes right, across and left (C1).", cite("C1"))
        wrong = {
            yes: "That is the second Charleston. The first one is compulsory: nobody may stop it (C1).",
            "Only if the others agree": "Not even if everyone agrees: the first Charleston must be played (C1).",
            "Only East may stop it": "Nobody may stop it, East included: the first Charleston is compulsory (C1).",
        }
    else:
        want = [s for s in seats_in_play(rules.players) if s != seat]
        facts = (
            f"You are {seat}; the first Charleston is over.",
            f"{join(want)} want a second Charleston; you do not.",
        )
        best = yes
        why = ("the second Charleston is optional, and any one player may stop it: there is none this hand (C2).", cite("C2"))
        wrong = {
            no: "Only the first Charleston must be played; the second is optional and any one player may stop it (C2).",
            "Only if the others agree": "No vote is needed: any one player may stop the second Charleston (C2).",
            "Only East may stop it": "Any one player may stop it, not only East (C2).",
        }
    return Draft(
        prompt=f"May you stop the {charleston} Charleston?",
        facts=_first(rules, "TR4") + facts,
        best=best,
        why=why,
        wrong=wrong,
        rules=(rule,),
        hint="Which Charleston is this: one the table must play, or one it may skip? And who may decide that?",
    )


# C6 is a table rule, never a League rule: it is only asked at a table said to
# play it, and the League default is named in the explanation. The rule is named
# by its id, never by the site whose table rule it is (issue 25, item 13).
ENDS = "The Charleston ends: East discards, with no courtesy pass"
TABLE_PLAYS_C6 = "Your table plays its own rule on blind passes (table rule C6, not a League rule)."


def _air_mahjong(rng: random.Random, card: Card | None = None, rules: TableRules = LEAGUE) -> Draft:
    # With three players the second Charleston has no courtesy pass after it (TR4): asked of the first only.
    which = rng.choice(BLIND_PASSES) if rules.players == 4 else BLIND_PASSES[0]
    charleston = PASSES[which][0]
    everyone = rng.random() < 0.5
    holdout = rng.choice(seats_in_play(rules.players))
    if charleston == "first":
        going_on = "The players decide on a second Charleston; any one may stop it"
        again = "The first Charleston starts again"
        next_rule = "C2"
    else:
        going_on = "The courtesy pass, for those who want it"
        again = "The second Charleston starts again"
        next_rule = "C3"
    if everyone:
        facts: tuple[str, ...] = (
            TABLE_PLAYS_C6,
            f"On {pass_label(which)} every player sent all three tiles coming to them straight on, unseen.",
        )
    else:
        facts = (
            TABLE_PLAYS_C6,
            f"On {pass_label(which)}, {holdout} passed one tile of their own and two unseen.",
            f"The other {'three' if rules.players == 4 else 'two'} each sent all three tiles coming to them straight on, unseen.",
        )
    league = (
        "Under League rules alone there is no such rule: an all-blind pass ends nothing, "
        + ("and the second Charleston may follow (C2)." if charleston == "first" else "and the courtesy pass may follow (C3).")
    )
    if everyone:
        best = ENDS
        why = (
            "at this table, when every player blind-passes all three on a blind pass, "
            "the Charleston ends there and there is no courtesy pass (C6).",
            cite("C6"),
            league,
        )
        wrong = {
            going_on: "At this table an all-blind pass ends the Charleston at once: nothing more is passed (C6).",
            again: "Nothing starts again: at this table an all-blind pass ends the Charleston (C6).",
        }
        asks: tuple[str, ...] = ("C6", "C5")
    else:
        nxt = "the players decide on the second Charleston" if charleston == "first" else "the courtesy pass follows"
        best = going_on
        why = (
            f"your table's blind-pass rule needs every player to pass all three unseen; {holdout} did not, "
            f"so the Charleston goes on and {nxt} (C6, {next_rule}).",
            cite("C6"),
            cite(next_rule),
        )
        wrong = {
            ENDS: f"Not every player passed all three unseen ({holdout} passed one of their own), so the table rule does not end the Charleston (C6).",
            again: f"The Charleston goes on from here, it does not start over: {nxt} ({next_rule}).",
        }
        asks = ("C6", "C5", next_rule)
    if rules.players == 3:
        facts = (TABLE_PLAYS_C6, says(rules, "TR4"), *facts[1:])
    return Draft(prompt="What comes next?", facts=facts, best=best, why=why, wrong=wrong, rules=asks,
                 hint="Did every player send all three tiles on unseen? What does your table's rule say follows then?")


# -- under a table's own rules (drills/kit/table.py) -------------------------------------------


def _courtesy_joker_on(rules: TableRules) -> bool:
    """A joker may go in this table's courtesy pass (TR3), which it has (four players, TR4)."""
    return rules.joker_in_courtesy and rules.players == 4


def _first(rules: TableRules, *rule_ids: str) -> tuple[str, ...]:
    """The table's rules among `rule_ids` that differ from the League's here, said first."""
    on = {"TR3": _courtesy_joker_on(rules), "TR4": rules.players == 3, "TR1": bool(rules.blanks)}
    return tuple(says(rules, r) for r in rule_ids if on[r])


THREE = TableRules(players=3)  # the passes of a three-player Charleston, read from the core
THREE_ORDERS = ("Right, left", "Left, right", "Right, across, left", "Left, across, right")


def _position_three(which: str, rules: TableRules) -> str:
    """ "the second pass of the first Charleston", counted at this table (TR4)."""
    charleston, direction = PASSES[which]
    place = rules_of.charlestons(rules.players)[charleston].index(direction)
    return f"the {ORDINALS[place]} pass of the {charleston} Charleston"


def _side(seat: str, other: str, rules: TableRules) -> str:
    """Where `other` sits seen from `seat` at a three-player table: "on your right"."""
    return "on your right" if rules_of.receiver(seat, "right", rules.players) == other else "on your left"


def _direction_three(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    which = rng.choice([k for k in rules_of.passes(rules.players) if k != "courtesy"])
    charleston, direction = PASSES[which]
    order = ", then ".join(rules_of.charlestons(rules.players)[charleston])
    position = _position_three(which, rules)
    wrong = {}
    for d in SEATS_MOVED:
        if d == "across":
            wrong["Across"] = "With three players nobody sits across, so there is no across pass: a Charleston passes only right and left (TR4)."
        elif d != direction:
            wrong[capitalised(d)] = f"With three players the {charleston} Charleston passes {order}, so {position} goes {direction}, not {d} (TR4)."
    return Draft(
        prompt=f"Which way do the tiles go on {position}?",
        facts=(says(rules, "TR4"), f"The players are on {position}.", "Each player passes three tiles."),
        best=capitalised(direction),
        why=(f"with three players there is no across pass, so the {charleston} Charleston passes {order}: "
             f"{position} goes {direction} (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", RULE_OF[charleston]),
        hint="With three at the table, which pass drops out of each Charleston, and which of the two is this?",
    )


def _order_three(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    charleston = rng.choice(("first", "second"))
    best = ", ".join(rules_of.charlestons(rules.players)[charleston]).capitalize()
    league = ", ".join(CHARLESTONS[charleston]).capitalize()
    wrong = {}
    for option in THREE_ORDERS:
        if option == best:
            continue
        if option == league:
            wrong[option] = f"That is the {charleston} Charleston at four; with three nobody sits across, so it passes {best.lower()} (TR4)."
        elif "across" in option:
            wrong[option] = f"With three players there is no across pass at all; the {charleston} Charleston passes {best.lower()} (TR4)."
        else:
            wrong[option] = f"That is the other Charleston; with three the {charleston} one passes {best.lower()} (TR4)."
    return Draft(
        prompt=f"In which order does the {charleston} Charleston pass?",
        facts=(says(rules, "TR4"), f"The {charleston} Charleston is about to start.", "Each pass is three tiles."),
        best=best,
        why=(f"with three players the across pass drops out, so the {charleston} Charleston passes {best.lower()} (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", RULE_OF[charleston]),
        hint="Take the Charleston as four players pass it: which of its passes has nobody to go to at a table of three?",
    )


def _next_pass_three(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    charleston = rng.choice(("first", "second"))
    done, coming = rules_of.charlestons(rules.players)[charleston]
    sequence = f"{done}, then {coming}"
    wrong = {
        "Across": f"With three players there is no across pass: after {done} comes {coming} (TR4).",
        capitalised(done): f"Everyone has just passed {done}; with three the {charleston} Charleston passes {sequence} (TR4).",
    }
    return Draft(
        prompt="Which way does the next pass go?",
        facts=(says(rules, "TR4"), f"The {charleston} Charleston is under way.", f"Everyone has just passed {done}."),
        best=capitalised(coming),
        why=(f"with three players the {charleston} Charleston passes {sequence}: no across pass in between (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", RULE_OF[charleston]),
        hint="With three at the table, how many passes make a Charleston, and which one is left after this?",
    )


def _receiver_three(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    seat = rng.choice(seats_in_play(rules.players))
    which = rng.choice([k for k in rules_of.passes(rules.players) if k != "courtesy"])
    direction = PASSES[which][1]
    to = rules_of.receiver(seat, direction, rules.players)
    position = _position_three(which, rules)
    wrong = {}
    for other in SEATS:
        if other in (seat, to):
            continue
        wrong[other] = ("North's seat is empty at your table: nobody sits there to receive tiles (TR4)." if other == "North" else
                        f"{other} sits {_side(seat, other, rules)}, but {position} goes {direction} (TR4).")
    return Draft(
        prompt="Who receives your three tiles?",
        facts=(says(rules, "TR4"), f"You are {seat}.", f"It is {position}."),
        best=to,
        why=(f"{position} goes {direction}, and with three players the seat on your {direction} is {to} (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", RULE_OF[PASSES[which][0]]),
        hint="With three at the table, which way does this pass go, and who sits on that side of you?",
    )


def _sender_three(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    seat = rng.choice(seats_in_play(rules.players))
    which = rng.choice([k for k in rules_of.passes(rules.players) if k != "courtesy"])
    direction = PASSES[which][1]
    giver = rules_of.sender(seat, direction, rules.players)
    position = _position_three(which, rules)
    wrong = {}
    for other in SEATS:
        if other in (seat, giver):
            continue
        wrong[other] = ("North's seat is empty at your table: nobody sits there to pass (TR4)." if other == "North" else
                        f"{other} passes {direction} to {rules_of.receiver(other, direction, rules.players)}, not to you (TR4).")
    return Draft(
        prompt="Who passes three tiles to you?",
        facts=(says(rules, "TR4"), f"You are {seat}.", f"It is {position}."),
        best=giver,
        why=(f"on {position} everyone passes {direction}, and with three players {giver} has you on the {direction} (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", RULE_OF[PASSES[which][0]]),
        hint="With three at the table everyone passes the same way at once: who has your seat on that side?",
    )


NOBODY = "Nobody: there is no courtesy pass"


def _no_courtesy(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    seat = rng.choice(seats_in_play(rules.players))
    wrong = {}
    for other in SEATS:
        if other == seat:
            continue
        wrong[other] = ("North's seat is empty at your table (TR4)." if other == "North" else
                        f"{other} sits {_side(seat, other, rules)}; the courtesy pass goes across, and with three"
                        " players nobody sits across from you (TR4).")
    return Draft(
        prompt="With whom may you make the courtesy pass?",
        facts=(says(rules, "TR4"), f"You are {seat}.", "Both Charlestons are over."),
        best=NOBODY,
        why=("with three players nobody sits across from you, so there is no courtesy pass: once the Charlestons"
             " are over, East discards (TR4).", cite("TR4")),
        wrong=wrong,
        rules=("TR4", "C3"),
        hint="At a table of three, who sits across from you for a courtesy pass?",
    )


JOKER_YES, JOKER_NO, JOKER_BLIND = "Yes", "No", "Only if it goes on unseen"


def _joker_at_table(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    # Half the time the courtesy pass, where the table's rule allows it.
    which = "courtesy" if rng.random() < 0.5 else rng.choice([k for k in PASSES if k != "courtesy"])
    label = pass_label(which)
    if which == "courtesy":
        best = JOKER_YES
        why: tuple[str, ...] = (f"at your table a joker may go across in {label} (TR3); by the League's rules it never may (C4).",
                                cite("TR3"))
        wrong = {
            JOKER_NO: "At your table the courtesy pass is the one pass a joker may go in (TR3).",
            JOKER_BLIND: "A joker never goes on unseen; at your table it may go across in the courtesy pass, seen like any tile (TR3).",
        }
    else:
        best = JOKER_NO
        why = (f"your table's rule is for the courtesy pass only: on {label} a joker is never passed (TR3, C4).",
               cite("TR3"))
        wrong = {
            JOKER_YES: f"Only the courtesy pass takes a joker at your table; {label} is one of the Charleston's own passes (TR3, C4).",
            JOKER_BLIND: "Not even on a blind pass: outside the courtesy pass a joker is never passed (C4).",
        }
    return Draft(
        prompt="May you pass your joker on this pass?",
        facts=(says(rules, "TR3"), f"It is {label}.", "You hold a joker you do not need."),
        best=best,
        why=why,
        wrong=wrong,
        rules=("TR3", "C4"),
        order=(JOKER_YES, JOKER_NO, JOKER_BLIND),
        hint="Which pass is this, and which pass does your table's joker rule speak of?",
    )


BLANK_YES = "Yes"
BLANK_WRONG = {
    "No: a blank never leaves your rack": "At your table blanks may be passed in every pass, the courtesy pass too; what a blank may never be is part of a hand (TR1).",
    "Only on a blind pass": "A blank may go on any pass, not only on the last pass of a Charleston (TR1).",
    "Only in the courtesy pass": "Unlike a joker, a blank may go on any pass (TR1).",
}


def _blank_pass(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    which = rng.choice(list(rules_of.passes(rules.players)))
    return Draft(
        prompt="May you pass a blank on this pass?",
        facts=(says(rules, "TR1"), *_first(rules, "TR4"), f"It is {pass_label(which)}.", "You hold a blank."),
        best=BLANK_YES,
        why=(f"at your table blanks may be passed like any tile but a joker, on {pass_label(which)} too (TR1).",
             cite("TR1"),
             "Whether you should is another question: the coach keeps its blanks when a pass without them is as"
             " good, since a blank can be swapped for a discard later."),
        wrong=dict(BLANK_WRONG),
        rules=("TR1",),
        hint="At your table, may a blank go wherever a tile may, and which tile may never pass?",
    )


def _courtesy_joker(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    seat = rng.choice(SEATS)
    partner = receiver(seat, COURTESY)
    mine = rng.randint(1, 3)  # the joker and mine - 1 other tiles
    theirs = rng.choice([n for n in range(4) if n != mine])
    moves = min(mine, theirs)
    wrong = {}
    for n in range(4):
        if n == moves:
            continue
        if n == mine - 1 and mine <= theirs:
            wrong[tiles_word(n)] = f"Your joker counts: at your table it goes across like any tile (TR3), so you offer {mine}, and the smaller offer moves (C3)."
        elif n == max(mine, theirs):
            wrong[tiles_word(n)] = "When the two offer different numbers, the smaller number moves, not the larger (C3)."
        else:
            wrong[tiles_word(n)] = f"The smaller of the two offers, {moves}, is what moves (C3)."
    others = ("", " and one other tile", " and two other tiles")[mine - 1]
    return Draft(
        prompt=f"How many tiles move between you and {partner}?",
        facts=(says(rules, "TR3"), f"You are {seat}; it is the courtesy pass.",
               f"You offer a joker{others}; {partner} offers {tiles_word(theirs)}."),
        best=tiles_word(moves),
        why=(f"your joker counts like any tile at your table (TR3), so you offer {mine} and {partner} {theirs}: "
             f"the smaller offer moves, {tiles_word(moves)} each way (C3).", cite("TR3"), cite("C3")),
        wrong=wrong,
        rules=("TR3", "C3"),
        situation={"mine": mine, "theirs": theirs},
        hint="Does your joker count among the tiles you offer at your table, and which of the two offers moves?",
    )


GOES_ON = {"first": "The players decide on a second Charleston; any one may stop it", "second": "The courtesy pass, for those who want it"}


def _all_blind_league(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
    """An all-blind pass at a table that does not play C6: nothing moves and the Charleston goes on."""
    which = rng.choice(BLIND_PASSES) if rules.players == 4 else BLIND_PASSES[0]
    charleston = PASSES[which][0]
    next_rule = "C2" if charleston == "first" else "C3"
    going_on = GOES_ON[charleston]
    nxt = "the players decide on the second Charleston" if charleston == "first" else "the courtesy pass follows"
    again = f"The {charleston} Charleston starts again"
    return Draft(
        prompt="What comes next?",
        facts=(*_first(rules, "TR4"), f"On {pass_label(which)} every player sent all three tiles coming to them straight on, unseen.",
               "Your table plays no rule of its own on blind passes."),
        best=going_on,
        why=(f"every tile went straight on, so nothing changed hands and the Charleston goes on: {nxt} (C5, {next_rule}).",
             cite("C5"),
             "Only a table that plays the all-blind rule, C6, ends the Charleston there."),
        wrong={
            ENDS: f"That is table rule C6, which your table does not play: by the League's rules the Charleston goes on and {nxt} ({next_rule}).",
            again: f"Nothing starts over: the Charleston goes on from here, and {nxt} ({next_rule}).",
        },
        rules=("C5", next_rule),  # C6 is named, never asked: this table does not play it
        hint="When every tile coming to each player goes on unseen, what is left to change hands, and what comes next?",
    )


def _league(build: choice.Builder) -> Callable[[random.Random, Card | None, TableRules], Draft]:
    """A League kind no table rule changes, asked as it is."""
    def asked(rng: random.Random, card: Card | None, rules: TableRules) -> Draft:
        return build(rng, card)

    asked.__name__ = build.__name__
    return asked


FOUR = lambda rules: rules.players == 4  # noqa: E731  (a table with an across pass and a courtesy pass)
UNDER: dict[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {
    1: ((Kind(_league(_direction), FOUR), Kind(_league(_next_pass), FOUR), Kind(_league(_order), FOUR)),
        (Kind(_direction_three, lambda r: r.players == 3), Kind(_next_pass_three, lambda r: r.players == 3),
         Kind(_order_three, lambda r: r.players == 3))),
    2: ((Kind(_league(_receiver), FOUR), Kind(_league(_sender), FOUR), Kind(_league(_courtesy_partner), FOUR)),
        (Kind(_receiver_three, lambda r: r.players == 3), Kind(_sender_three, lambda r: r.players == 3),
         Kind(_no_courtesy, lambda r: r.players == 3))),
    3: ((Kind(_blind_which), Kind(_league(_blind_count)), Kind(_joker, lambda r: not _courtesy_joker_on(r)), Kind(_legal_pass)),
        (Kind(_joker_at_table, _courtesy_joker_on), Kind(_blank_pass, lambda r: bool(r.blanks)))),
    4: ((Kind(_league(_courtesy_count), FOUR), Kind(_league(_courtesy_both), FOUR), Kind(_stop),
         Kind(_all_blind_league, lambda r: not r.air_mahjong)),
        (Kind(_air_mahjong, lambda r: r.air_mahjong), Kind(_no_courtesy, lambda r: r.players == 3),
         Kind(_courtesy_joker, _courtesy_joker_on))),
}

KINDS: dict[int, tuple[choice.Builder, ...]] = {
    1: (_direction, _next_pass, _order),
    2: (_receiver, _sender, _courtesy_partner),
    3: (_blind_which, _blind_count, _joker, _legal_pass, _legal_pass),
    4: (_courtesy_count, _courtesy_both, _stop, _stop, _air_mahjong, _air_mahjong),
}


# -- the protocol -------------------------------------------------------------------------


TABLE_RULES = True  # generate(..., rules=) asks under a table's own rules (drills.generate)
generate = choice.asking(NAME, LEVELS, KINDS, choice.WHY_FIRST, under=at_table(UNDER))
grade = choice.grade
hint = choice.hint

