"""Replay your mistakes: positions of your finished practice hands, asked again.

    GET  /replay                   the next position due (or the progress page when none is)
    GET  /replay/<id>              one position as a question
    POST /replay/answer            an answer: graded, and the position rescheduled (fsrs)

A question's token signs the position's id and nothing else. Grading
loads the position with an owner check (someone else's is a 404), rebuilds
the hand from its stored actions and grades the answer again there
(coach/play/positions.py), so nothing the client sends says what was asked or
what is right (coach/web/shared/replay_questions.py). Inside today's practice the stage and verdict are the same
partials as every drill's, and "Next" moves the session on.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, redirect, render_template, request, url_for

from coach.store import replays
from coach.web.infra import database, limits
from coach.web.infra.htmx import is_htmx, render
from coach.web.shared import learners
from coach.web.shared.drilling import sessions as drill_sessions
from coach.web.shared.drilling.views import NO_ANSWER, given_answer, no_answer, picked_places
from coach.web.shared.replay_questions import asked_at, context, grade, position_id_of
from drills.kit.base import AnswerError

bp = Blueprint("replay", __name__)


def _render(name: str, status: int = 200, **ctx: Any):
    return render("replay/position.html", f"partials/replay_position_{name}.html", **ctx), status


@bp.get("/replay")
def next_due():
    with database.reading() as session:
        learner = learners.current_learner(session)
        due = replays.due(session, learner.id, limit=1) if learner is not None and learner.id else []
        if not due:
            return redirect(url_for("progress_page.progress"), 303)
        return redirect(url_for("replay.position_page", position_id=due[0].id), 303)


@bp.get("/replay/<int:position_id>")
@limits.drilling
def position_page(position_id: int):
    with database.reading() as session:
        asked, row = asked_at(session, learners.current_learner(session), position_id)
        return render_template("replay/position.html", **context(asked, row))


@bp.post("/replay/answer")
@limits.drilling
def answer():
    form = request.form
    position_id = position_id_of(form.get("token"))
    extra = drill_sessions.from_form(form, kinds=("today",))
    with database.writing() as session:
        learner = learners.current_learner(session)
        asked, row = asked_at(session, learner, position_id)
        given = given_answer(form)
        problem = NO_ANSWER if no_answer(given) else None
        verdict = None
        if problem is None:
            try:
                verdict = grade(asked, given)
            except AnswerError as error:
                problem = str(error)
        if verdict is None:
            if is_htmx():
                return render_template("partials/problem.html", title="Not quite yet", message=problem), 422
            picked = picked_places(asked.question.rack, given)
            return _render("stage", 422, **context(asked, row, problem=problem, picked=picked, **extra))
        replays.record_answer(session, row, verdict.correct, verdict.answer)
        return _render("verdict", 200, **context(asked, row, verdict, verdict.answer, **extra))


def waiting_now() -> tuple[int, int]:
    """(due now, kept in all) of this request's learner's positions: the progress page's line."""
    with database.reading() as session:
        learner = learners.current_learner(session)
        return replays.waiting(session, learner.id) if learner is not None and learner.id else (0, 0)


def of_hand(hand_id: int) -> dict[int, int]:
    """This request's learner's positions of one hand (decision number -> position id): the review's links."""
    with database.reading() as session:
        learner = learners.current_learner(session)
        return replays.of_hand(session, learner.id, hand_id) if learner is not None and learner.id else {}


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    # For the progress page and a hand's review, whose routes other modules own.
    app.jinja_env.globals.update(replays_waiting=waiting_now, replays_of_hand=of_hand)
