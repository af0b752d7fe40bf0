"""Replay a position: a decision you got wrong in a practice hand, asked again.

The position comes from a hand the learner played (coach/play/positions.py),
not from a seed, so this drill is not dealt at random and is not in
`drills.DRILLS`: `ask` builds the question from the rebuilt hand and
`grade` grades an answer with the core (`coach.play.positions.grade_answer`).
The question shows only what the learner saw at that moment: their rack
and exposures, the other players' exposures and discards, the latest
discard, the wall's count; never another rack or the wall's tiles.

Answers: a discard is the tile's code ("5D"); "mahjong"; "exchange:<seat>:<n>"
for a joker from that seat's n-th exposure; "call:<size>" ("call:0" for
Mah Jongg) or "no-call"; a pass or courtesy pass is the list of tile codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from coach.notation import tiles
from coach.notation.card import Card
from coach.play.hand import EXPOSE, MAH_JONGG, SEATS, Action, Hand, HandError
from coach.play.positions import Position, codes, drawn_tile, grade_answer
from coach.play.review import describe
from coach.rules.charleston import pass_words
from coach.rules.mahjong import winning_lines
from drills.kit import short
from drills.kit.base import AnswerError, Level, Question, Verdict
from drills.kit.wording import join

NAME = "replay-position"
TITLE = "Replay your mistakes"
LEVELS: tuple[Level, ...] = (Level(1, "A position from your hand", "A decision from a hand you played, asked again."),)
PROMPT = "What would you do here?"
GROUPS = {3: "a pung", 4: "a kong", 5: "a quint", 6: "a sextet"}
STEPS = {
    "first-right": "First Charleston: you pass three tiles to the right (C1).",
    "first-across": "First Charleston: you pass three tiles across (C1).",
    "first-left": "First Charleston: you pass three tiles to the left (C1).",
    "second-left": "Second Charleston: you pass three tiles to the left (C2).",
    "second-across": "Second Charleston: you pass three tiles across (C2).",
    "second-right": "Second Charleston: you pass three tiles to the right (C2).",
    "courtesy": "Courtesy pass: you pass {n} across (C3).",
}


@dataclass(frozen=True)
class Key:
    """What grading needs, never shown: the rebuilt hand and the answers it allows."""

    hand: Hand
    position: Position
    options: dict[str, Action]  # a choice's value -> the move
    pick: int  # tiles to pick for a pass (0: answered by one choice)
    kind: str  # "pass", "courtesy", "call" or "turn"


def _options(hand: Hand, seat: str, owed: str) -> dict[str, Action]:
    if owed == "call":
        out = {}
        for purpose, size in hand.may_call.get(seat, []):
            if purpose == MAH_JONGG:
                out["call:0"] = Action(seat, "call")
            elif purpose == EXPOSE:
                out[f"call:{size}"] = Action(seat, "call", size=size)
        out["no-call"] = Action(seat, "no-call")
        return out
    out = {}
    if winning_lines(hand.card, hand.holding(seat)):
        out["mahjong"] = Action(seat, "mahjong")
    for owner, group, tile in hand.exchanges(seat):
        out[f"exchange:{owner}:{group}"] = Action(seat, "exchange", (tiles.CODES[tile],), owner=owner, group=group)
    for code in codes(sorted(set(hand.racks[seat]))):
        out[code] = Action(seat, "discard", (code,))
    return out


def _facts(hand: Hand, seat: str, owed: str) -> list[str]:
    facts = [f"You are {seat}."]
    if owed in ("pass", "courtesy"):
        facts.append(STEPS.get(hand.step, "").format(n=hand.courtesy.get(seat, 0)))
        got = hand.received[seat]
        if got:
            facts.append(f"You just received: {join([tiles.name(t) for t in got])}.")
        return [f for f in facts if f]
    facts.append(f"{len(hand.wall)} tiles are left in the wall.")
    for other in SEATS:
        if other != seat and hand.exposed[other]:
            groups = [f"{e.size} {tiles.plural(e.tile, e.size).split(' ', 1)[1]}" for e in hand.exposed[other]]
            facts.append(f"{other} has exposed {join(groups)}.")
    thrown = [tiles.name(t) for _, t in hand.discards[-6:]]
    if thrown:
        facts.append(f"The latest discards: {join(thrown)}.")
    if owed == "call" and hand.latest is not None:
        who, tile = hand.latest
        facts.append(f"{who} has just thrown the {tiles.name(tile)}: you may call it (K1).")
    else:
        drawn = drawn_tile(hand, seat)
        if drawn is not None:
            facts.append(f"Your turn: you just drew the {tiles.name(drawn)}.")
        elif hand.acquired == "call":
            facts.append("Your turn: you called a discard, and now you discard (K5).")
        else:
            facts.append("Your turn: East throws first, without drawing (S4).")
    return facts


def ask(card: Card, hand: Hand, position: Position) -> Question:
    """The question at the position, from the hand rebuilt there (`positions.rebuild`)."""
    seat = position.seat
    owed = hand.waiting()[seat]
    pick = 3 if owed == "pass" else hand.courtesy.get(seat, 0) if owed == "courtesy" else 0
    options = {} if pick else _options(hand, seat, owed)
    key = Key(hand, position, options, pick, owed)
    prompt = f"{PROMPT} Choose the {pick} tiles to pass." if pick else PROMPT
    return Question(
        drill=NAME,
        seed=position.seed,
        level=1,
        card=card.name,
        prompt=prompt,
        rack=codes(hand.racks[seat]),
        exposed=tuple(tuple(e.as_exposure().codes) for e in hand.exposed[seat]),
        choices=tuple(options),
        tile=tiles.CODES[hand.latest[1]] if owed == "call" and hand.latest else None,
        facts=tuple(_facts(hand, seat, owed)),
        key=key,
    )


def label(question: Question, choice: str) -> str:
    """A choice as a button says it."""
    move = question.key.options.get(choice)
    return choice if move is None else _label(move)


def _label(move: Action) -> str:
    if move.kind == "discard":
        return f"Throw the {tiles.name(move.tiles[0])}"
    if move.kind == "mahjong":
        return "Declare Mah Jongg"
    if move.kind == "exchange":
        return f"Give your {tiles.name(move.tiles[0])} for {move.owner}'s joker"
    if move.kind == "call":
        return "Call it for Mah Jongg" if not move.size else f"Call it for {GROUPS.get(move.size, f'{move.size} tiles')}"
    return "Let it go"


def _said(move: Action, key: Key) -> str:
    """A move in a few words, for the headline."""
    if move.kind in ("pass", "courtesy"):
        return pass_words([tiles.name(c) for c in move.tiles], move.blind)
    if move.kind == "call" and key.hand.latest is not None:
        tile = tiles.name(key.hand.latest[1])
        return f"call the {tile} for Mah Jongg" if not move.size else f"call the {tile} for {GROUPS.get(move.size, 'a group')}"
    text = _label(move)
    return text[:1].lower() + text[1:]


def _move(key: Key, answer: object) -> Action:
    seat = key.position.seat
    if key.pick:
        if not isinstance(answer, list) or not all(isinstance(a, str) for a in answer):
            raise AnswerError(f"Pick {key.pick} tiles of your rack to pass.")
        if len(answer) != key.pick:
            raise AnswerError(f"Pick exactly {key.pick} tiles to pass, not {len(answer)}.")
        try:
            picked = tuple(tiles.code_of(a) for a in answer)
        except ValueError as error:
            raise AnswerError(str(error)) from None
        return Action(seat, key.kind, picked)
    if not isinstance(answer, str) or answer not in key.options:
        raise AnswerError("Choose one of the moves shown.")
    return key.options[answer]


def as_answer(move: Action, key: Key) -> Any:
    """A move in the answer's shape: the list of tiles for a pass, else the choice."""
    if key.pick:
        return list(move.tiles)
    return next((choice for choice, option in key.options.items() if option == move), move.kind)


def grade(question: Question, answer: object) -> Verdict:
    key: Key = question.key
    hand = key.hand
    played = None if answer is None else _move(key, answer)
    try:
        graded = grade_answer(hand, key.position, played if played is not None else key.position.played)
    except HandError as error:
        raise AnswerError(f"{error.message} ({error.rule}).") from None
    coach = graded.coach
    # Short: how your answer compares, what it cost, what you did in the hand; then why the coach's move.
    lines: list[str] = []
    if played is not None:
        lines.append(graded.reason)
        if graded.cost and not graded.missed_win:
            lines.append(f"Your choice cost you {_cost_words(graded.cost, graded.unit)} against the coach's.")
    first = key.position.played
    lines.append(f"When you played this hand, you chose to {_said(first, key)}.")
    why = describe(hand, coach)
    correct = played is not None and graded.correct
    score = 1.0 if correct else 0.5 if played is not None and graded.grade == "inaccuracy" else 0.0
    verdict = Verdict(
        correct=correct,
        score=score,
        explanation=tuple(lines) + (why,),
        rules=graded.rules,
        best=as_answer(coach, key),
        answer=None if played is None else as_answer(played, key),
        detail={"grade": graded.grade if played is not None else None, "cost": graded.cost if played is not None else None},
    )
    kind = short.kind_of(correct, played is not None, score)
    title = short.headline(kind, _said(coach, key) if not correct or played is None else _said(played, key), "the coach would")
    return short.shaped(verdict, title, [why, *lines] if played is None else lines, [why])


def _cost_words(cost: float, unit: str) -> str:
    """What a move gave up, in the review's units: "about 12 points of expected payment", "0.45 tiles"."""
    if unit == "tiles":
        return f"{cost:.2f} tiles on average"
    return f"about {max(1, round(cost))} point{'s' if round(cost) > 1 else ''} of expected payment"


def hint(question: Question) -> str:
    return "Count how many tiles away each choice leaves you from your nearest live line, and what each tile could give the others."
