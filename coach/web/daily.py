"""Today's practice: one button, a short mixed session, the streak.

The session page shows the current question of the day's plan with the
drill's own stage; its forms carry `session=today` and the slot number,
so the verdict's "Next" moves the session on instead of asking a
question of the same drill.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request, url_for
from sqlmodel import Session

import drills
from coach.store.daily import Today, advance, plan as plan_slots, today
from coach.store.models import Learner
from coach.store.progress import local_day, now_utc, summary, zone
from coach.web import card_choice, learners, limits
from coach.web.pages import drill_context

bp = Blueprint("daily", __name__)

WHY = {"due": "Review due", "new": "New skill", "weak": "Weak spot"}


def session_context(slot: int) -> dict:
    """What a drill's stage and verdict need to stay inside today's session."""
    return {"in_session": True, "slot": slot, "next_url": url_for("daily.next_slot")}


def _context(session: Session, learner, plan: Today) -> dict:
    """The session step's template context: the plan, the streak, the current question."""
    context: dict = {"plan": plan, "why": WHY, "progress": summary(session, learner)}
    slot = plan.current
    if slot is not None:
        asked, note = card_choice.ask(slot.drill, seed=slot.seed, level=slot.level)
        context.update(drill_context(asked, card_note=note, **session_context(plan.position)))
    return context


def _visitor_plan(after: int = -1) -> Today:
    """A visitor's session, kept nowhere: a visit makes no guest, only a first answer does
    (and the guest then gets a plan of their own)."""
    day = local_day(now_utc(), zone(Learner()))
    slots = tuple(plan_slots([], {}, 0, day))
    return Today(day, slots, after + 1 if 0 <= after < len(slots) else 0)


@bp.get("/today")
@limits.drilling
def today_page():
    with Session(learners.engine()) as session:
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
    with Session(learners.engine()) as session:
        learner = learners.current_learner(session)
        if learner is None:
            context = _context(session, Learner(), _visitor_plan(after))
        else:
            context = _context(session, learner, advance(session, learner, after))
    page = "partials/daily_stage.html" if request.headers.get("HX-Request") == "true" else "daily.html"
    return render_template(page, **context)


def install(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(daily_drills=drills.DRILLS)
