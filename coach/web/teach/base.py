"""The teacher's side of the app: classes, drill sets, cards, the dashboard.

One blueprint, "teach", under /teach; its routes live in small modules
(cards, classes, hands, reports, sets) that import `bp` from here, and
the package (coach/web/teach/__init__.py) registers it with them all loaded. This
module holds what they share: who the teacher is, the "not yours -> 404"
rule, dates in the teacher's own time zone, file names and downloads.

Every teacher-owned thing is fetched through the id-checking functions of
coach/store/teaching (classrooms.class_taught, drill_sets.set_of,
teachers_cards.card_of, homework.assignment_taught); a None from them is a 404, the very page a missing id
gets, so nobody learns that someone else's class or card exists. A person
who is not a teacher gets a 403 on every route but /teach (which explains
teaching) and /teach/start (which turns it on).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, NoReturn, TypeVar
from zoneinfo import ZoneInfo

from flask import Blueprint, Response, abort, current_app
from flask_login import current_user
from sqlmodel import Session

import drills
from coach.common import clock
from coach.notation.card import Card
from coach.store.models import DrillSetRow, Learner
from coach.store.teaching import drill_sets, teachers_cards
from coach.web.infra.redirects import sign_in_first
from coach.web.shared import learners
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.dates import day, due_label
from coach.web.shared.drilling import DrillError, Drilling
from coach.web.shared.learners import is_account
from drills.sets import HOUSE, DrillSet, sample_sets

bp = Blueprint("teach", __name__, url_prefix="/teach")

T = TypeVar("T")
ONLY_TEACHERS = "Only teachers can do this. To teach a class, sign in to your account and open Teach."
MAX_DUE_DAYS = 2 * 366  # a due date further out than two years is a typing slip


# -- who is asking -------------------------------------------------------------------


def teacher_id() -> int:
    """The signed-in teacher's id; anyone else is refused with a 403."""
    if not is_account():
        sign_in_first(ONLY_TEACHERS)  # a visitor's link comes back here once signed in
    if not getattr(current_user, "teacher", False):
        abort(403, description=ONLY_TEACHERS)
    return int(current_user.id)


def found(thing: T | None) -> T:
    """What an id-checking store function returned, or the 404 page:
    someone else's thing and a missing one look the same."""
    if thing is None:
        abort(404)
    return thing


def not_found() -> NoReturn:
    abort(404)


def teacher_row(session: Session) -> Learner:
    """The teacher's own row (for their time zone and name)."""
    return found(session.get(Learner, teacher_id()))


def drilling() -> Drilling:
    return current_app.extensions["coach"]


# -- dates in the teacher's time zone ----------------------------------------------


def zone_of(learner: Learner) -> ZoneInfo:
    return ZoneInfo(learners.valid_zone(learner.time_zone) or "UTC")


def today_in(learner: Learner, now: datetime | None = None) -> date:
    return (now or clock.now()).astimezone(zone_of(learner)).date()


def due_from_form(raw: str, learner: Learner, now: datetime | None = None) -> tuple[datetime | None, str | None]:
    """A date field (YYYY-MM-DD, optional) as the end of that day in the
    teacher's time zone, in UTC; or a message saying what is wrong."""
    raw = raw.strip()
    if not raw:
        return None, None
    try:
        day = date.fromisoformat(raw)
    except ValueError:
        return None, f"\u201c{raw[:20]}\u201d is not a date. Pick a day from the calendar, or leave it empty for no due date."
    today = today_in(learner, now)
    if day < today:
        return None, "That day has passed. Pick today or a later day, or leave it empty for no due date."
    if day > today + timedelta(days=MAX_DUE_DAYS):
        return None, "That day is more than two years away. Pick a nearer day, or leave it empty."
    end = datetime.combine(day, time(23, 59, 59), tzinfo=zone_of(learner))
    return end.astimezone(UTC), None


def show_date(moment: datetime | None, learner: Learner) -> str:
    """A date as a teacher reads it, in their own zone: "Fri 4 Dec", as students see it."""
    return due_label(moment, learner.time_zone)


# -- names, files, downloads -------------------------------------------------------


def slug(text: str, fallback: str) -> str:
    """A safe file name stem: "Tuesday beginners!" -> "tuesday-beginners"."""
    stem = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return stem or fallback


# -- drill sets: samples, cards, checking a set can be asked -----------------------


def sample(n: int) -> DrillSet:
    """Sample set n (1-based, as the pages number them), or the 404 page."""
    samples = sample_sets()
    if not 1 <= n <= len(samples):
        not_found()
    return samples[n - 1]


def card_named(session: Session, owner_id: int, name: str) -> Card | None:
    """The teacher's card a set names, parsed; None for the house card."""
    if name == HOUSE:
        return None
    for row in teachers_cards.cards_of(session, owner_id):
        if row.name == name:
            return teacher_cards.card_of(row)
    return None


def card_problems(session: Session, owner_id: int, drill_set: DrillSet, where: str) -> list[str]:
    """Can every drill of the set make a question on the card it names?
    The house card serves every drill; a teacher's card may not (say, no
    line a first pass can aim at). Each failing item is one message;
    `where` is "row" (the form) or "item" (a file)."""
    card = card_named(session, owner_id, drill_set.card)
    if card is None:
        return []
    problems = []
    slots = drill_set.slots()
    first = 0
    for index, item in enumerate(drill_set.items):
        slot = slots[first]
        first += item.questions
        try:
            drilling().ask(item.drill, seed=slot.seed, level=item.level, card=card)
        except DrillError as error:
            place = f"row {index + 1}, drill" if where == "row" else f'drills item {index + 1}, "drill"'
            problems.append(f"{place}: {error.message}")
    return problems


def sets_for_assigning(session: Session, owner_id: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """The assign form's choices in groups: the teacher's sets, then the
    samples; each choice is (value, label), values "set:<id>" / "sample:<n>"."""
    own: list[DrillSetRow] = drill_sets.sets_of(session, owner_id)
    groups = [("Your sets", [(f"set:{row.id}", row.title) for row in own])] if own else []
    groups.append(("Samples", [(f"sample:{n}", s.title) for n, s in enumerate(sample_sets(), start=1)]))
    return groups


def percent(value: float | None) -> str:
    return "\u2013" if value is None else f"{round(100 * value)}%"


@bp.after_request
def _private(response: Response) -> Response:
    # Students' names, emails and answers stay out of shared caches.
    response.headers["Cache-Control"] = "no-store"
    return response


def drill_title(name: str) -> str:
    module = drills.DRILLS.get(name)
    return module.TITLE if module is not None else name


def level_title(name: str, level: int) -> str:
    """ "Level 2: Type the name", as the drill pages call it."""
    module = drills.DRILLS.get(name)
    for entry in getattr(module, "LEVELS", ()):
        if entry.number == level:
            return f"Level {level}: {entry.title}"
    return f"Level {level}"


@bp.context_processor
def _helpers() -> dict[str, Any]:
    # Only the teach pages see these (a blueprint's context processor).
    return {"percent": percent, "drill_title": drill_title, "level_title": level_title, "day": day, "house": HOUSE}
