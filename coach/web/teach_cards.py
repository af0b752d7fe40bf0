"""Teach: a teacher's own cards.

    GET      /teach/cards                  the teacher's cards and the upload form
    POST     /teach/cards                  upload a card (a file or pasted text)
    GET      /teach/cards/house.yaml       the house card, a file to start from
    GET      /teach/cards/<id>             the card's lines
    GET/POST /teach/cards/<id>/delete      confirm, then delete (refused while in use)

A card is checked line by line when it is uploaded (coach.card.parse_card
names the line, section and hand of every problem) and never changes
afterwards, so questions asked on it stay the same questions. It is
private: only its teacher and the students of their classes with an
assignment on it are asked questions on it.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from sqlmodel import Session

from coach.card import HOUSE_CARD, CardError
from coach.store import teaching
from coach.store.models import TeacherCard
from coach.web import teacher_cards
from coach.web.accounts import download
from coach.web.teach import bp, db, field, found, teacher_id, uploaded_text

CARD_TYPE = "text/yaml"


def _cards_page(session: Session, problems: list[str] | None = None, pasted: str = "", status: int = 200):
    owner = teacher_id()
    rows = teaching.cards_of(session, owner)
    uses = {row.id: teaching.card_uses(session, row.id or 0) for row in rows}
    return render_template(
        "teach/cards.html", rows=rows, uses=uses, problems=problems or [], pasted=pasted
    ), status


@bp.get("/cards")
def cards():
    """The teacher's cards, the upload form and what a card file looks like."""
    with db() as session:
        return _cards_page(session)


@bp.post("/cards")
def upload_card():
    """A card file or pasted text: every problem listed (422) and nothing
    stored until there are none."""
    owner = teacher_id()
    text, name, problem = uploaded_text("card_file", "card_text")
    pasted = field("card_text")
    with db() as session:
        if problem:
            return _cards_page(session, [problem], pasted, 422)
        try:
            row = teaching.add_card(session, owner, text, source=name or "Your card")
        except CardError as error:
            return _cards_page(session, list(error.problems), pasted, 422)
        except teaching.TeachingError as error:
            return _cards_page(session, [str(error)], pasted, 422)
        lines = "line" if row.lines == 1 else "lines"
        flash(f"Uploaded \u201c{row.name}\u201d with {row.lines} {lines}. Name it as the card of a drill set to use it.", "success")
        return redirect(url_for("teach.card_page", card_id=row.id), 303)


@bp.get("/cards/house.yaml")
def house_card_yaml():
    """The house card's file: the easiest start for a teacher's own card."""
    teacher_id()
    return download(HOUSE_CARD.read_text(encoding="utf-8"), CARD_TYPE, HOUSE_CARD.name)


def _own_card(session: Session, card_id: int) -> TeacherCard:
    return found(teaching.card_of(session, teacher_id(), card_id))


@bp.get("/cards/<int:card_id>")
def card_page(card_id: int):
    """The card's lines as the drills read them, to check the upload."""
    with db() as session:
        row = _own_card(session, card_id)
        return render_template(
            "teach/card.html", row=row, card=teacher_cards.card_of(row), uses=teaching.card_uses(session, card_id)
        )


@bp.route("/cards/<int:card_id>/delete", methods=["GET", "POST"])
def delete_card(card_id: int):
    """GET: a confirm page (or what still uses the card); POST: delete,
    refused while a set or assignment uses it."""
    with db() as session:
        row = _own_card(session, card_id)
        uses = teaching.card_uses(session, card_id)
        if request.method == "GET":
            return render_template("teach/delete_card.html", row=row, uses=uses, problem=None)
        name = row.name
        try:
            teaching.delete_card(session, teacher_id(), card_id)
        except teaching.TeachingError as error:
            return render_template("teach/delete_card.html", row=row, uses=uses, problem=str(error)), 422
    flash(f"Deleted the card \u201c{name}\u201d.", "success")
    return redirect(url_for("teach.cards"), 303)
