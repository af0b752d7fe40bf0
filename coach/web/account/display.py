"""Display settings: light, dark or the device's own theme, and large tiles.

    POST /account/display   save the learner's choice (a guest is made if need be)

The choice is kept in the learner's `learner_display` row, so it follows an account to every
device and a guest's browser keeps it. Pages apply it as classes on <html>
(`html_classes` in base.html; static/css/theme.css does the rest): no inline
style, which the Content-Security-Policy forbids. With no choice, dark mode
follows the device (prefers-color-scheme).
"""

from __future__ import annotations

from flask import Blueprint, Flask, flash, redirect, request, url_for
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from coach.store.accounts import display_of, display_row
from coach.store.models import LearnerDisplay
from coach.web.infra import database, limits
from coach.web.infra.redirects import safe_next
from coach.web.shared import learners

bp = Blueprint("display", __name__)

THEMES = {"system": "Match this device", "light": "Light", "dark": "Dark"}
TILE_SIZES = {"normal": "Standard", "large": "Large"}


def classes_for(theme: str, tile_size: str) -> str:
    """The <html> classes of a choice; none for the defaults."""
    return " ".join(c for c in (f"theme-{theme}" if theme in ("light", "dark") else "",
                                "tiles-large" if tile_size == "large" else "") if c)


def choice() -> tuple[str, str]:
    """This request's learner's (theme, tile size); the defaults for a visitor with no row."""
    if current_user.is_authenticated:
        try:
            with database.reading() as session:
                chosen = display_of(session, int(current_user.id))
                return chosen["theme"], chosen["tile_size"]
        except SQLAlchemyError:
            pass  # an error page may be showing because the database is away: it still renders
    return "system", "normal"


def html_classes() -> str:
    return classes_for(*choice())


@bp.post("/account/display")
@limits.drilling  # saving makes a guest when there is none, as a first answer does
def save():
    theme, tile_size = request.form.get("theme", ""), request.form.get("tile_size", "")
    back = safe_next(request.form.get("next")) or url_for("accounts.account") + "#display"
    if theme not in THEMES or tile_size not in TILE_SIZES:
        flash("Choose a theme (match this device, light or dark) and a tile size (standard or large).", "error")
        return redirect(back, 303)
    with database.writing() as session:
        learner = learners.current_learner(session, create=True)
        assert learner is not None and learner.id is not None
        chosen = display_row(session, learner.id) or LearnerDisplay(learner_id=learner.id)
        chosen.theme, chosen.tile_size = theme, tile_size
        session.add(chosen)
        session.commit()
    flash("Display settings saved.", "success")
    return redirect(back, 303)


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(html_classes=html_classes, display_choice=choice,
                                 display_themes=THEMES, display_tile_sizes=TILE_SIZES)
