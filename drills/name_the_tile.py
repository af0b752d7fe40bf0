"""Name the tile: recognise every face of the 152-tile set (rules T1-T4).

Level 1 shows a tile and four names to pick from; level 2 asks for the
name typed out (any alias of the card format counts, a typo is graded
wrong with a suggestion); level 3 pairs the Dragons with their suits
(T2) both ways; level 4 tells apart the Flower, the Joker and Soap, the
three tiles beginners mix up most (T3, T4, J1).

Answers are a tile code or any accepted name ("5D", "5 dot", "five
dots", "soap"). The one question that asks for a suit ("which suit goes
with the Green Dragon?") takes a suit name: "Bams", "bam", "bamboo" or
the suit letter "B".
"""

from __future__ import annotations

import difflib
import random
from typing import Any

from coach.notation import tiles
from coach.notation.card import Card
from coach.rules.catalog import cite
from drills.kit import choice, hints, short
from drills.kit.base import AnswerError, Level, Question, Verdict, check_level, rng_for

NAME = "name-the-tile"
TITLE = "Name the tile"
LEVELS: tuple[Level, ...] = (
    Level(1, "Which tile is this?", "See a tile and pick its name from four choices."),
    Level(2, "Type the name", "See a tile and type its name: 5D, 5 dot and five dots all count."),
    Level(3, "Dragons and their suits", "Which Dragon goes with Bams, Craks or Dots, and the other way round."),
    Level(4, "Flower, Joker or Soap?", "Tell apart the three tiles beginners mix up most."),
)

SUIT_WORDS: dict[str, str] = {}
for _suit, _words in {
    "D": ("d", "dot", "dots", "circle", "circles"),
    "B": ("b", "bam", "bams", "bamboo", "bamboos"),
    "C": ("c", "crak", "craks", "crack", "cracks", "character", "characters"),
}.items():
    for _word in _words:
        SUIT_WORDS[_word] = _suit

# Level 4's three look-alikes, and the rule that tells each apart.
ODD_TILES = ("F", "J", "WD")
ODD_RULE = {"F": "T3", "J": "J1", "WD": "T4"}


def _key(task: str, answer: str) -> dict[str, str]:
    """The answer key: what the question asks ("name", "type", "dragon",
    "suit", "odd") and the right answer (a tile code, or a suit letter)."""
    return {"task": task, "answer": answer}


def _similar(code: str, rng: random.Random) -> list[str]:
    """Three tiles a beginner could take this one for (level 1 distractors)."""
    if code[0].isdigit():
        number, suit = int(code[0]), code[1]
        same_number = [f"{number}{s}" for s in tiles.SUITS if s != suit]
        neighbours = [f"{n}{suit}" for n in (number - 1, number + 1, number - 2, number + 2) if 1 <= n <= 9]
        picks = [rng.choice(same_number), rng.choice(neighbours[:2])]
        rest = [c for c in same_number + neighbours if c not in picks]
        picks.append(rng.choice(rest))
        return picks
    if code in tiles.WINDS:
        return [w for w in tiles.WINDS if w != code]
    if code in ("RD", "GD"):
        others = [d for d in ("RD", "GD", "WD") if d != code]
        return others + [rng.choice(tiles.WINDS)]
    if code == "WD":
        return ["RD", "GD", rng.choice(["F", "J"])]
    if code == "F":
        return ["J", "WD", rng.choice(["RD", "GD"])]
    return ["F", "WD", rng.choice(["RD", "GD"])]  # the joker


def generate(seed: int, level: int, card: Card) -> Question:
    check_level(LEVELS, level)
    rng = rng_for(NAME, seed, level)
    common: dict[str, Any] = {"drill": NAME, "seed": seed, "level": level, "card": card.name}
    if level == 1:
        code = rng.choice(tiles.CODES)
        choices = [code] + _similar(code, rng)
        rng.shuffle(choices)
        return Question(
            **common, prompt="Which tile is this?", tile=code, choices=tuple(choices),
            items=(f"tile:{code}", "rule:T1"), key=_key("name", code),
        )
    if level == 2:
        code = rng.choice(tiles.CODES)
        return Question(
            **common, prompt="Type the name of this tile.", tile=code,
            items=(f"tile:{code}", "rule:T1"), key=_key("type", code),
        )
    if level == 3:
        suit = rng.choice(tiles.SUITS)
        dragon = tiles.DRAGON_OF_SUIT[suit]
        if rng.random() < 0.5:
            return Question(
                **common, prompt=f"Which Dragon goes with {tiles.SUIT_PLURALS[suit]}?",
                choices=("RD", "GD", "WD"), items=(f"tile:{dragon}", "rule:T2"),
                key=_key("dragon", dragon),
            )
        return Question(
            **common, prompt=f"Which suit does the {_dragon_label(dragon)} go with?", tile=dragon,
            choices=tuple(tiles.SUIT_PLURALS[s] for s in tiles.SUITS),
            items=(f"tile:{dragon}", "rule:T2"), key=_key("suit", suit),
        )
    code = rng.choice(ODD_TILES)
    choices = list(ODD_TILES)
    rng.shuffle(choices)
    return Question(
        **common, prompt="Is this a Flower, a Joker or Soap?", tile=code, choices=tuple(choices),
        items=(f"tile:{code}", f"rule:{ODD_RULE[code]}"), key=_key("odd", code),
    )


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _dragon_label(code: str) -> str:
    return "White Dragon (Soap)" if code == "WD" else tiles.name(code)


# -- grading ------------------------------------------------------------------


def _text_answer(answer: object, what: str) -> str:
    if not isinstance(answer, str):
        raise AnswerError(
            f"the answer must be {what} as text (or null for \"show me\"), not {choice.json_type(answer)}"
        )
    if not answer.strip():
        raise AnswerError(f"the answer is empty: give {what}, or null for \"show me\"")
    return answer




def _tile_answer(answer: object) -> str:
    text = _text_answer(answer, 'a tile code or name such as "5D" or "red dragon"')
    try:
        return tiles.code_of(text)
    except tiles.TileError:
        raise AnswerError(
            f'"{text.strip()}" is not a tile: answer with a code or name such as 5D, 7 bam, north, soap'
        ) from None


def _suit_answer(answer: object) -> str:
    text = _text_answer(answer, 'a suit: "Dots", "Bams" or "Craks"')
    suit = SUIT_WORDS.get(" ".join(text.lower().split()))
    if suit is None:
        raise AnswerError(f'"{text.strip()}" is not a suit: answer Dots, Bams or Craks')
    return suit


def label(code: str) -> str:
    """The tile's name with its kind where the bare name is short: "North Wind"."""
    return tiles.label(code)


# Written names to match a typo against: every alias but the bare codes,
# which would make a suggestion such as "rd" for "bird".
_WORDS = [alias for alias, code in tiles.ALIASES.items() if alias != code.lower()]


def _did_you_mean(typed: str) -> str | None:
    """The name of the tile a typo is closest to ("Red Dragon"), never a bare code."""
    guess = difflib.get_close_matches(" ".join(typed.lower().split()), _WORDS, n=1, cutoff=0.6)
    return label(tiles.ALIASES[guess[0]]) if guess else None


def the(code: str) -> str:
    """ "the 5 Dot", "the North Wind", "Soap, the White Dragon"."""
    if code == "WD":
        return "Soap, the White Dragon"
    return f"the {label(code)}"


def describe(code: str) -> str:
    """What the tile is, in a beginner's words, to follow its name."""
    if code[0].isdigit():
        return f"a number tile of the {tiles.SUIT_PLURALS[code[1]]} suit"
    if code in tiles.WIND_NAMES:
        return "one of the four Winds"
    if code == "WD":
        return "which goes with Dots and doubles as zero in year hands"
    if code in tiles.SUIT_OF_DRAGON:
        return f"which goes with {tiles.SUIT_PLURALS[tiles.SUIT_OF_DRAGON[code]]}"
    if code == "F":
        return "one of eight Flowers, which all count as the same tile"
    return "which stands in for any tile in a group of three or more"


def main_rule(code: str) -> str:
    """The rules that say what this tile is, as cited after `describe`."""
    return {"RD": "T2", "GD": "T2", "WD": "T2, T4", "F": "T3", "J": "J1"}.get(code, "T1")


def _tell_apart(code: str, picked: str) -> str | None:
    """A hint for telling two look-alikes apart, when there is one."""
    if code[0].isdigit() and picked[0].isdigit():
        if code[0] == picked[0]:
            return (
                "Same number, another suit: Dots show circles, Bams show sticks (the 1 Bam is a bird), "
                "and Craks show a number above a red character (T1)."
            )
        if code[1] == picked[1]:
            return "Same suit, another number: count the dots or sticks, or read the small number in the corner (T1)."
    if {code, picked} <= {"F", "J", "WD"}:
        return "The Joker says JOKER on its face, Soap is an empty blue frame, and a Flower shows a flower (T1, T3)."
    return None


def _rules_for(code: str) -> list[str]:
    """The rules that say what this tile is (T1 always)."""
    ids = ["T1"]
    if code in tiles.DRAGON_NAMES:
        ids.append("T2")
    if code == "WD":
        ids.append("T4")
    if code == "F":
        ids.append("T3")
    if code == "J":
        ids += ["J1", "J2"]
    return ids


def _aliases(code: str) -> list[str]:
    """A few of the ways to write this tile, the code first."""
    names = [k for k, v in tiles.ALIASES.items() if v == code and k != code.lower()]
    names.sort(key=lambda k: (k[0].isdigit() and " " not in k, len(k)))
    return [code] + names[:3]


def _tile_facts(code: str) -> list[str]:
    """The rules behind the tile, each quoted with its id."""
    lines = []
    if code in tiles.SUIT_OF_DRAGON:
        lines.append(cite("T2"))
    if code == "WD":
        lines.append(cite("T4"))
    elif code == "F":
        lines.append(cite("T3"))
    elif code == "J":
        lines += [cite("J1"), cite("J2")]
    lines.append(cite("T1"))
    return lines


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _tile_verdict(question: Question, picked: str | None, typed: str | None = None) -> Verdict:
    code = question.key["answer"]
    correct = picked == code
    what = f"{the(code)}, {describe(code)} ({main_rule(code)})."
    lines: list[str] = []
    if picked is None and typed is None:
        lines.append(f"This is {what}")
    elif correct:
        wrote = " ".join(typed.split()) if typed is not None else code
        lines.append(f'Right: "{wrote}" is {what}' if wrote != code else f"Right: this is {what}")
    elif picked is None:  # typed something that is no tile at all (level 2)
        wrote = " ".join((typed or "").split())
        guess = _did_you_mean(wrote)
        hint = f' Did you mean "{guess}"?' if guess else ""
        lines.append(f'"{wrote}" is not the name of any tile, so it cannot be right.{hint} (T1)')
        lines.append(f"This is {what}")
    else:
        lines.append(f"Not quite: this is {what}")
        lines.append(f"You answered {the(picked)}, {describe(picked)} ({main_rule(picked)}).")
        apart = _tell_apart(code, picked)
        if apart:
            lines.append(apart)
    lines += _tile_facts(code)
    if question.key["task"] == "type":
        ways = _or([f'"{a}"' for a in _aliases(code)])
        lines.append(f"You can write it {ways}; capitals do not matter (T1).")
    rules = _rules_for(code)
    if picked and picked != code:
        rules += [r for r in _rules_for(picked) if r not in rules]
    # Short: what the tile is, what the pick was, and how to tell them apart.
    reasons = [_it_is(code)]
    if picked is None and typed is not None:
        reasons.insert(0, lines[0])
    elif picked is not None and not correct:
        reasons += lines[1:3]
    kind = short.kind_of(correct, picked is not None or typed is not None)
    title = short.headline(kind, the(code), "this is")
    details = [line for line in lines if what not in line]
    return _verdict(question, correct, lines, rules, best=code, answer=picked, title=title, reasons=reasons, details=details)


def _it_is(code: str) -> str:
    """What the tile is, as a sentence of its own: "It is one of the four Winds."."""
    words = describe(code)
    return f"It {words[len('which '):]}." if words.startswith("which ") else f"It is {words}."


def _pairing(dragon: str, suit: str, picked: str | None, correct: bool) -> str:
    """The verdict's first line: which dragon goes with which suit (T2)."""
    pair = f"the {_dragon_label(dragon)} goes with {tiles.SUIT_PLURALS[suit]}"
    if picked is None:
        return f"{_cap(pair)} (T2)."
    return f"{'Right' if correct else 'Not quite'}: {pair} (T2)."


def _dragon_verdict(question: Question, picked: str | None) -> Verdict:
    dragon = question.key["answer"]
    suit = tiles.SUIT_OF_DRAGON[dragon]
    correct = picked == dragon
    lines = [_pairing(dragon, suit, picked, correct)]
    if picked is not None and not correct:
        if picked in tiles.SUIT_OF_DRAGON:
            other = tiles.SUIT_PLURALS[tiles.SUIT_OF_DRAGON[picked]]
            lines.append(f"The {_dragon_label(picked)} goes with {other} (T2).")
        else:
            lines.append(f"{_cap(the(picked))} is no Dragon: it is {describe(picked)} ({main_rule(picked)}).")
    lines += _dragon_facts()
    title = short.headline(short.kind_of(correct, picked is not None), f"the {_dragon_label(dragon)}", "it is")
    return _verdict(question, correct, lines, ["T2", "T4"], best=dragon, answer=picked, title=title,
                    reasons=[_pairing(dragon, suit, None, correct), *lines[1:2], _REMEMBER], details=lines[1:])


def _suit_verdict(question: Question, picked: str | None) -> Verdict:
    suit = question.key["answer"]
    dragon = tiles.DRAGON_OF_SUIT[suit]
    correct = picked == suit
    lines = [_pairing(dragon, suit, picked, correct)]
    if picked is not None and not correct:
        lines.append(f"{tiles.SUIT_PLURALS[picked]} go with the {_dragon_label(tiles.DRAGON_OF_SUIT[picked])} (T2).")
    lines += _dragon_facts()
    answer = tiles.SUIT_PLURALS[picked] if picked else None
    title = short.headline(short.kind_of(correct, picked is not None), tiles.SUIT_PLURALS[suit], "it goes with")
    return _verdict(question, correct, lines, ["T2", "T4"], best=tiles.SUIT_PLURALS[suit], answer=answer,
                    title=title, reasons=[_pairing(dragon, suit, None, correct), *lines[1:2], _REMEMBER], details=lines[1:])


_REMEMBER = "A way to remember: Craks carry red characters, Bams are green sticks, and white Soap is left for Dots (T2)."


def _dragon_facts() -> list[str]:
    return [cite("T2"), _REMEMBER, cite("T4")]


def _verdict(
    question: Question, correct: bool, lines: list[str], rules: list[str], best: str, answer: Any,
    title: str, reasons: list[str], details: list[str],
) -> Verdict:
    task, key = question.key["task"], question.key["answer"]
    detail: dict[str, Any] = {"task": task}
    if task == "suit":
        detail.update(suit=key, dragon=tiles.DRAGON_OF_SUIT[key])
    elif task == "dragon":
        detail.update(suit=tiles.SUIT_OF_DRAGON[key], dragon=key)
    else:
        detail["tile"] = key
    if task in ("suit", "dragon"):
        detail["suit_name"] = tiles.SUIT_PLURALS[detail["suit"]]
        detail["samples"] = [f"{n}{detail['suit']}" for n in (1, 5, 9)]
    verdict = Verdict(
        correct=correct,
        score=1.0 if correct else 0.0,
        explanation=tuple(lines),
        rules=tuple(dict.fromkeys(rules)),
        best=best,
        answer=answer,
        items=tuple((item, correct) for item in question.items),
        detail=detail,
    )
    return short.shaped(verdict, title, reasons, details)


def grade(question: Question, answer: object) -> Verdict:
    task = question.key["task"]
    if answer is None:  # "I don't know, show me"
        if task == "dragon":
            return _dragon_verdict(question, None)
        if task == "suit":
            return _suit_verdict(question, None)
        return _tile_verdict(question, None)
    if task == "suit":
        return _suit_verdict(question, _suit_answer(answer))
    if task == "dragon":
        return _dragon_verdict(question, _tile_answer(answer))
    if task == "type":
        text = _text_answer(answer, 'the tile\'s name such as "5 dot" or "red dragon"')
        try:
            code = tiles.code_of(text)
        except tiles.TileError:
            return _tile_verdict(question, None, typed=text)
        return _tile_verdict(question, code, typed=text)
    return _tile_verdict(question, _tile_answer(answer))


def hint(question: Question) -> str:
    """A nudge toward the tile's kind, never its name."""
    task, key = question.key["task"], question.key["answer"]
    if task in ("dragon", "suit"):
        return hints.RULE_NUDGES["T2"]
    if task == "odd":
        return "Look closely: does the face say a word, show a picture, or is it an empty frame?"
    if key[0].isdigit():
        return hints.RULE_NUDGES["T1"]
    if key in tiles.WIND_NAMES:
        return "It is one of the four Winds: read the letter or the direction on its face."
    if key in tiles.DRAGON_NAMES:
        return "It is a Dragon: what colour is it, or is it an empty frame?"
    return "Look at the picture or the word on its face."
