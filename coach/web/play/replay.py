"""Replay your mistakes: positions of your finished practice hands, asked again.

    GET  /replay                   the next position due (or the progress page when none is)
    GET  /replay/<id>              one position as a question
    POST /replay/answer            an answer: graded, and the position rescheduled (fsrs)

A question's token signs the position's id and nothing else. Grading
loads the position with an owner check (someone else's is a 404), rebuilds
the hand from its stored actions and grades the answer again there
(coach/play/positions.py), so nothing the client sends says what was asked or
what is right. Inside today's practice the stage and verdict are the same
partials as every drill's, and "Next" moves the session on.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from itsdangerous import BadData, URLSafeSerializer
from werkzeug.exceptions import HTTPException
from sqlmodel import Session

from coach.notation.card import Card
from coach.play.hand import Action, HandError
from coach.play.positions import position_at, rebuild
from coach.store import hands
from coach.store import replays
from coach.store.models import Learner, ReplayPosition
from coach.store.progress import local_day, zone
from coach.web.shared import learners
from coach.web.infra import limits
from coach.web.shared.drilling import Asked
from coach.web.drill.pages import NO_ANSWER, drill_context, given_answer, no_answer, picked_places
from drills import replay_position
from drills.kit.base import AnswerError, Verdict

bp = Blueprint("replay", __name__)
TOKEN_SALT = "replay-position"


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=TOKEN_SALT)


def token_for(position_id: int) -> str:
    return str(_signer().dumps({"position": position_id}))


def position_id_of(token: Any) -> int:
    """The position a token names; 400 if it was altered or forged."""
    try:
        data = _signer().loads(token) if isinstance(token, str) and token else None
    except BadData:
        data = None
    if not isinstance(data, dict) or set(data) != {"position"} or not isinstance(data["position"], int):
        abort(400, description="The question token is not valid: it was altered, or this server did not issue it.")
    return data["position"]


def _card() -> Card:
    return current_app.extensions["coach"].card


def asked_at(session: Session, learner: Learner | None, position_id: int) -> tuple[Asked, ReplayPosition]:
    """The question at one of the learner's positions; 404 for anyone else's, 409 if its card is gone."""
    found = replays.position_of(session, learner.id, position_id) if learner is not None and learner.id else None
    if found is None:
        abort(404)
    row, hand_row = found
    card = _card()
    if hand_row.card != card.name:
        abort(409, description=f'This position comes from a hand dealt on "{hand_row.card}", which the coach no longer uses.')
    try:
        actions = [Action.from_json(a) for a in hands.actions_of(hand_row)]
        position = position_at(hand_row.seed, actions, row.number, hand_row.seat)
        hand = rebuild(card, position)
    except (HandError, ValueError):
        abort(409, description="This position can no longer be rebuilt from its hand.")
    question = replay_position.ask(card, hand, position)
    return Asked(question, token_for(position_id), replay_position, card), row


def grade(asked: Asked, answer: Any) -> Verdict:
    return replay_position.grade(asked.question, answer)


def context(asked: Asked, row: ReplayPosition, verdict: Verdict | None = None, answer: Any = None, **extra: Any) -> dict[str, Any]:
    """What the replay stage and verdict need, as a drill's (pages.drill_context) and the position."""
    return drill_context(asked, verdict, answer, position=row, label=replay_position.label, **extra)


def daily_context(session: Session, learner: Learner, position_id: int, slot: int, day: Any) -> dict[str, Any]:
    """Today's practice at a replay slot: the question, with its verdict if it was answered today (a reload).
    A position gone since the day was planned (its hand deleted, the card changed) is only skipped."""
    from coach.web.drill.today import session_context  # daily imports this module

    try:
        asked, row = asked_at(session, learner, position_id)
    except HTTPException as gone:
        why = gone.description if gone.code == 409 else "Its hand is no longer kept."
        return {"base": "replay_position_gone", "gone": why, **session_context(slot)}
    verdict = answer = None
    if row.answered_at is not None and local_day(row.answered_at, zone(learner)) == day:
        answer = json.loads(row.last_answer)
        try:
            verdict = grade(asked, answer)
        except AnswerError:
            answer = None
    return context(asked, row, verdict, answer, **session_context(slot))


def answered_in(session: Session, learner: Learner, ids: list[int], day: Any) -> tuple[int, int]:
    """(answered, right) of today's replay slots, for the session's summary."""
    answered = right = 0
    for position_id in ids:
        found = replays.position_of(session, learner.id or 0, position_id)
        if found and found[0].answered_at is not None and local_day(found[0].answered_at, zone(learner)) == day:
            answered += 1
            right += bool(found[0].last_correct)
    return answered, right


def _session_extra(form) -> dict[str, Any]:
    if form.get("session") != "today":
        return {}
    try:
        slot = int(form.get("slot", ""))
    except ValueError:
        return {}
    from coach.web.drill.today import session_context

    return session_context(slot)


def _render(name: str, status: int = 200, **ctx: Any):
    partial = request.headers.get("HX-Request") == "true"
    page = f"partials/replay_position_{name}.html" if partial else "replay/position.html"
    return render_template(page, **ctx), status


@bp.get("/replay")
def next_due():
    with Session(learners.engine()) as session:
        learner = learners.current_learner(session)
        due = replays.due(session, learner.id, limit=1) if learner is not None and learner.id else []
        if not due:
            return redirect(url_for("progress_page.progress"), 303)
        return redirect(url_for("replay.position_page", position_id=due[0].id), 303)


@bp.get("/replay/<int:position_id>")
@limits.drilling
def position_page(position_id: int):
    with Session(learners.engine()) as session:
        asked, row = asked_at(session, learners.current_learner(session), position_id)
        return render_template("replay/position.html", **context(asked, row))


@bp.post("/replay/answer")
@limits.drilling
def answer():
    form = request.form
    position_id = position_id_of(form.get("token"))
    extra = _session_extra(form)
    with Session(learners.engine()) as session:
        with learners.write_lock():
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
                if request.headers.get("HX-Request") == "true":
                    return render_template("partials/problem.html", title="Not quite yet", message=problem), 422
                picked = picked_places(asked.question.rack, given)
                return _render("stage", 422, **context(asked, row, problem=problem, picked=picked, **extra))
            replays.record_answer(session, row, verdict.correct, verdict.answer)
            return _render("verdict", 200, **context(asked, row, verdict, verdict.answer, **extra))


def waiting_now() -> tuple[int, int]:
    """(due now, kept in all) of this request's learner's positions: the progress page's line."""
    with Session(learners.engine()) as session:
        learner = learners.current_learner(session)
        return replays.waiting(session, learner.id) if learner is not None and learner.id else (0, 0)


def of_hand(hand_id: int) -> dict[int, int]:
    """This request's learner's positions of one hand (decision number -> position id): the review's links."""
    with Session(learners.engine()) as session:
        learner = learners.current_learner(session)
        return replays.of_hand(session, learner.id, hand_id) if learner is not None and learner.id else {}


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    # For the progress page and a hand's review, whose routes other modules own.
    app.jinja_env.globals.update(replays_waiting=waiting_now, replays_of_hand=of_hand)
