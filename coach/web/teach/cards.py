"""Teach: a teacher's own cards.

    GET      /teach/cards                  the teacher's cards and the upload form
    POST     /teach/cards                  upload a card (a file or pasted text)
    GET      /teach/cards/house.yaml       the house card, a file to start from
    GET      /teach/cards/<id>             the card's lines
    GET/POST /teach/cards/<id>/delete      confirm, then delete (refused while in use)
    GET      /teach/cards/editor           the card editor (?start=layout: this year's sections)
    GET      /teach/cards/<id>/edit        the editor on a copy of a card (saving makes a new card)
    POST     /teach/cards/editor/preview   the card as printed, problems at their lines (htmx partial)
    POST     /teach/cards/editor/rack      the nearest lines for a typed rack (htmx partial)
    POST     /teach/cards/editor/save      store it as an upload is stored
    GET      /teach/cards/how-to           "How to write a card"

A card is checked line by line when it is uploaded (coach.notation.card.parse_card
names the line, section and hand of every problem, within caps on its
size), timed once on a first-pass question (drills.weight: a card too
heavy to drill on is refused) and never changes afterwards, so questions asked on it stay the same questions. It is
private: only its teacher and the students of their classes with an
assignment on it are asked questions on it.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from sqlmodel import Session
from werkzeug.exceptions import RequestEntityTooLarge

from coach.notation.card import HOUSE_CARD
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.web.infra import database, limits
from coach.web.infra.downloads import download
from coach.web.shared.cards import editor as card_editor
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.cards.pages import CAPS, confirm_delete, editor, editor_preview, editor_rack, editor_save, save_upload, too_large
from coach.web.teach.base import bp, found, teacher_id

CARD_TYPE = "text/yaml"
bp.register_error_handler(RequestEntityTooLarge, too_large)  # a card file over the cap: say the cap


def _cards_page(session: Session, problems: list[str] | None = None, pasted: str = "", status: int = 200, total: int = 0):
    owner = teacher_id()
    rows = teachers_cards.cards_of(session, owner)
    uses = {row.id: teachers_cards.card_uses(session, row.id or 0) for row in rows}
    return render_template(
        "teach/cards.html", rows=rows, uses=uses, problems=problems or [], pasted=pasted, total=total, caps=CAPS
    ), status


@bp.get("/cards")
def cards():
    """The teacher's cards, the upload form and what a card file looks like."""
    with database.reading() as session:
        return _cards_page(session)


@bp.post("/cards")
@limits.card_upload
def upload_card():
    """A card file or pasted text: every problem listed (422) and nothing
    stored until there are none, nor while the card is too heavy to drill on."""
    owner = teacher_id()
    with database.reading() as session:
        row = save_upload(session, owner, _cards_page)
        if not isinstance(row, TeacherCard):
            return row
        return _stored(row, "Uploaded")


def _stored(row: TeacherCard, verb: str):
    """After a card is stored: its page, saying what came of it."""
    lines = "line" if row.lines == 1 else "lines"
    flash(f"{verb} \u201c{row.name}\u201d with {row.lines} {lines}. Name it as the card of a drill set to use it.", "success")
    return redirect(url_for("teach.card_page", card_id=row.id), 303)


@bp.get("/cards/house.yaml")
def house_card_yaml():
    """The house card's file: the easiest start for a teacher's own card."""
    teacher_id()
    return download(HOUSE_CARD.read_text(encoding="utf-8"), CARD_TYPE, HOUSE_CARD.name)


def _own_card(session: Session, card_id: int) -> TeacherCard:
    return found(teachers_cards.card_of(session, teacher_id(), card_id))


@bp.get("/cards/<int:card_id>")
def card_page(card_id: int):
    """The card's lines as the drills read them, to check the upload."""
    with database.reading() as session:
        row = _own_card(session, card_id)
        return render_template(
            "teach/card.html", row=row, card=teacher_cards.card_of(row), uses=teachers_cards.card_uses(session, card_id)
        )


@bp.route("/cards/<int:card_id>/delete", methods=["GET", "POST"])
def delete_card(card_id: int):
    """GET: a confirm page (or what still uses the card); POST: delete,
    refused while a set or assignment uses it."""
    return confirm_delete(teacher_id(), card_id, url_for("teach.cards"))


# -- the card editor ----------------------------------------------------------------


def _editor_urls() -> dict[str, str]:
    # The template posts wherever it is told: other owners' routes can serve it too.
    return {
        "preview": url_for("teach.card_editor_preview"),
        "rack": url_for("teach.card_editor_rack"),
        "save": url_for("teach.card_editor_save"),
        "layout": url_for("teach.card_editor_page", start="layout"),
        "how_to": url_for("teach.how_to_write_a_card"),
        "cancel": url_for("teach.cards"),
        "home": url_for("teach.home"),
        "home_label": "Teach",
    }


@bp.get("/cards/editor")
def card_editor_page():
    """An empty editor, or this year's usual sections to fill in."""
    teacher_id()
    return editor(card_editor.LAYOUT if request.args.get("start") == "layout" else "", _editor_urls())


@bp.get("/cards/<int:card_id>/edit")
def edit_card(card_id: int):
    """The editor on a copy of the card: the card itself never changes."""
    with database.reading() as session:
        row = _own_card(session, card_id)
        return editor(row.source, _editor_urls(), row)


@bp.post("/cards/editor/preview")
@limits.card_editor
def card_editor_preview():
    return editor_preview(teacher_id(), _editor_urls())


@bp.post("/cards/editor/rack")
@limits.card_editor
def card_editor_rack():
    return editor_rack(teacher_id(), _editor_urls())


@bp.post("/cards/editor/save")
@limits.card_editor
def card_editor_save():
    return editor_save(teacher_id(), _editor_urls(), _stored)


@bp.get("/cards/how-to")
def how_to_write_a_card():
    """The card format for the people who type cards in: every key, with examples."""
    teacher_id()
    return render_template("teach/how_to_card.html", caps=CAPS, layout=card_editor.LAYOUT)
