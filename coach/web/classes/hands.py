"""Class hands, the student's side: start (or resume) the hand your teacher
gave your class, on the ordinary table (issue 16, part 6).

    POST /class-hands/<id>/play     your own hand of it, made on the first press, then /play/<hand id>

Only a student of the class may start it; anyone else gets the same 404
as for a class hand that does not exist. The hand is then the student's
own practice hand (private to them; their teacher reads it read-only).
"""

from __future__ import annotations

from flask import Blueprint, Flask, abort, current_app, redirect, url_for
from sqlmodel import Session

from coach.store.models import ClassHand
from coach.store.teaching import hands as store
from coach.store.teaching import teachers_cards
from coach.web.infra import database, limits
from coach.web.shared import learners
from coach.web.shared.practice import hands as practice_hands
from coach.web.shared.practice import moves as practice_moves

bp = Blueprint("class_hands", __name__)


def card_name(session: Session, given: ClassHand) -> str:
    """The name the student's hand keeps of its card: the teacher's card's key, or the house card's name."""
    row = store.card_of_hand(session, given)
    return teachers_cards.card_key(row) if row is not None else current_app.extensions["coach"].card.name


@bp.post("/class-hands/<int:class_hand_id>/play")
@limits.drilling
def play(class_hand_id: int):
    with database.writing() as session:
        learner = learners.current_learner(session)
        found = store.hand_given(session, learner.id, class_hand_id) if learner and learner.id else None
        if found is None:
            abort(404)
        given = found[0]
        row, new = store.start_hand(session, learner.id, given, card_name(session, given))  # type: ignore[union-attr, arg-type]
        if new:  # the computer players pass first, as on a hand dealt from /play
            practice_moves.advance(session, row, practice_hands.load(row))
        return redirect(url_for("practice.table", hand_id=row.id), 303)


def install(app: Flask) -> None:
    app.register_blueprint(bp)
