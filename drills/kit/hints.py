"""Hints: a nudge before the answer, one question a learner can ask
themselves, never the answer itself.

A drill's `hint(question)` gives its question's nudge; the drills that pick
one of their choices (drills/kit/choice.py) nudge toward the rule their answer
rests on, with the words of RULE_NUDGES below. A hint names no choice and no
answer: a test checks that over many seeds.
"""

from __future__ import annotations

from collections.abc import Iterable

# One nudge per rule of the digest (docs/rules.md ids): what to look at.
RULE_NUDGES: dict[str, str] = {
    "T1": "Look at the marks on the face: circles, sticks or a character? Then count them.",
    "T2": "Think of colours: which suit's marks are red, which are green, and which suit is left?",
    "T3": "Do the different pictures on the Flowers make them different tiles?",
    "T4": "In a year hand, what does Soap stand for?",
    "H1": "Count every tile, exposures included, and check them against one line of the card.",
    "H2": "Look at each group: are all its tiles identical?",
    "H3": "May you change the hand you aim at?",
    "H4": "Is the line marked C (concealed) or X? Then look at the exposures.",
    "H5": "If the hand fits two lines, which one is paid?",
    "J1": "How big is the group the joker would stand in?",
    "J2": "Look at the pairs and singles: can a joker ever stand there?",
    "J3": "Where did that joker come from: was it thrown away?",
    "J4": "When in the turn is this? Has a tile been drawn or called yet?",
    "J5": "Could the call complete its group without a joker swap?",
    "J6": "Has a joker swap already started?",
    "J7": "After the swap, is the group still the same size and kind?",
    "J8": "Does a concealed hand change what a joker may do?",
    "S1": "Compare the dice totals.",
    "S2": "Count the stacks: how many make a wall, and how many did East count off?",
    "S3": "How many tiles does each player take, and how many more does East take?",
    "S4": "What comes first in a turn, and what does East do differently?",
    "S5": "Which way does play move around the table?",
    "C1": "Which way does this pass go, and with how many tiles?",
    "C2": "Can one player stop the second Charleston?",
    "C3": "In the courtesy pass, when the two offers differ, which number counts?",
    "C4": "Is there a joker among the tiles?",
    "C5": "Is this the last pass of a Charleston?",
    "C6": "Did everyone pass all three tiles on unseen?",
    "K1": "Which discard is the newest one, and has the next player moved yet?",
    "K2": "Does the discard finish a group of three or more that the hand needs?",
    "K3": "Is this the very tile the hand needs to win?",
    "K4": "Who wants the tile to win, and who sits next after the thrower?",
    "K5": "What does a call take the place of, and who plays after the caller?",
    "K6": "Has the caller discarded yet?",
    "K7": "Is the hand concealed (C)?",
    "E1": "What must a player show when they declare?",
    "E2": "Did anyone win before the wall ran out?",
    "E3": "Count the tiles and check the exposures against the card: does anything kill the hand?",
    "E4": "Who may call a hand dead, and does a dead hand still pay?",
    "P1": "Start from the value printed beside the winning hand.",
    "P2": "Who threw the winning tile?",
    "P3": "Where did the winning tile come from: the wall or a discard?",
    "P4": "Does the winning hand hold any jokers?",
    "P5": "Which doubles apply here? Each one doubles again.",
    "P6": "Whose rack did the joker swap come from?",
    "D1": "Look at the exposures and the discards: which tile helps nobody?",
    # The table rules (coach.rules.table_rules): the nudge is to read the table's own rule.
    "TR1": "What may a blank do at your table, and what may it never be?",
    "TR2": "Is the discard thrown in the last tiles of the wall, and is your table's wall hot or cold?",
    "TR3": "Which pass is it, and which pass does your table's joker rule speak of?",
    "TR4": "With three players, which seats are taken and which passes are left?",
    "TR5": "Has the discard been called, and what did your table agree about looking ahead?",
    "TR6": "Do both calls want the tile for the same thing? Then who spoke first?",
}

GENERAL = "Read each choice against the facts: which one does a rule rule out, and which one is left?"


def for_rules(rule_ids: Iterable[str]) -> str:
    """The nudge of the first of these rules that has one."""
    for rule_id in rule_ids:
        if rule_id in RULE_NUDGES:
            return RULE_NUDGES[rule_id]
    return GENERAL


def held_groups(rack: Iterable[str], most: int = 2) -> list[str]:
    """The rack's biggest sets of identical tiles, jokers aside, in words:
    ["three 9 Craks", "two Flowers"]."""
    from coach.notation import tiles
    from drills.kit.wording import count

    held: dict[str, int] = {}
    for code in rack:
        if code != "J":
            held[code] = held.get(code, 0) + 1
    groups = sorted(((n, code) for code, n in held.items() if n >= 2), key=lambda g: -g[0])
    return [count(tiles.INDEX[code], n) for n, code in groups[:most]]
