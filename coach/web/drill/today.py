"""Today's practice: one button, a short mixed session, the streak.

The session page shows the current question of the day's plan with the
drill's own stage; its forms carry `session=today` and the slot number,
so the verdict's "Next" moves the session on instead of asking a
question of the same drill.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask import session as cookie
from sqlmodel import Session, col, select

import drills
from coach.common import clock
from coach.store.daily import Today, advance, today
from coach.store.daily import plan as plan_slots
from coach.store.lessons import lesson_before
from coach.store.models import Attempt, Learner
from coach.store.progress import local_day, summary, zone
from coach.web.drill.pages import TODAY_KEY, regrade
from coach.web.infra import database, limits
from coach.web.infra.htmx import render
from coach.web.shared import learners, replay_questions
from coach.web.shared.cards import choice as card_choice
from coach.web.shared.drilling import Drilling
from coach.web.shared.drilling.sessions import today_context
from coach.web.shared.drilling.views import drill_context
from coach.web.shared.mistakes import recent_mistakes  # as the progress page lists them, with their "Try again" links
from coach.web.shared.table_rules import own_rules
from drills import replay_position

bp = Blueprint("daily", __name__)


def _drilling() -> Drilling:
    return current_app.extensions["coach"]

WHY = {"replay": "Replay a mistake", "due": "Review due", "new": "New skill", "weak": "Weak spot"}


def _context(session: Session, learner, plan: Today) -> dict:
    """The session step's template context: the plan, the streak, the current question."""
    context: dict = {"plan": plan, "why": WHY, "progress": summary(session, learner)}
    if plan.done:
        context["results"] = _results(session, learner, plan)
    slot = plan.current
    context["lesson_first"] = lesson_before(session, learner.id, [s.drill for s in plan.slots[plan.position:]])
    if slot is not None and slot.drill == replay_position.NAME:
        context.update(replay_questions.daily_context(session, learner, slot.seed, plan.position, plan.day))
    elif slot is not None:
        asked, note = card_choice.ask(slot.drill, seed=slot.seed, level=slot.level)
        verdict, answer = _answered(asked, plan.position)
        context.update(drill_context(asked, verdict, answer, card_note=note, **today_context(plan.position)))
    return context


def _results(session: Session, learner, plan: Today) -> dict:
    """The end of the session: how many of its questions were answered and right,
    and each mistake with a "Try again" link to that very question."""
    card = _drilling().card
    code = own_rules().code()  # the session's questions are asked under the learner's own rules (their key says so)
    rules = f"|{code}" if code else ""
    keys = [f"{s.drill}|{s.level}|{s.seed}|{card.name}{rules}" for s in plan.slots if s.drill != replay_position.NAME]
    replayed = replay_questions.answered_in(session, learner, [s.seed for s in plan.slots if s.drill == replay_position.NAME], plan.day)
    attempts: list[Attempt] = []
    if learner.id is not None:
        found = session.exec(
            select(Attempt).where(Attempt.learner_id == learner.id, col(Attempt.question).in_(keys))
        ).all()
        order = {key: n for n, key in enumerate(keys)}
        # recent_mistakes reads its list from the end (newest first there): here, in the session's order.
        attempts = sorted(found, key=lambda a: order[a.question], reverse=True)
    tz = zone(learner)
    mistakes = recent_mistakes(attempts, local_day(clock.now(), tz), tz, card)
    return {
        "answered": len(attempts) + replayed[0],
        "right": sum(1 for a in attempts if a.correct) + replayed[1],
        "skipped": len(plan.slots) - len(attempts) - replayed[0],
        "mistakes": mistakes,
    }


def _answered(asked, position: int) -> tuple:
    """The verdict on the current question if it was answered already (a reload):
    the session cookie keeps the last answer with its slot, regraded here."""
    note = cookie.get(TODAY_KEY)
    if not isinstance(note, dict) or note.get("slot") != position:
        return None, None
    q = asked.question
    found = regrade(q.drill, note.get("r"))
    if found is None:
        return None, None
    again, verdict, answer = found
    if (again.question.seed, again.question.level, again.question.card) != (q.seed, q.level, q.card):
        return None, None
    return verdict, answer


def _visitor_plan(after: int = -1) -> Today:
    """A visitor's session, kept nowhere: a visit makes no guest, only a first answer does
    (and the guest then gets a plan of their own)."""
    day = local_day(clock.now(), zone(Learner()))
    slots = tuple(plan_slots([], {}, 0, day))
    return Today(day, slots, after + 1 if 0 <= after < len(slots) else 0)


@bp.get("/today")
@limits.drilling
def today_page():
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None:
            return render_template("daily.html", **_context(session, Learner(), _visitor_plan()))
        return render_template("daily.html", **_context(session, learner, today(session, learner)))


@bp.post("/today/next")
@limits.drilling
def next_slot():
    try:
        after = int(request.form.get("after", ""))
    except ValueError:
        after = -1  # nothing moves; the current question is shown again
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None:
            context = _context(session, Learner(), _visitor_plan(after))
        else:
            context = _context(session, learner, advance(session, learner, after))
    return render("daily.html", "partials/daily_stage.html", **context)


def install(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(daily_drills={**drills.DRILLS, replay_position.NAME: replay_position})  # replays: not dealt at random
