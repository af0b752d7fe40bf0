"""The HTML screens: home, one page per drill, the rules.

Each drill page shows a question (its token in the form, never its
answer key) and grades answers through htmx: the answer form posts to
/drills/<name>/answer and the server answers with the verdict partial,
swapped in without a page load. Without JavaScript the same forms post
normally and the whole page comes back with the verdict. "Next
question" fetches a new stage partial and pushes its URL (with the
seed) so that reload and back show the same question.

A drill's screen is `templates/<name>.html` (extending drill_layout.html)
with `partials/<name>_stage.html` and `partials/<name>_verdict.html`,
<name> being the drill's NAME with underscores. The answer form posts
`token` and `answer`; a form whose answer is several values (checkboxes)
adds a hidden `answer_list` field and the drill gets the list.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, render_template, request, session, url_for
from itsdangerous import BadData, URLSafeSerializer

import drills
from coach.notation import line_search as card_words
from coach.notation import tiles
from coach.rules import catalog as rules
from coach.rules import table_rules
from coach.web.infra import limits
from coach.web.infra.errors import page_error
from coach.web.infra.htmx import is_htmx, render
from coach.web.shared import learners
from coach.web.shared.cards import choice as card_choice
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.drilling import AnswerProblem, Asked, DrillError, Drilling, NoSuchDrill
from coach.web.shared.drilling import sessions as drill_sessions
from coach.web.shared.drilling.views import (
    NO_ANSWER,
    card_key,
    drill_context,
    given_answer,
    no_answer,
    pattern_tokens,
    picked_places,
)
from drills.kit.whose import whose

bp = Blueprint("pages", __name__)

BLURBS = {
    "name-the-tile": "Dots, Bams and Craks, Winds and Dragons, Flowers, Jokers and Soap: know every tile at a glance.",
    "nearest-hand": "Read a rack against the card and find the line you are closest to, jokers and all.",
    "first-pass": "Choose the three tiles to pass right in the first Charleston.",
    "setup-and-turns": "Dice, walls, the deal and whose turn it is: the table before the first tile moves.",
    "jokers": "Where a joker may stand, and when a joker exchange is legal.",
    "mahjong-or-not": "Fourteen tiles on the rack: is it Mah Jongg, on which line, and if not, why not?",
    "charleston-rules": "Which way each pass goes, blind passes, the courtesy pass and stopping the second Charleston.",
    "calls": "May you call that discard, for what, and who gets it when two players want it?",
    "hot-or-safe": "Late in the hand: which tile is safest to throw?",
    "dead-or-alive": "Is this hand dead, and what follows when it is?",
    "payment": "Who pays what: discards, self-picks, jokerless hands and joker exchanges.",
}


def _drilling() -> Drilling:
    return current_app.extensions["coach"]


def _static_url(filename: str) -> str:
    """A static URL carrying the file's modification time, so that a long
    browser cache never serves a stale file after an update."""
    folder = current_app.static_folder or ""
    try:
        version = int((Path(folder) / filename).stat().st_mtime)
    except OSError:
        version = 0
    return url_for("static", filename=filename, v=version)


def _int_arg(name: str) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise DrillError(f'"{name}" must be a whole number, not "{raw}"') from None


def _render_drill(asked: Asked, verdict: Any = None, answer: Any = None, partial: str | None = None, **extra):
    context = drill_context(asked, verdict, answer, **extra)
    base = context["base"]
    name = f"partials/{base}_{partial}.html" if partial else f"{base}.html"
    return render_template(name, **context)


@bp.app_errorhandler(DrillError)
def _drill_error(error: DrillError):
    if isinstance(error, NoSuchDrill):
        # The message names drills by their slugs (for the API); a learner reads their titles.
        links = [(module.TITLE, url_for("pages.drill_page", name=name)) for name, module in drills.DRILLS.items()]
        return page_error(404, "No such drill", "There is no drill at this address. These are the drills:", links)
    return page_error(error.status, "Not found" if error.status == 404 else "That did not work", error.message)


@bp.get("/")
def home():
    return render_template("home.html", blurbs=BLURBS)


@bp.get("/rules")
def rules_page():
    topics: dict[str, list[rules.Rule]] = {}
    for rule in rules.RULES.values():
        topics.setdefault(rule.topic, []).append(rule)
    return render_template("rules.html", topics=topics, table_topic=rules.TABLE)


@bp.get("/rules/table")
def table_rules_page():
    """Table rules, switch by switch (docs/table-rules.md in the site's words): the
    League's rule, what the switch does, its choices and the rule's full wording."""
    switches = [(s, rules.rule(s.rule_id), [s.describe(v) for v in s.choices]) for s in table_rules.SWITCHES]
    return render_template("rules_table.html", switches=switches)


@bp.get("/drills/<name>")
@limits.drilling
def drill_page(name: str):
    asked, note = card_choice.ask(name, seed=_int_arg("seed"), level=_int_arg("level"))
    drills.prepare(asked.question)  # the answer's heavy part, while the learner reads the question
    return _render_drill(asked, card_note=note)


@bp.get("/drills/<name>/next")
@limits.drilling
def next_question(name: str):
    """A new question's stage, for htmx; its URL (with the seed) is pushed.

    `have` is the key of the card the page already shows (drilling.views.KEEPS_CARD):
    a question on that same card comes without it, and the page keeps its own."""
    asked, _ = card_choice.ask(name, level=_int_arg("level"))
    drills.prepare(asked.question)
    q = asked.question
    have = request.args.get("have")
    kept = is_htmx() and bool(have) and have == card_key(asked)
    body = _render_drill(asked, partial="stage", card_kept=kept)
    url = url_for("pages.drill_page", name=q.drill, level=q.level, seed=q.seed)
    return body, 200, {"HX-Push-Url": url}


@bp.post("/drills/<name>/answer")
@limits.drilling
def answer(name: str):
    form = request.form
    answer = given_answer(form)
    if form.get("session") == "assignment":
        # An assignment's answer is checked against the student's question and kept for the teacher.
        return drill_sessions.answer_in_assignment(name, form, answer)
    if no_answer(answer):
        return _ask_again(name, form, NO_ANSWER)
    try:
        asked, verdict = _drilling().grade(name, form.get("token"), answer)
    except AnswerProblem as problem:
        return _ask_again(name, form, problem.message, "Not quite yet")
    learners.record(asked.question, verdict, form.get("elapsed_ms"), form.get("tz"))
    extra = drill_sessions.from_form(form)
    answered = _remember(asked, answer, extra)
    if is_htmx():
        body = _render_drill(asked, verdict=verdict, answer=answer, partial="verdict", **extra)
        return body, 200, ({"HX-Push-Url": answered} if answered else {})
    return _render_drill(asked, verdict=verdict, answer=answer, **extra)


@bp.post("/drills/<name>/hint")
@limits.drilling
def hint(name: str):
    """The first press of "Hint": the drill's nudge for this question, in place
    of the button (htmx), or the whole page with it (a plain form post)."""
    form = request.form
    asked = _drilling().from_token(name, form.get("token"))
    nudge = drills.hint(asked.question)
    extra = drill_sessions.from_form(form)
    context = drill_context(asked, hint=nudge, **extra)
    return render(f"{context['base']}.html", "partials/actions.html", **context)


# -- a reload after answering shows the verdict ------------------------------------------
#
# The answer travels signed with its question's token: /drills/<name>/answer?r=... is
# the answered page, which the browser's address shows once htmx swaps the verdict in,
# so a reload (or back) regrades it from the seed and shows the verdict again, storing
# nothing. Inside today's practice the address stays /today: the session cookie keeps
# the last answer with its slot instead (coach.web.drill.today).

ANSWERED_SALT = "answered"
TODAY_KEY = "today_answered"


def _answered_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=ANSWERED_SALT)


def answered_url(asked: Asked, answer: Any) -> str:
    """The address of `asked` answered with `answer`."""
    signed = _answered_signer().dumps([asked.token, answer])
    return url_for("pages.answered", name=asked.question.drill, r=signed)


def answered_from(signed: Any) -> tuple[str, Any] | None:
    """(token, answer) from a signed answer, or None if it was altered."""
    if not isinstance(signed, str) or not signed:
        return None
    try:
        data = _answered_signer().loads(signed)
    except BadData:
        return None
    if not isinstance(data, list) or len(data) != 2 or not isinstance(data[0], str):
        return None
    return data[0], data[1]


def _remember(asked: Asked, answer: Any, extra: dict[str, Any]) -> str | None:
    """Where the answered question can be seen again: its address for a lone drill,
    or (today's practice) the session cookie's note of the slot answered."""
    if not extra:
        return answered_url(asked, answer)
    if extra.get("next_url") == url_for("daily.next_slot"):
        session[TODAY_KEY] = {"slot": extra["slot"], "r": _answered_signer().dumps([asked.token, answer])}
    return None


def regrade(name: str, signed: Any) -> tuple[Asked, Any, Any] | None:
    """The question, verdict and answer a signed answer stands for, graded again (not stored)."""
    found = answered_from(signed)
    if found is None:
        return None
    token, answer = found
    asked, verdict = _drilling().grade(name, token, answer)
    return asked, verdict, answer


@bp.get("/drills/<name>/answer")
@limits.drilling
def answered(name: str):
    found = regrade(name, request.args.get("r"))
    if found is None:
        raise DrillError("This answer link is not valid: it was altered or cut short. Ask for a new question.")
    asked, verdict, answer = found
    return _render_drill(asked, verdict=verdict, answer=answer)


def _ask_again(name: str, form, message: str, title: str = "No answer yet"):
    """The question again with what is wrong with the answer, not graded (422)."""
    asked = _drilling().from_token(name, form.get("token"))
    if is_htmx():
        return render_template("partials/problem.html", title=title, message=message), 422
    picked = picked_places(asked.question.rack, given_answer(form))
    return _render_drill(asked, problem=message, problem_title=title, picked=picked, **drill_sessions.from_form(form)), 422


def install(app: Flask) -> None:
    """Template helpers and response headers for the pages."""

    # Globals rather than a context processor: imported macros see them too.
    app.jinja_env.globals.update(
        all_drills=list(drills.DRILLS.values()),
        static_url=_static_url,
        tile_name=tiles.name,
        tile_url=lambda code: url_for("tiles.face", code=code),
        pattern_tokens=pattern_tokens,
        rule=rules.rule,
        card_title=teacher_cards.title,
        card_words=card_words.line_words,
        whose=whose,
    )

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if response.mimetype == "text/html":
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            )
            response.headers.setdefault("X-Frame-Options", "DENY")
        return response
