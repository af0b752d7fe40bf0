"""A coach's review of every decision one player made in a hand.

The hand is replayed from its record; at each of the player's decisions
the coach's one evaluation (`coach.play.evaluation`) values every move
open there, and the player's move is graded by what it gave up against
the best one, in the evaluation's units:

- play (a discard, a call or no call, a joker exchange, Mah Jongg), in
  points of expected payment (P1-P6): within BEST_WITHIN of the coach's
  move is "best", under INACCURACY_FROM "good", under MISTAKE_FROM an
  "inaccuracy", more a "mistake"; a Mah Jongg not taken (on the turn, on
  a discard, or through a joker exchange) is always a mistake that says
  so (E1, K3, J4);
- the Charleston, in tiles, as the first-pass drill grades a pass (the
  same evaluation and effort): the best pass or one that cannot be told
  from it (a tenth of a tile at 95%) is best or good, a close pass
  (CLOSE_TILES) an inaccuracy, a further one a mistake; the stop vote and
  the courtesy offer by the tiles their pass is expected to leave.

The reason states the numbers: tiles away, the chance to win, the chance
of handing an opponent Mah Jongg (D1), and the coach's move beside it.

The hand is replayed under the table rules it was played by
(docs/table-rules.md), and every move is judged legal or not by those
rules only: a blank swap (TR1) is graded like a joker exchange, in points;
a Charleston pass that sends a blank (TR1) or a courtesy pass with a joker
(TR3) is graded by the pass evaluation under the same rules, as the
first-pass drill would grade it at that table; at a cold wall (TR2) a
call or a let-go says how many tiles are left before nobody may call, and
a discard in its last tiles that it can hand nobody Mah Jongg. Each such
decision's reason says its table rule once, by id (`_table_note`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from coach.advice.passes import CLOSE, MARGIN, PassOption, pass_grade
from coach.notation import tiles
from coach.notation.card import Card
from coach.play.evaluation import POINTS, Evaluation, Option, evaluate, with_played
from coach.play.hand import BLANK_SWAP, SEATS, Action, Hand, deal
from coach.play.legal import canonical
from coach.rules.charleston import PASSES, STEPS, pass_words
from coach.rules.table_play import cold_wall_call
from coach.rules.table_rules import LEAGUE, WALL_COLD, TableRules

BEST, GOOD, INACCURACY, MISTAKE = "best", "good", "inaccuracy", "mistake"
REVIEW_VERSION = 3  # bump when the grading changes: stored reviews are made again

# Play, in points of expected payment lost against the coach's move.
BEST_WITHIN = 0.5
INACCURACY_FROM = 5.0
MISTAKE_FROM = 20.0
# The Charleston, in tiles expected: as good as the best within MARGIN (at 95%), close within CLOSE_TILES.
CLOSE_TILES = CLOSE
THRESHOLDS = {
    "points": {"best": f"within {BEST_WITHIN} points", "good": f"under {INACCURACY_FROM:g} points",
               "inaccuracy": f"under {MISTAKE_FROM:g} points", "mistake": f"{MISTAKE_FROM:g} points or more, or a missed Mah Jongg"},
    "tiles": {"best": "the best pass", "good": f"within {MARGIN} tiles at 95%", "inaccuracy": f"within {CLOSE_TILES} tiles",
              "mistake": f"more than {CLOSE_TILES} tiles"},
}


CHARLESTON_KINDS = ("pass", "vote", "offer", "courtesy")
# The Charleston's passes in the order every seat makes them (C1, C2): a player's
# n-th pass decision is the n-th of these.
PASS_STEPS = tuple(step for step in STEPS if step in PASSES and step != "courtesy")
ORDINALS = {"first": "First", "second": "Second"}
KIND_NAMES = {"vote": "Stop vote", "offer": "Courtesy offer", "courtesy": "Courtesy pass", "discard": "Discard",
              "call": "Call", "no-call": "No call", "exchange": "Joker exchange", "mahjong": "Mah Jongg",
              BLANK_SWAP: "Blank swap"}


def decision_name(kind: str, step: str = "") -> str:
    """What a decision was, as a player names it: "First Charleston, pass right",
    "Stop vote", "Courtesy pass", "Discard"."""
    if kind == "pass":
        if step not in PASSES:
            return "Charleston pass"
        which, direction = PASSES[step]
        return f"{ORDINALS.get(which, which.capitalize())} Charleston, pass {direction}"
    return KIND_NAMES.get(kind, kind.replace("-", " ").capitalize())


def decision_when(kind: str, wall: int) -> str:
    """When a decision in play came, by the wall ("87 tiles in the wall"); nothing for
    the Charleston, which comes before the first draw, always at a full wall."""
    if kind in CHARLESTON_KINDS:
        return ""
    return f"{wall} tile{'' if wall == 1 else 's'} in the wall"


@dataclass(frozen=True)
class Reviewed:
    number: int  # the action's index in the hand's record
    seat: str
    kind: str  # pass, vote, offer, courtesy, call, no-call, discard, exchange, mahjong
    played: Action
    coach: Action
    grade: str
    cost: float  # what the move gave up against the coach's, in `unit`
    reason: str
    rules: tuple[str, ...]
    wall: int  # tiles left in the wall at the time
    rack: tuple[str, ...] = ()  # the player's concealed tiles just before the decision
    exposed: tuple[tuple[str, ...], ...] = ()  # and their exposures
    unit: str = POINTS  # "points" (play) or "tiles" (the Charleston)
    missed_win: bool = False
    step: str = ""  # a Charleston pass: which one ("first-right", ... "second-right")

    @property
    def name(self) -> str:
        """ "First Charleston, pass right", "Stop vote", "Discard"."""
        return decision_name(self.kind, self.step)

    @property
    def when(self) -> str:
        """ "87 tiles in the wall" for a decision in play; empty in the Charleston."""
        return decision_when(self.kind, self.wall)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "seat": self.seat, "kind": self.kind,
            "played": self.played.to_json(), "coach": self.coach.to_json(),
            "grade": self.grade, "cost": round(self.cost, 2), "unit": self.unit, "missed_win": self.missed_win,
            "reason": self.reason, "rules": list(self.rules), "wall": self.wall,
            "rack": list(self.rack), "exposed": [list(e) for e in self.exposed], "step": self.step,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reviewed:
        """A decision as `to_json` wrote it (a stored review read back)."""
        return cls(
            int(data["number"]), str(data["seat"]), str(data["kind"]),
            Action.from_json(data["played"]), Action.from_json(data["coach"]),
            str(data["grade"]), float(data["cost"]), str(data["reason"]), tuple(data["rules"]), int(data["wall"]),
            tuple(data.get("rack", ())), tuple(tuple(e) for e in data.get("exposed", ())),
            str(data.get("unit", POINTS)), bool(data.get("missed_win", False)), str(data.get("step", "")),
        )


@dataclass(frozen=True)
class Review:
    seat: str
    decisions: tuple[Reviewed, ...]
    winner: str | None
    line: str | None  # the winning line's id, if someone won

    @property
    def accuracy(self) -> float:
        """The share of decisions graded best or good."""
        if not self.decisions:
            return 1.0
        return sum(1 for d in self.decisions if d.grade in (BEST, GOOD)) / len(self.decisions)

    def costliest(self, n: int = 3) -> list[Reviewed]:
        """The worst decisions: missed wins, then mistakes, then inaccuracies, by cost."""
        order = {MISTAKE: 0, INACCURACY: 1}
        hurt = [d for d in self.decisions if d.grade in order]
        return sorted(hurt, key=lambda d: (not d.missed_win, order[d.grade], -d.cost, d.number))[:n]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "accuracy": round(self.accuracy, 3),
            "decisions": [d.to_json() for d in self.decisions],
            "costliest": [d.number for d in self.costliest()],
            "winner": self.winner,
            "line": self.line,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """A review as `to_json` wrote it; its accuracy and costliest are worked out again, the same.
        A review stored before decisions kept their pass step gets it back from the order
        of its passes: each pass of the Charleston is made once, in the order of C1 and C2."""
        decisions = [Reviewed.from_json(d) for d in data["decisions"]]
        passes = [n for n, d in enumerate(decisions) if d.kind == "pass"]
        for order, n in enumerate(passes[: len(PASS_STEPS)]):
            if not decisions[n].step:
                decisions[n] = replace(decisions[n], step=PASS_STEPS[order])
        return cls(str(data["seat"]), tuple(decisions), data.get("winner"), data.get("line"))


@dataclass(frozen=True)
class Judged:
    """One decision graded against the coach's move there."""

    grade: str
    cost: float
    reason: str
    rules: tuple[str, ...]
    coach: Action
    unit: str
    missed_win: bool = False


def _names(codes: tuple[str, ...]) -> str:
    return ", ".join(tiles.name(c) for c in sorted(codes, key=tiles.sort_key)) or "nothing"


def _words(action: Action, hand: Hand) -> str:
    """The move as an instruction: "throw the 3 Bam"."""
    if action.kind in ("pass", "courtesy"):
        return pass_words([tiles.name(c) for c in sorted(action.tiles, key=tiles.sort_key)], action.blind)
    if action.kind == "discard":
        return f"throw the {_names(action.tiles)}"
    if action.kind == "exchange":
        return f"give the {_names(action.tiles)} for {action.owner}'s joker"
    if action.kind == BLANK_SWAP:
        return f"swap a blank for the {_names(action.tiles)} from the discards"
    if action.kind == "call":
        tile = tiles.name(hand.latest[1]) if hand.latest else "tile"
        return f"call the {tile} for Mah Jongg" if not action.size else f"call the {tile} for a group of {action.size}"
    if action.kind == "no-call":
        return "let it go"
    if action.kind == "vote":
        return "play the second Charleston" if action.go else "stop the Charleston"
    if action.kind == "offer":
        return f"offer {action.count} across"
    return "declare Mah Jongg"


RULES = {"pass": ("C1",), "courtesy": ("C3",), "vote": ("C2",), "offer": ("C3",), "discard": ("S4",), "exchange": ("J4",),
         "call": ("K2",), "no-call": ("K2",), "mahjong": ("E1",), BLANK_SWAP: ("TR1",)}


SAY_RISK_FROM = 0.02  # a chance of handing Mah Jongg worth saying: 1 in 50 or more
SAFE_BELOW = 0.002  # and one too small to matter: the tile is called safe


def _chance(p: float) -> str:
    """A chance as a player says it: "about 1 in 8", "under 1 in 100"."""
    if p >= 0.5:
        return f"about {round(p * 100)} in 100"
    if p < 0.01:
        return "under 1 in 100"
    return f"about 1 in {round(1 / p)}"


def _standing(option: Option, outs: bool = False, line: bool = False) -> str:
    """Where a play move leaves the player: "4 tiles away (about 1 in 9 to win)";
    with `line`, the line and its value ("4 tiles away from 2468-3, worth 25, ...");
    with `outs`, the live tiles that help ("... with 9 live tiles that help")."""
    if option.wins_now:
        return "Mah Jongg"
    if option.distance is None or option.win is None:
        return "as before"
    if not option.line:
        return f"with every line dead ({_chance(option.win)} to win)"
    away = f"{option.distance} tile{'s' if option.distance != 1 else ''} away"
    if line or outs:
        away += f" from {option.line}"
    if outs:
        away += f" with {option.outs} live tile{'s' if option.outs != 1 else ''} that help"
    worth = f"worth {option.worth}; " if line else ""
    return f"{away} ({worth}{_chance(option.win)} to win)"


def _risk(option: Option) -> str:
    if option.action.kind != "discard":
        return ""
    if option.deal_in >= SAY_RISK_FROM:
        return f" and gives {option.danger_seat} {_chance(option.deal_in)} at Mah Jongg on it"
    return " and is safe" if option.action.tiles[0] == tiles.CODES[tiles.JOKER] or option.deal_in < SAFE_BELOW else ""


def _win_rule(action: Action) -> tuple[str, ...]:
    if action.kind == "call":
        return ("K3",)
    if action.kind == "exchange":
        return ("J4", "P6")
    if action.kind == BLANK_SWAP:
        return ("TR1", "P3")
    return ("E1",)


def _play_reason(hand: Hand, mine: Option, best: Option, grade: str) -> str:
    ours, theirs = _words(mine.action, hand), _words(best.action, hand)
    if mine is best:
        return f"The coach would also {theirs}: it leaves you {_standing(mine)}{_risk(mine)}."
    cost = best.value - mine.value
    # As near either way: the live tiles that help tell the two apart.
    outs = mine.distance == best.distance and mine.line != "" and best.line != "" and mine.outs != best.outs
    # Lines of different worth: name them, or a nearer line with the smaller payment reads as a paradox.
    line = mine.line != best.line and mine.worth != best.worth and mine.line != "" and best.line != ""
    head = f"You chose to {ours}: that leaves you {_standing(mine, outs, line)}{_risk(mine)}."
    coach = f"The coach would {theirs}: {_standing(best, outs, line)}{_risk(best)}."
    if grade == BEST:
        return f"As good as the coach's choice. {head} {coach}"
    return f"{head} {coach} About {cost:.0f} point{'s' if round(cost) != 1 else ''} of expected payment lost."


def _pass_reason(hand: Hand, mine: Option, best: Option, grade: str, current: int) -> str:
    now = f"(you are {current} away now)"
    if mine.expected is None or best.expected is None:
        return ""
    if mine.action == best.action:
        return f"The coach would also {_words(best.action, hand)}: it leaves you {best.expected:.2f} tiles away on average {now}."
    gap = mine.expected - best.expected
    head = (
        f"You chose to {_words(mine.action, hand)}: {mine.expected:.2f} tiles away on average once tiles come back {now}. "
        f"The coach would {_words(best.action, hand)}: {best.expected:.2f}"
    )
    if gap < 0:
        return f"{head} on average: yours is {-gap:.2f} tiles nearer, better than the coach's choice."
    if grade in (BEST, GOOD):
        return f"{head} on average, no better than yours by more than {MARGIN} tiles."
    return f"{head} on average, {gap:.2f} tiles nearer than yours."


# The pass verdicts of the first-pass drill (`pass_grade`), as review grades.
PASS_GRADES = {"best": BEST, "as good": GOOD, "close": INACCURACY, "worse": MISTAKE}


def _pass_grade(option: PassOption) -> str:
    return PASS_GRADES[pass_grade(option)]


def _tiles_grade(cost: float) -> str:
    if cost <= 0:
        return BEST
    if cost <= MARGIN:
        return GOOD
    return INACCURACY if cost <= CLOSE_TILES else MISTAKE


def _points_grade(cost: float) -> str:
    if cost <= BEST_WITHIN:
        return BEST
    if cost < INACCURACY_FROM:
        return GOOD
    return INACCURACY if cost < MISTAKE_FROM else MISTAKE


def _table_note(hand: Hand, played: Action, coach: Action) -> tuple[str, str]:
    """(a sentence, its rule id) when a table rule shaped this decision: said once,
    in a beginner's words, so the reason explains a move the League does not have."""
    moves = (played, coach)
    if any(a.kind == BLANK_SWAP for a in moves):
        return ("At this table, on your turn, you may swap a blank from your rack for any discarded tile"
                " but a joker; a blank is never part of a hand (TR1).", "TR1")
    if any(a.kind in ("pass", "courtesy") and tiles.BLANK_CODE in a.tiles for a in moves):
        return ("A blank is never part of a hand, so passing one costs nothing now; the coach keeps its blanks"
                " unless keeping one costs tiles, since on your turn a blank can be swapped for a discarded tile"
                " you need (TR1).", "TR1")
    if any(a.kind == "courtesy" and tiles.CODES[tiles.JOKER] in a.tiles for a in moves):
        return ("At this table a joker may go across in the courtesy pass, but a joker can fill any group of three"
                " or more: the coach keeps its jokers (TR3).", "TR3")
    if hand.rules.wall_end != WALL_COLD:
        return "", ""
    if played.kind in ("call", "no-call"):
        left = len(hand.wall) - hand.last_wall
        return (f"The wall here is cold: after {left} more tile{'s' if left != 1 else ''} from the wall, nobody may call"
                " a discard, and a win must be picked from the wall (TR2).", "TR2")
    if played.kind == "discard" and not cold_wall_call(WALL_COLD, hand.in_last_wall):
        return ("The wall is cold now: nobody may call what you throw, so no discard can hand anyone Mah Jongg"
                " (TR2).", "TR2")
    return "", ""


def grade_decision(hand: Hand, played: Action) -> Judged:
    """The played action graded against the coach's move, in this state, under the
    hand's own table rules (ValueError if the action is not a legal move here).
    A decision a table rule shaped says so once, with the rule's id (`_table_note`)."""
    judged = _graded(hand, canonical(played))
    note, rule = _table_note(hand, canonical(played), judged.coach)
    if not note:
        return judged
    rules = judged.rules if rule in judged.rules else judged.rules + (rule,)
    return replace(judged, reason=f"{judged.reason} {note}".strip(), rules=rules)


def _graded(hand: Hand, played: Action) -> Judged:
    evaluation = evaluate(hand, played.seat)
    best = evaluation.best
    rules: tuple[str, ...] = RULES.get(played.kind, ("H3",))
    if evaluation.owed in ("pass", "courtesy"):
        return _grade_pass(hand, played, evaluation)
    mine = evaluation.find(played)
    if mine is None:
        raise ValueError(f"{_words(played, hand)} is not a legal move here")
    cost = max(0.0, best.value - mine.value)
    if evaluation.unit != POINTS:  # the stop vote and the courtesy offer
        grade = BEST if mine is best else _tiles_grade(cost)
        reason = _choice_reason(hand, mine, best, evaluation, grade)
        return Judged(grade, cost, reason, rules, best.action, evaluation.unit)
    if best.wins_now and not mine.wins_now:
        reason = f"You had Mah Jongg: {_words(best.action, hand)} and the hand is won, worth {best.value:.0f} points."
        if best.action.kind in ("exchange", BLANK_SWAP):
            reason = f"You had Mah Jongg: {_words(best.action, hand)} and your hand is complete, worth {best.value:.0f} points."
        # What was given up: the payment in hand, whatever the model hoped for by holding out.
        return Judged(MISTAKE, max(cost, best.value), reason, _win_rule(best.action), best.action, POINTS, missed_win=True)
    grade = BEST if mine is best else _points_grade(cost)
    reason = _play_reason(hand, mine, best, grade)
    if mine.hot and grade not in (BEST, GOOD):
        reason += " Late in the hand defence comes first: never a hot tile while a safe one leaves you as near."
        rules = rules + ("D1",)
    return Judged(grade, cost, reason, rules, best.action, POINTS)


def _choice_reason(hand: Hand, mine: Option, best: Option, evaluation: Evaluation, grade: str) -> str:
    current = int(evaluation.extra.get("current", 0))
    if mine is best:
        return f"The coach would also {_words(best.action, hand)}." + _vote_facts(best, current)
    return (
        f"You chose to {_words(mine.action, hand)}; the coach would {_words(best.action, hand)}."
        + _vote_facts(best, current)
    )


def _vote_facts(best: Option, current: int) -> str:
    if best.action.kind == "vote":
        if best.action.go and best.expected is not None:
            return f" Its best pass is expected to leave you {best.expected:.2f} tiles away, against {current} now."
        return f" You are {current} away and no pass is expected to bring you nearer by more than {MARGIN} tiles."
    if best.action.kind == "offer" and best.expected is not None:
        return f" Its best courtesy pass is expected to leave you {best.expected:.2f} tiles away (you are {current} away now)."
    return ""


def _grade_pass(hand: Hand, played: Action, evaluation: Evaluation) -> Judged:
    """A pass graded as the first-pass drill grades it: the same evaluation, the
    learner's pass worked out beside the leaders (`with_played`)."""
    coach = evaluation.best
    own = tuple(sorted(tiles.TABLE_INDEX[c] for c in played.tiles))
    if evaluation.owed == "courtesy":  # the agreed count only (C3): graded by the tiles it is expected to leave
        mine = evaluation.find(played)
        if mine is None:
            raise ValueError(f"{_words(played, hand)} is not a legal move here")
        cost = max(0.0, coach.value - mine.value)
        grade = BEST if mine is coach else _tiles_grade(cost)
    else:
        advice = with_played(evaluation, played)
        option = advice.option(own, played.blind)
        mine = Option(played, -option.expected, expected=option.expected, pass_option=option)
        grade = _pass_grade(option)
        cost = max(0.0, option.behind)
        if played == coach.action:
            mine = coach
    reason = _pass_reason(hand, mine, coach, grade, int(evaluation.extra.get("current", 0)))
    return Judged(grade, cost, reason, RULES.get(played.kind, ("C1",)), coach.action, evaluation.unit)


def describe(hand: Hand, action: Action) -> str:
    """The coach's move in words, with why: the table's hint."""
    evaluation = evaluate(hand, action.seat)
    option = evaluation.find(action) or evaluation.best
    words = _words(option.action, hand)
    rules = ", ".join(RULES.get(option.action.kind, ("H3",)))
    if option.wins_now:
        rule = ", ".join(_win_rule(option.action))
        return f"The coach would {words}: that completes your hand, worth {option.value:.0f} points ({rule})."
    if evaluation.unit == POINTS:
        return f"The coach would {words}: it leaves you {_standing(option)}{_risk(option)} ({rules})."
    if option.expected is not None and option.action.kind in ("pass", "courtesy"):
        return f"The coach would {words}: it is expected to leave you {option.expected:.2f} tiles away once tiles come back ({rules})."
    return f"The coach would {words}.{_vote_facts(option, int(evaluation.extra.get('current', 0)))} ({rules})"


def hint(hand: Hand, seat: str) -> tuple[Action, str]:
    """The coach's move for `seat` now and why (the table's "What would the coach do?").
    A move a table rule shapes is explained as the review explains it (`_table_note`),
    its rule cited once."""
    best = evaluate(hand, seat).best.action
    words = describe(hand, best)
    note, rule = _table_note(hand, best, best)
    if not note:
        return best, words
    if re.search(rf"\b{rule}\b", words):
        note = note.replace(f" ({rule})", "")  # the coach's words cite it already: once is enough
    return best, f"{words} {note}"


def review(
    card: Card, seed: int, actions: list[Action], seat: str, progress: Callable[[int, int], None] | None = None,
    rules: TableRules = LEAGUE,
) -> Review:
    """Replay the hand under its table `rules` and grade every decision `seat` made;
    `progress(done, total)` is told after each graded decision. Every move is
    judged legal or not by those rules only."""
    if seat not in SEATS:
        raise ValueError(f"a seat is one of {', '.join(SEATS)}, not {seat!r}")
    hand = deal(card, seed, rules)
    total = sum(1 for a in actions if a.seat == seat)
    out = []
    for number, action in enumerate(actions):
        if action.seat == seat:
            judged = grade_decision(hand, action)
            rack = tuple(sorted((tiles.TABLE_CODES[t] for t in hand.racks[seat]), key=tiles.sort_key))
            exposed = tuple(tuple(e.as_exposure().codes) for e in hand.exposed[seat])
            out.append(
                Reviewed(
                    number, seat, action.kind, action, judged.coach, judged.grade, judged.cost, judged.reason, judged.rules,
                    len(hand.wall), rack, exposed, judged.unit, judged.missed_win,
                    hand.step if action.kind == "pass" else "",
                )
            )
            if progress is not None:
                progress(len(out), total)
        hand.apply(action)
    result = hand.result
    line = result.payment.line.id if result and result.payment and result.payment.line else None
    return Review(seat, tuple(out), result.winner if result else None, line)


def review_text(found: Review) -> str:
    """The review as a player reads it."""
    lines = [f"Review of {found.seat}'s decisions: {len(found.decisions)} decisions, accuracy {found.accuracy:.0%}."]
    if found.winner:
        lines.append(f"{found.winner} won with {found.line}.")
    else:
        lines.append("Nobody won: a wall game (E2).")
    worst = found.costliest()
    if worst:
        lines.append("The costliest decisions:")
        for d in worst:
            lines.append(f"  #{d.number} ({', '.join(filter(None, (d.name, d.when)))}): {d.grade}. {d.reason}")
    lines.append("Every decision:")
    for d in found.decisions:
        lines.append(f"  #{d.number:<3} {d.kind:<9} {d.grade:<11} {d.reason} ({', '.join(d.rules)})")
    return "\n".join(lines)
