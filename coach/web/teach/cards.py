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

from collections.abc import Callable
from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from sqlmodel import Session
from werkzeug.exceptions import RequestEntityTooLarge

from coach.notation.card import HOUSE_CARD, Card, MAX_CARD_BYTES, MAX_LINES, MAX_READINGS
from coach.store import own_cards
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.store.teaching.errors import TeachingError
from coach.web.shared import card_editor
from coach.web.infra import limits
from coach.web.shared import teacher_cards
from coach.web.account.sign_in import download
from coach.web.infra.errors import page_error
from coach.web.teach.base import bp, db, drilling, field, found, teacher_id, uploaded_text

CARD_TYPE = "text/yaml"
CAPS = {"kb": MAX_CARD_BYTES // 1024, "lines": MAX_LINES, "readings": MAX_READINGS}  # told on the upload form


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
    with db() as session:
        return _cards_page(session)


def echo(text: str, max_bytes: int) -> str:
    """Pasted text to show again in the form, so it can be fixed there;
    none when it is over the size cap (the page stays small)."""
    return text if len(text.encode("utf-8", "surrogatepass")) <= max_bytes else ""


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error: RequestEntityTooLarge):
    """A body over the app's limit (a card file or a drill set posted here): say the cap."""
    cap = (current_app.config.get("MAX_CONTENT_LENGTH") or MAX_CARD_BYTES) // 1024
    return page_error(
        413, "Too large", f"What you sent is larger than {cap} KB (the cap). A card file or a drill set must be smaller."
    )


@bp.post("/cards")
@limits.card_upload
def upload_card():
    """A card file or pasted text: every problem listed (422) and nothing
    stored until there are none, nor while the card is too heavy to drill on."""
    owner = teacher_id()
    with db() as session:
        row = save_upload(session, owner, _cards_page)
        if not isinstance(row, TeacherCard):
            return row
        return _stored(row, "Uploaded")


def _stored(row: TeacherCard, verb: str):
    """After a card is stored: its page, saying what came of it."""
    lines = "line" if row.lines == 1 else "lines"
    flash(f"{verb} \u201c{row.name}\u201d with {row.lines} {lines}. Name it as the card of a drill set to use it.", "success")
    return redirect(url_for("teach.card_page", card_id=row.id), 303)


def save_upload(session: Session, owner: int, page: Callable[..., Any]) -> TeacherCard | Any:
    """The card this form sent (a file or pasted text), saved for `owner`
    by own_cards.save_card; or, when anything is wrong, `page(session,
    problems, pasted, 422, total)`: the form again with every problem."""
    text, name, problem = uploaded_text("card_file", "card_text")
    pasted = echo(field("card_text"), MAX_CARD_BYTES)
    if problem:
        return page(session, [problem], pasted, 422)
    row = own_cards.save_card(session, owner, text, source=name or own_cards.DEFAULT_SOURCE)
    if isinstance(row, own_cards.CardProblems):
        return page(session, row.problems, pasted, 422, row.total)
    return row


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
    with db() as session:
        row = _own_card(session, card_id)
        return render_template(
            "teach/card.html", row=row, card=teacher_cards.card_of(row), uses=teachers_cards.card_uses(session, card_id)
        )


@bp.route("/cards/<int:card_id>/delete", methods=["GET", "POST"])
def delete_card(card_id: int):
    """GET: a confirm page (or what still uses the card); POST: delete,
    refused while a set or assignment uses it."""
    return confirm_delete(teacher_id(), card_id, url_for("teach.cards"))


def confirm_delete(owner: int, card_id: int, done: str, **places: Any):
    """The delete step of a card page, the teacher's or a learner's: GET a
    confirm page, POST delete and go to `done`. `places` overrides the
    confirm page's trail, action and back links (teach/delete_card.html)."""
    with db() as session:
        row = found(teachers_cards.card_of(session, owner, card_id))
        uses = teachers_cards.card_uses(session, card_id)
        page = dict(row=row, uses=uses, problem=None, **places)
        if request.method == "GET":
            return render_template("teach/delete_card.html", **page)
        name = row.name
        try:
            teachers_cards.delete_card(session, owner, card_id)
        except TeachingError as error:
            page["problem"] = str(error)
            return render_template("teach/delete_card.html", **page), 422
    flash(f"Deleted the card \u201c{name}\u201d.", "success")
    return redirect(done, 303)


# -- the card editor ----------------------------------------------------------------


def _editor(text: str, source: TeacherCard | None = None, rack: card_editor.RackTry | None = None,
            saving: list[card_editor.Problem] | None = None, status: int = 200, urls: dict[str, str] | None = None):
    """The editor page: the YAML, the card as printed, the rack box. `source`:
    the card being edited (its copy is saved as a new card); `urls`: where
    its forms post (a teacher's by default; My cards passes its own)."""
    urls = urls or _editor_urls()
    return render_template(
        "teach/card_editor.html", preview=card_editor.preview(text), rack=rack, source=source, saving=saving or [],
        caps=CAPS, urls=urls,
    ), status


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


def _edited(session: Session, owner: int) -> TeacherCard | None:
    """The card an editor form was opened on (its hidden `from`), if it is
    still the owner's. Only the page's heading names it: a card deleted
    meanwhile (or not theirs) is ignored, so the typed text is never lost."""
    raw = field("from")
    return teachers_cards.card_of(session, owner, int(raw)) if raw.isdigit() and len(raw) <= 9 else None


@bp.get("/cards/editor")
def card_editor_page():
    """An empty editor, or this year's usual sections to fill in."""
    teacher_id()
    return _editor(card_editor.LAYOUT if request.args.get("start") == "layout" else "")


@bp.get("/cards/<int:card_id>/edit")
def edit_card(card_id: int):
    """The editor on a copy of the card: the card itself never changes."""
    with db() as session:
        row = _own_card(session, card_id)
        return _editor(row.source, row)


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def editor_preview(owner: int, urls: dict[str, str]):
    """As one types (htmx): the printed card and its problems. Without
    JavaScript the Preview button brings the whole page back, with the
    tried rack's lines too when a rack is typed."""
    text = field("card_text")
    if _is_htmx():
        return render_template("teach/partials/card_preview.html", preview=card_editor.preview(text))
    rack = card_editor.try_rack(text, field("rack"), keep=_app_card()) if field("rack").strip() else None
    with db() as session:
        return _editor(text, _edited(session, owner), rack, urls=urls)


def editor_rack(owner: int, urls: dict[str, str]):
    """ "Try a rack": the nearest lines of the card being written."""
    text = field("card_text")
    rack = card_editor.try_rack(text, field("rack"), keep=_app_card())
    if _is_htmx():
        return render_template("teach/partials/card_rack.html", rack=rack)
    with db() as session:
        return _editor(text, _edited(session, owner), rack, urls=urls)


def editor_save(owner: int, urls: dict[str, str], stored: Callable[[TeacherCard, str], Any]):
    """Store the card as an upload is stored, as a new card; every problem
    at its line otherwise (422), nothing stored."""
    text = field("card_text")
    with db() as session:
        source = _edited(session, owner)
        if not text.strip():
            return _editor(text, source, saving=card_editor.pinned(text, ["Type the card first."]), status=422, urls=urls)
        taken = card_editor.name_taken(session, owner, text)
        if taken is not None:
            return _editor(text, source, saving=[taken], status=422, urls=urls)
        row, problems, _ = card_editor.store(session, owner, text)
        if row is None:
            return _editor(text, source, saving=card_editor.pinned(text, problems), status=422, urls=urls)
        return stored(row, "Saved")


@bp.post("/cards/editor/preview")
@limits.card_editor
def card_editor_preview():
    return editor_preview(teacher_id(), _editor_urls())


def _app_card() -> Card:
    return drilling().card


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
