"""Teach: class hands, the same deal for the whole class (issue 16, part 6).

    GET  /teach/class-hands/<id>                            the class's dashboard of it: who played, who won, decision by decision
    GET  /teach/class-hands/<id>/students/<learner>         one student's hand, the coach's review of it (read-only)
    GET/POST /teach/class-hands/<id>/delete                 confirm, then take the hand back (students keep theirs)

The dashboard's decision-by-decision view is coach/hand_compare.compare:
at each of the learner's decisions, what the students who still share the
position chose ("7 of 12 threw the 3 Bam here; the coach would throw the
North"); where the class splits, the page follows the largest group and
names the students whose hands differ from there (their own review shows
the rest). Comparisons are cached by deal and moves. Reviews are never
computed here: the dashboard reads the stored ones (starting a finished
hand's that is missing) and a student's page shows how far theirs has got
until it is done (coach/web/shared/practice/reviews.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from sqlmodel import Session

from coach.notation.card import Card
from coach.play.bots import STRENGTHS
from coach.play.compare import Comparison, Step, compare
from coach.play.hand import Action
from coach.rules.table_rules import TableRules
from coach.store.models import ClassHand, Classroom, PracticeHand
from coach.store.table_rules import hand_rules
from coach.store.teaching import hands as store
from coach.store.teaching import roles, teachers_cards
from coach.web.infra import database
from coach.web.infra.htmx import render
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.practice import hands as practice
from coach.web.shared.practice.reviews import WAITING, ReviewState, start_review, stored_states
from coach.web.teach.base import bp, found, show_date, teacher_id, teacher_row
from drills.sets import HOUSE

CACHE_SIZE = 32
QUIET_RUN = 3  # this many decisions in a row where everyone played as the coach fold into one line
WON_HOW = {"discard": "from a discard", "self": "self-picked", "exchange": "after a joker exchange"}

def card_of(session: Session, given: ClassHand) -> Card:
    row = store.card_of_hand(session, given)
    return teacher_cards.card_of(row) if row is not None else current_app.extensions["coach"].card


# -- the class page: the list and the form -----------------------------------------------


@dataclass(frozen=True)
class HandSummary:
    given: ClassHand
    due: str
    started: int
    finished: int
    students: int

    @property
    def summary(self) -> str:
        if not self.students:
            return "No students yet"
        parts = [f"{self.finished} of {self.students} finished"]
        if self.started > self.finished:
            parts.append(f"{self.started - self.finished} playing")
        return " · ".join(parts)


def class_page_context(session: Session, room: Classroom) -> dict[str, Any]:
    """What the class page shows of class hands: the list and the form's choices."""
    teacher = teacher_row(session)
    hands = []
    for given in store.hands_of_class(session, room.id or 0):
        plays = store.plays_of(session, given)
        hands.append(
            HandSummary(
                given,
                show_date(given.due_at, teacher),
                sum(1 for p in plays if p.hand is not None),
                sum(1 for p in plays if p.hand is not None and p.hand.finished_at is not None),
                len(plays),
            )
        )
    cards = [(HOUSE, "The house card")] + [(str(c.id), c.name) for c in teachers_cards.cards_of(session, teacher.id or 0)]
    return {"class_hands": hands, "hand_cards": cards, "strengths": STRENGTHS}


# -- the dashboard --------------------------------------------------------------------------


@dataclass(frozen=True)
class StudentLine:
    learner_id: int
    name: str
    state: str  # "Not started", "Playing", "Finished"
    outcome: str  # "Won self-picked (2026-3)", "South won", "Wall game", ""
    won: bool
    accuracy: float | None
    decisions: int
    reviewing: bool = False  # finished, its review still being computed


def _accuracy(hand: PracticeHand, state: ReviewState | None) -> tuple[float | None, int]:
    """The share of decisions as good as the coach's, from the stored review of a
    finished hand (None while it goes on, or while its review is computed: the
    student's page shows the decisions so far), and how many decisions so far."""
    found = state.review if state is not None and hand.finished_at is not None else None
    if found is not None:
        return found.accuracy, len(found.decisions)
    return None, sum(1 for a in json.loads(hand.actions or "[]") if a.get("seat") == practice.SEAT)


def outcome(result: dict[str, Any]) -> tuple[str, bool]:
    winner = result.get("winner")
    if not result:
        return "", False
    if winner == practice.SEAT:
        line = f" ({result['line']})" if result.get("line") else ""
        return f"Won {WON_HOW.get(result.get('how', ''), '')}{line}".replace("  ", " "), True
    return (f"{winner} won" if winner else "Wall game"), False


def finished_reviews(plays: list[store.Played]) -> dict[int, ReviewState]:
    """The stored reviews of the finished hands, by hand id; one missing (or out of
    date) is started here, in the background, and shows as being computed."""
    finished = [p.hand for p in plays if p.hand is not None and p.hand.finished_at is not None]
    states = stored_states(finished)
    for hand_id, state in states.items():
        if state.status == WAITING:
            states[hand_id] = start_review(hand_id)
    return states


def student_lines(plays: list[store.Played], reviews: dict[int, ReviewState] | None = None) -> list[StudentLine]:
    reviews = reviews or {}
    lines = []
    for play in plays:
        hand = play.hand
        if hand is None:
            lines.append(StudentLine(play.learner.id or 0, play.name, "Not started", "", False, None, 0))
            continue
        review_state = reviews.get(hand.id or 0)
        accuracy, decisions = _accuracy(hand, review_state)
        words, won = outcome(play.result)
        state = "Finished" if hand.finished_at is not None else "Playing"
        reviewing = state == "Finished" and accuracy is None
        lines.append(StudentLine(play.learner.id or 0, play.name, state, words, won, accuracy, decisions, reviewing))
    return lines


def comparison(card: Card, given: ClassHand, plays: list[store.Played]) -> Comparison:
    """The class's hands compared, cached by the deal, its table rules and everyone's moves
    (a new move is a new key). Every student's hand of it was dealt under the class hand's rules."""
    moves = tuple((str(p.learner.id), p.hand.actions) for p in plays if p.hand is not None)
    return _compare(card, given.seed, moves, hand_rules(given))


@lru_cache(maxsize=CACHE_SIZE)
def _compare(card: Card, seed: int, moves: tuple[tuple[str, str], ...], rules: TableRules) -> Comparison:
    hands = {who: [Action.from_json(a) for a in json.loads(actions)] for who, actions in moves}
    return compare(card, seed, hands, practice.SEAT, rules)


def quiet(step: Step) -> bool:
    """Everyone at this position played as the coach would, nobody split off, nobody is still to play it."""
    return len(step.choices) == 1 and step.choices[0].coach and not step.split and not step.waiting


def runs(steps: tuple[Step, ...]) -> list[tuple[str, list[Step]]]:
    """The steps as the page shows them: ("step", [s]) each, or ("quiet", [...]) for a fold of quiet ones."""
    out: list[tuple[str, list[Step]]] = []
    calm: list[Step] = []
    for step in steps + (None,):
        if step is not None and quiet(step):
            calm.append(step)
            continue
        if len(calm) >= QUIET_RUN:
            out.append(("quiet", calm))
        else:
            out.extend(("step", [s]) for s in calm)
        calm = []
        if step is not None:
            out.append(("step", [step]))
    return out


def _class_hand(session: Session, class_hand_id: int) -> tuple[ClassHand, Classroom]:
    return found(store.hand_taught(session, teacher_id(), class_hand_id))


@bp.get("/class-hands/<int:class_hand_id>")
def class_hand_page(class_hand_id: int):
    with database.reading() as session:
        given, room = _class_hand(session, class_hand_id)
        teacher = teacher_row(session)
        card = card_of(session, given)
        plays = store.plays_of(session, given)
        lines = student_lines(plays, finished_reviews(plays))
        found_comparison = comparison(card, given, plays)
        names = {str(p.learner.id): p.name for p in plays}
        return render_template(
            "teach/class_hand.html",
            room=room,
            given=given,
            due=show_date(given.due_at, teacher),
            card_title=teacher_cards.title(card.name),
            class_hand_rules=hand_rules(given),
            lines=lines,
            started=sum(1 for line in lines if line.state != "Not started"),
            finished=sum(1 for line in lines if line.state == "Finished"),
            won=sum(1 for line in lines if line.won),
            comparison=found_comparison,
            runs=runs(found_comparison.steps),
            names=names,
            links={who: url_for("teach.student_hand", class_hand_id=given.id, learner_id=who) for who in names},
        )


@bp.get("/class-hands/<int:class_hand_id>/students/<int:learner_id>")
def student_hand(class_hand_id: int, learner_id: int):
    """A student's hand of the class hand, as the coach reviews it: read-only, for their teacher."""
    with database.reading() as session:
        given, room, person, hand_row = found(store.student_hand(session, teacher_id(), class_hand_id, learner_id))
        hand = practice.load(hand_row)
        practice.keep(hand_row, hand)
        words, _ = outcome(json.loads(hand_row.result or "null") or {})
        context = {"room": room, "given": given, "name": roles.display_name(person), "hand_row": hand_row,
                   "outcome": words, "over": hand.phase == "over"}
    assert hand_row.id is not None
    # The stored review of the hand as it stands (one still going: its decisions so far), started if missing.
    state = start_review(hand_row.id)
    return render("teach/class_hand_student.html", "teach/partials/student_review.html", state=state, **context), 200, {"Vary": "HX-Request"}


@bp.route("/class-hands/<int:class_hand_id>/delete", methods=["GET", "POST"])
def delete_class_hand(class_hand_id: int):
    """GET: a confirm page saying who has played it; POST: delete it."""
    with database.reading() as session:
        given, room = _class_hand(session, class_hand_id)
        if request.method == "GET":
            started = sum(1 for p in store.plays_of(session, given) if p.hand is not None)
            return render_template("teach/delete_class_hand.html", given=given, room=room, started=started)
        title, class_id = given.title, room.id
        store.delete_hand(session, teacher_id(), class_hand_id)
    flash(f"Took back the class hand \u201c{title}\u201d.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id) + "#class-hands", 303)
