"""Lessons (/learn) and the glossary (/glossary), and the `glossary` filter
that marks the game's words in any text a page shows.

A lesson page shows the lesson's panels and its checks; a check's answer
posts the lesson and check ids and the pick, the server grades it from
drills.lessons (htmx swaps the verdict in; without JavaScript the whole
page comes back). A check answered right is kept for the learner (a first
right answer makes a guest, as a first drill answer does), and a lesson
is done once all its checks are.
"""

from __future__ import annotations

import itertools
from typing import Any

from flask import Blueprint, Flask, abort, render_template, request, url_for
from markupsafe import Markup, escape
from sqlmodel import Session

from coach.notation.card import house_card
from coach.rules import glossary
from coach.store import lessons as kept
from coach.web.infra import database, limits
from coach.web.infra.htmx import is_htmx
from coach.web.shared import learners
from drills import lessons
from drills.kit.base import AnswerError

bp = Blueprint("learn", __name__)

# Where a lesson was opened from, for its "done" box to lead back there.
RETURNS = {"today": ("daily.today_page", "Back to today's practice")}
_TIPS = itertools.count(1)  # ids of tooltips, unique on a page however many texts it marks


def mark(text: Any, skip: str = "") -> Markup:
    """`text` escaped, with each glossary word in it (its first time) marked:
    focusable, its meaning in a tooltip shown on hover, focus or tap.
    Text that is already HTML (Markup) is left as it is: words are never
    looked for inside tags."""
    if text is None:
        return Markup("")
    if hasattr(text, "__html__"):
        return Markup(text.__html__())
    raw = str(text)
    parts: list[str] = []
    position = 0
    for found in glossary.find(raw, frozenset({skip}) if skip else frozenset()):
        tip = f"gloss-{next(_TIPS)}"
        parts.append(escape(raw[position:found.start]))
        parts.append(Markup(
            '<span class="gloss" tabindex="0" data-gloss="{slug}" aria-describedby="{tip}">{word}'
            '<span class="gloss__tip" role="tooltip" id="{tip}">{meaning}</span></span>'
        ).format(slug=found.term.slug, tip=tip, word=raw[found.start:found.end], meaning=found.term.meaning))
        position = found.end
    parts.append(escape(raw[position:]))
    return Markup("").join(parts)


def _learner_id(session: Session) -> int | None:
    learner = learners.current_learner(session)
    return None if learner is None else learner.id


def _lesson(slug: str) -> lessons.Lesson:
    try:
        return lessons.get(slug)
    except KeyError:
        abort(404)


def _came_from() -> str | None:
    value = request.values.get("from")
    return value if value in RETURNS else None


def _context(lesson: lessons.Lesson, passed: frozenset[str], **extra: Any) -> dict[str, Any]:
    position = lessons.LESSONS.index(lesson)
    after = lessons.LESSONS[position + 1] if position + 1 < len(lessons.LESSONS) else None
    came_from = _came_from()
    back = RETURNS.get(came_from) if came_from else None
    return dict(
        lesson=lesson, passed=passed, done=lessons.finished(lesson, passed), next_lesson=after,
        number=position + 1, total=len(lessons.LESSONS), came_from=came_from,
        back_url=url_for(back[0]) if back else None, back_label=back[1] if back else None,
        questions={c.id: lessons.question(lesson, c) for c in lesson.checks}, verdicts={},
        card=house_card(), **extra,
    )


@bp.get("/learn")
def index():
    with database.reading() as session:
        passed = kept.passed_checks(session, _learner_id(session))
    return render_template("learn/index.html", lessons=lessons.LESSONS, passed=passed, finished=lessons.finished)


@bp.get("/learn/<slug>")
def lesson_page(slug: str):
    lesson = _lesson(slug)
    with database.reading() as session:
        passed = kept.passed_checks(session, _learner_id(session)).get(slug, frozenset())
    return render_template("learn/lesson.html", **_context(lesson, passed))


@bp.post("/learn/<slug>/checks/<check_id>")
@limits.drilling
def answer_check(slug: str, check_id: str):
    lesson = _lesson(slug)
    try:
        check = lesson.check(check_id)
    except KeyError:
        abort(404)
    hx = is_htmx()
    answer = request.form.get("answer", "")
    try:
        asked, verdict = lessons.grade(slug, check_id, answer)
    except AnswerError as error:
        if hx:
            return render_template("partials/problem.html", title="No answer yet", message=str(error)), 422
        abort(400, str(error))
    with database.writing() as session:
        if verdict.correct:
            learner = learners.current_learner(session, create=True)
            assert learner is not None and learner.id is not None
            kept.pass_check(session, learner.id, slug, check_id)
            learner_id: int | None = learner.id
        else:
            learner_id = _learner_id(session)
        passed = kept.passed_checks(session, learner_id).get(slug, frozenset())
    context = _context(lesson, passed)
    context["verdicts"] = {check_id: verdict}
    if hx:
        return render_template("learn/_answered.html", c=check, q=asked, verdict=verdict, **context)
    return render_template("learn/lesson.html", **context)


@bp.get("/glossary")
def glossary_page():
    return render_template("learn/glossary.html", terms=glossary.alphabetical())


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.filters["glossary"] = mark
