"""A learner's own table rules, on the account page (issue 27).

    POST /account/table-rules   save them (form: one field per switch, or "league" for "Back to League rules")

Kept with the account (coach/store/table_rules.py): the learner's practice
hands and their own drills follow them; a class's assignments and class
hands follow the class's. Guests and visitors play the League's rules, and
are asked to sign in. htmx swaps the form's section with the answer;
without JavaScript the form posts and the account page comes back (303).
A value no select offers (a forged post) is a 400 naming the switch.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, flash, redirect, render_template, request, url_for
from flask_login import current_user

from coach.rules.table_rules import TableRules, TableRulesError, names
from coach.store import table_rules as store
from coach.web.infra import database
from coach.web.infra.errors import page_error
from coach.web.infra.htmx import is_htmx
from coach.web.infra.redirects import sign_in_first
from coach.web.shared.learners import is_account
from coach.web.shared.table_rules import form_context, from_form

bp = Blueprint("own_rules", __name__)

INTRO = (
    "Your practice hands and your own drills follow these rules; a class's assignments"
    " and class hands follow the rules its teacher sets."
)
NEED_ACCOUNT = "Table rules are kept with an account: sign in or create one to play by your group's own rules."


def context(rules: TableRules, saved: bool = False, problem: str = "") -> dict[str, Any]:
    """What partials/table_rules_form.html needs on the account page."""
    return {**form_context(rules, url_for("own_rules.save"), "your", saved, problem), "rules_intro": INTRO}


def _section(rules: TableRules, status: int = 200, **extra: Any):
    return render_template("partials/table_rules_form.html", **context(rules, **extra)), status


@bp.post("/account/table-rules")
def save():
    if not is_account():
        sign_in_first(NEED_ACCOUNT)
    learner_id = int(current_user.id)
    try:
        rules = from_form(request.form)
    except TableRulesError as error:
        with database.reading() as session:
            kept = store.learner_rules(session, learner_id)
        if is_htmx():
            return _section(kept, 400, problem=str(error))
        return page_error(400, "Table rules not saved", str(error))
    with database.writing() as session:
        store.set_learner_rules(session, learner_id, rules)
    if is_htmx():
        return _section(rules, saved=True)
    shown = names(rules)
    flash(f"Table rules saved: {'; '.join(shown)}." if shown else "Table rules saved: you play by the League rules.", "success")
    return redirect(url_for("accounts.account") + "#table-rules", 303)


def install(app: Flask) -> None:
    app.register_blueprint(bp)
