"""What the card pages of teachers (/teach/cards) and of learners (/account/cards)
share: the upload, the delete step, and the card editor's three posts.

Each owner's routes check who is asking and pass the owner's id and their own
addresses (`urls`, where the editor's forms post); the pages are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request
from sqlmodel import Session
from werkzeug.exceptions import RequestEntityTooLarge

from coach.notation.card import MAX_ASKED, MAX_ASKED_PER_LINE, MAX_CARD_BYTES, MAX_LINES, MAX_READINGS, Card
from coach.store import own_cards
from coach.store.models import TeacherCard
from coach.store.teaching import teachers_cards
from coach.store.teaching.errors import TeachingError
from coach.web.infra import database
from coach.web.infra.errors import page_error
from coach.web.infra.forms import echo, field, uploaded_text
from coach.web.infra.htmx import is_htmx
from coach.web.shared.cards import editor as card_editor

CAPS = {"kb": MAX_CARD_BYTES // 1024, "lines": MAX_LINES, "readings": MAX_READINGS,  # told on the upload form
        "asked_line": MAX_ASKED_PER_LINE, "asked": MAX_ASKED}


def too_large(error: RequestEntityTooLarge):
    """A body over the app's limit (a card file or a drill set posted here): say the cap."""
    cap = (current_app.config.get("MAX_CONTENT_LENGTH") or MAX_CARD_BYTES) // 1024
    return page_error(
        413, "Too large", f"What you sent is larger than {cap} KB (the cap). A card file or a drill set must be smaller."
    )


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


def confirm_delete(owner: int, card_id: int, done: str, **places: Any):
    """The delete step of a card page, the teacher's or a learner's: GET a
    confirm page, POST delete and go to `done`. `places` overrides the
    confirm page's trail, action and back links (teach/delete_card.html)."""
    with database.reading() as session:
        row = teachers_cards.card_of(session, owner, card_id)
        if row is None:  # someone else's card and a missing one look the same
            abort(404)
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


def editor(text: str, urls: dict[str, str], source: TeacherCard | None = None, rack: card_editor.RackTry | None = None,
           saving: list[card_editor.Problem] | None = None, status: int = 200, parsed: card_editor.Parsed | None = None):
    """The editor page: the YAML, the card as printed, the rack box. `source`:
    the card being edited (its copy is saved as a new card); `urls`: where
    its forms post (each owner's own routes); `parsed`: the text read
    already in this request (card_editor.read), so it is parsed once."""
    return render_template(
        "teach/card_editor.html", preview=card_editor.preview(text, parsed), rack=rack, source=source,
        saving=saving or [], caps=CAPS, urls=urls,
    ), status


def _edited(session: Session, owner: int) -> TeacherCard | None:
    """The card an editor form was opened on (its hidden `from`), if it is
    still the owner's. Only the page's heading names it: a card deleted
    meanwhile (or not theirs) is ignored, so the typed text is never lost."""
    raw = field("from")
    return teachers_cards.card_of(session, owner, int(raw)) if raw.isdigit() and len(raw) <= 9 else None


def _app_card() -> Card:
    return current_app.extensions["coach"].card


def editor_preview(owner: int, urls: dict[str, str]):
    """As one types (htmx): the printed card and its problems. Without
    JavaScript the Preview button brings the whole page back, with the
    tried rack's lines too when a rack is typed."""
    text = field("card_text")
    parsed = card_editor.read(text) if text.strip() else None  # once for the whole request
    if is_htmx():
        return render_template("teach/partials/card_preview.html", preview=card_editor.preview(text, parsed))
    rack = card_editor.try_rack(text, field("rack"), keep=_app_card(), parsed=parsed) if field("rack").strip() else None
    with database.reading() as session:
        return editor(text, urls, _edited(session, owner), rack, parsed=parsed)


def editor_rack(owner: int, urls: dict[str, str]):
    """ "Try a rack": the nearest lines of the card being written."""
    text = field("card_text")
    parsed = card_editor.read(text) if text.strip() else None  # once for the whole request
    rack = card_editor.try_rack(text, field("rack"), keep=_app_card(), parsed=parsed)
    if is_htmx():
        return render_template("teach/partials/card_rack.html", rack=rack)
    with database.reading() as session:
        return editor(text, urls, _edited(session, owner), rack, parsed=parsed)


def editor_save(owner: int, urls: dict[str, str], stored: Callable[[TeacherCard, str], Any]):
    """Store the card as an upload is stored, as a new card; every problem
    at its line otherwise (422), nothing stored."""
    text = field("card_text")
    with database.reading() as session:
        source = _edited(session, owner)
        if not text.strip():
            return editor(text, urls, source, saving=card_editor.pinned(text, ["Type the card first."]), status=422)
        parsed = card_editor.read(text)  # once: the name check, the store and the page again all use it
        taken = card_editor.name_taken(session, owner, text, parsed)
        if taken is not None:
            return editor(text, urls, source, saving=[taken], status=422, parsed=parsed)
        row, problems, _ = card_editor.store(session, owner, text, parsed=parsed)
        if row is None:
            return editor(text, urls, source, saving=card_editor.pinned(text, problems), status=422, parsed=parsed)
        return stored(row, "Saved")
