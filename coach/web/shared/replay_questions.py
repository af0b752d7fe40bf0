"""A position of a finished practice hand asked again as a question: the
replay page's, and today's practice's when its plan has a replay slot.

A question's token signs the position's id and nothing else. Grading
loads the position with an owner check (someone else's is a 404), rebuilds
the hand from its stored actions and grades the answer again there
(coach/play/positions.py), so nothing the client sends says what was asked or
what is right.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import abort, current_app
from itsdangerous import BadData, URLSafeSerializer
from sqlmodel import Session
from werkzeug.exceptions import HTTPException

from coach.notation.card import Card
from coach.play.hand import Action, HandError
from coach.play.positions import position_at, rebuild
from coach.store import hands, replays
from coach.store.models import Learner, ReplayPosition
from coach.store.progress import local_day, zone
from coach.store.table_rules import hand_rules
from coach.web.shared.drilling import Asked
from coach.web.shared.drilling.sessions import today_context
from coach.web.shared.drilling.views import drill_context
from drills import replay_position
from drills.kit.base import AnswerError, Verdict

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
        position = position_at(hand_row.seed, actions, row.number, hand_row.seat, hand_rules(hand_row))
        hand = rebuild(card, position)  # under the rules the hand was played by (the position carries them)
    except (HandError, ValueError):
        abort(409, description="This position can no longer be rebuilt from its hand.")
    question = replay_position.ask(card, hand, position)
    if question.rules != hand.rules:  # the verdict shows the table rules the hand was played by
        question = dataclasses.replace(question, rules=hand.rules)
    return Asked(question, token_for(position_id), replay_position, card), row


def grade(asked: Asked, answer: Any) -> Verdict:
    return replay_position.grade(asked.question, answer)


def context(asked: Asked, row: ReplayPosition, verdict: Verdict | None = None, answer: Any = None, **extra: Any) -> dict[str, Any]:
    """What the replay stage and verdict need, as a drill's (drill_views.drill_context) and the position."""
    return drill_context(asked, verdict, answer, position=row, label=replay_position.label, **extra)


def daily_context(session: Session, learner: Learner, position_id: int, slot: int, day: Any) -> dict[str, Any]:
    """Today's practice at a replay slot: the question, with its verdict if it was answered today (a reload).
    A position gone since the day was planned (its hand deleted, the card changed) is only skipped."""
    try:
        asked, row = asked_at(session, learner, position_id)
    except HTTPException as gone:
        why = gone.description if gone.code == 409 else "Its hand is no longer kept."
        return {"base": "replay_position_gone", "gone": why, **today_context(slot)}
    verdict = answer = None
    if row.answered_at is not None and local_day(row.answered_at, zone(learner)) == day:
        answer = json.loads(row.last_answer)
        try:
            verdict = grade(asked, answer)
        except AnswerError:
            answer = None
    return context(asked, row, verdict, answer, **today_context(slot))


def answered_in(session: Session, learner: Learner, ids: list[int], day: Any) -> tuple[int, int]:
    """(answered, right) of today's replay slots, for the session's summary."""
    answered = right = 0
    for position_id in ids:
        found = replays.position_of(session, learner.id or 0, position_id)
        if found and found[0].answered_at is not None and local_day(found[0].answered_at, zone(learner)) == day:
            answered += 1
            right += bool(found[0].last_correct)
    return answered, right
