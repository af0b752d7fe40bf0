"""My cards: anyone with an account drills on a card of their own.

    GET      /account/cards                 the learner's cards, the upload form, the card they drill on
    POST     /account/cards                 upload a card (a file or pasted text)
    GET      /account/cards/<id>            the card's lines
    GET/POST /account/cards/<id>/delete     confirm, then delete (refused while a class uses it)
    POST     /account/cards/choose          deal the drills from this card ("house" or a card's id)
    GET      /account/cards/editor          the card editor (also /<id>/edit on a copy); POST editor/preview|rack|save
    GET      /account/cards/how-to          how to write a card

A card is checked exactly as a teacher's (own_cards.save_card) and is as
private: only its owner, and the students of a class whose assignment uses
it, are asked questions on it. The choice is kept per learner and read on
every drill page and in today's practice (`chosen_card`); grading finds
the card again from the question's token through teacher_cards.find_card,
which checks again that this person may use it. A guest (answers kept in
one browser) is told to make an account first.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlmodel import Session
from werkzeug.exceptions import RequestEntityTooLarge

from coach.store import own_cards
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.store.teaching.errors import TeachingError
from coach.web.infra import database, limits
from coach.web.infra.errors import page_error
from coach.web.infra.forms import field
from coach.web.infra.redirects import safe_next, sign_in_first
from coach.web.shared.cards import editor as card_editor
from coach.web.shared.cards import pages as card_pages
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.cards.choice import HOUSE, account_id, house_name, picker
from coach.web.shared.cards.pages import CAPS, confirm_delete, save_upload, too_large
from coach.web.shared.dates import day
from coach.web.shared.learners import is_account

bp = Blueprint("my_cards", __name__, url_prefix="/account/cards")
bp.register_error_handler(RequestEntityTooLarge, too_large)

NEED_ACCOUNT = (
    "Drilling on your own card needs an account: your card is kept with it. "
    "Create an account or sign in; your answers so far come with you."
)


def owner_id() -> int:
    """The signed-in account's id; a guest or a visitor gets a 403 that says why."""
    if not is_account():
        sign_in_first(NEED_ACCOUNT)  # a visitor's link comes back here once signed in
    return int(current_user.id)


# -- the pages ------------------------------------------------------------------------------


def _page(session: Session | None, problems: list[str] | None = None, pasted: str = "", status: int = 200, total: int = 0):
    learner_id = account_id()
    rows: list[TeacherCard] = []
    chosen = None
    options: list[own_cards.CardOption] = []
    if session is not None and learner_id is not None:
        rows = teachers_cards.cards_of(session, learner_id)
        chosen = own_cards.chosen_row(session, learner_id)
        options = own_cards.usable_cards(session, learner_id)
    return render_template(
        "account/cards.html",
        account=learner_id is not None,
        need_account=NEED_ACCOUNT,
        rows=rows,
        chosen=chosen,
        options=options,
        house_name=house_name(),
        problems=problems or [],
        pasted=pasted,
        total=total,
        caps=CAPS,
    ), status


@bp.get("")
def cards():
    """The learner's cards and the upload form; a guest learns they need an account."""
    if account_id() is None:
        return _page(None)
    with database.reading() as session:
        return _page(session)


@bp.post("")
@limits.card_upload
def upload():
    """A card file or pasted text: every problem listed (422), nothing stored until there are none."""
    owner = owner_id()
    with database.reading() as session:
        row = save_upload(session, owner, _page)
        if not isinstance(row, TeacherCard):
            return row
        name, lines, number = row.name, row.lines, row.id
        use = field("use") == "yes"
        if use:
            own_cards.choose(session, owner, number)
    then = "Your drills now deal from it." if use else "Choose it to drill on it."
    flash(f"Uploaded \u201c{name}\u201d with {lines} {'line' if lines == 1 else 'lines'}. {then}", "success")
    return redirect(url_for("my_cards.card_page", card_id=number), 303)


def _own(session: Session, card_id: int) -> TeacherCard:
    row = teachers_cards.card_of(session, owner_id(), card_id)
    if row is None:  # someone else's card and a missing one look the same
        abort(404)
    return row


@bp.get("/<int:card_id>")
def card_page(card_id: int):
    """The card's lines as the drills read them, to check the upload."""
    with database.reading() as session:
        row = _own(session, card_id)
        chosen = own_cards.chosen_row(session, owner_id())
        return render_template(
            "account/card.html",
            row=row,
            card=teacher_cards.card_of(row),
            chosen=chosen is not None and chosen.id == row.id,
            uses=teachers_cards.card_uses(session, card_id),
        )


@bp.route("/<int:card_id>/delete", methods=["GET", "POST"])
def delete(card_id: int):
    """GET: a confirm page; POST: delete (refused while a set or assignment uses it).
    Drills dealt from it go back to the house card."""
    mine = url_for("my_cards.card_page", card_id=card_id)
    return confirm_delete(
        owner_id(),
        card_id,
        url_for("my_cards.cards"),
        root=[("Account", url_for("accounts.account")), ("My cards", url_for("my_cards.cards"))],
        back=mine,
        action=url_for("my_cards.delete", card_id=card_id),
    )


@bp.post("/choose")
def choose():
    """Deal the drills from a card: "house", or one the learner may use
    (theirs, or their class's). Anything else is a 404 with a message,
    the same for someone else's card and a missing one."""
    owner = owner_id()
    raw = field("card").strip()
    card_id: int | None
    if raw == HOUSE:
        card_id = None
    elif raw.isdigit() and len(raw) <= 12:
        card_id = int(raw)
    else:
        abort(400, description="Choose the house card or one of your cards from the list.")
    with database.reading() as session:
        try:
            row = own_cards.choose(session, owner, card_id)
        except TeachingError as error:
            return page_error(404, "No such card", str(error))
        chosen = row.name if row is not None else house_name()
    flash(f"Your drills now deal from \u201c{chosen}\u201d.", "success")
    return redirect(safe_next(field("next")) or url_for("my_cards.cards"), 303)


# -- the card editor, as teachers have it (shared.card_pages.editor_*) -------------------------------


def _editor_urls() -> dict[str, str]:
    return {
        "preview": url_for("my_cards.editor_preview"),
        "rack": url_for("my_cards.editor_rack"),
        "save": url_for("my_cards.editor_save"),
        "layout": url_for("my_cards.editor", start="layout"),
        "how_to": url_for("my_cards.how_to"),
        "cancel": url_for("my_cards.cards"),
        "home": url_for("accounts.account"),
        "home_label": "Account",
    }


def _saved(row: TeacherCard, verb: str):
    lines = "line" if row.lines == 1 else "lines"
    flash(f"{verb} \u201c{row.name}\u201d with {row.lines} {lines}. Choose it to drill on it.", "success")
    return redirect(url_for("my_cards.card_page", card_id=row.id), 303)


@bp.get("/editor")
def editor():
    """The card editor for a learner's own card: the YAML beside the card as printed."""
    owner_id()
    return card_pages.editor(card_editor.LAYOUT if request.args.get("start") == "layout" else "", _editor_urls())


@bp.get("/<int:card_id>/edit")
def edit(card_id: int):
    """The editor on a copy of one of the learner's cards (a card never changes)."""
    with database.reading() as session:
        row = _own(session, card_id)
        return card_pages.editor(row.source, _editor_urls(), row)


@bp.post("/editor/preview")
@limits.card_editor
def editor_preview():
    return card_pages.editor_preview(owner_id(), _editor_urls())


@bp.post("/editor/rack")
@limits.card_editor
def editor_rack():
    return card_pages.editor_rack(owner_id(), _editor_urls())


@bp.post("/editor/save")
@limits.card_editor
@limits.card_upload
def editor_save():
    return card_pages.editor_save(owner_id(), _editor_urls(), _saved)


@bp.get("/how-to")
def how_to():
    """How to write a card, for anyone with an account."""
    owner_id()
    return render_template("teach/how_to_card.html", caps=CAPS, layout=card_editor.LAYOUT, editor_url=url_for("my_cards.editor"))


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(card_picker=picker)


@bp.context_processor
def _helpers() -> dict[str, Any]:
    return {"day": day}
