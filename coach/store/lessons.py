"""Which lessons a learner finished: the checks they got right, lesson by lesson.

A check answered right is kept for good (a wrong answer after it takes
nothing away); a lesson is finished when all its checks are, and keeps
the time it was finished. Written under the learner's lock
(`transaction.write_as`), so two answers at once both count.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime

from sqlmodel import Session, col, select

from coach.common import clock
from coach.store.models import LessonProgress
from coach.store.transaction import write_as
from drills import lessons


def passed_checks(session: Session, learner_id: int | None) -> dict[str, frozenset[str]]:
    """Lesson slug -> the ids of its checks this learner answered right."""
    if learner_id is None:
        return {}
    rows = session.exec(select(LessonProgress).where(LessonProgress.learner_id == learner_id)).all()
    return {row.lesson: frozenset(json.loads(row.passed)) for row in rows}


def finished_lessons(session: Session, learner_id: int | None) -> frozenset[str]:
    """The slugs of the lessons this learner finished."""
    if learner_id is None:
        return frozenset()
    rows = session.exec(
        select(LessonProgress.lesson).where(
            LessonProgress.learner_id == learner_id, col(LessonProgress.finished_at).is_not(None)
        )
    ).all()
    return frozenset(rows)


def pass_check(session: Session, learner_id: int, slug: str, check_id: str) -> bool:
    """Keep one check answered right, in its own transaction; whether the
    lesson is finished now."""
    lesson = lessons.get(slug)
    lesson.check(check_id)  # KeyError for a check the lesson does not have
    done: list[bool] = []

    def add() -> bool:
        done.clear()
        row = session.exec(
            select(LessonProgress).where(LessonProgress.learner_id == learner_id, LessonProgress.lesson == slug)
        ).first()
        if row is None:
            row = LessonProgress(learner_id=learner_id, lesson=slug)
        passed = set(json.loads(row.passed)) | {check_id}
        row.passed = json.dumps(sorted(passed))
        row.updated_at = clock.now()
        if row.finished_at is None and lessons.finished(lesson, passed):
            row.finished_at = row.updated_at
        session.add(row)
        done.append(row.finished_at is not None)
        return True

    write_as(session, learner_id, add)
    return bool(done and done[0])


def lesson_before(session: Session, learner_id: int | None, drill_names: list[str]) -> lessons.Lesson | None:
    """The lesson to offer before these drills: the first not finished that one of them relies on."""
    needed = lessons.needed_before(drill_names, finished_lessons(session, learner_id))
    return needed[0] if needed else None


def merge_lessons(session: Session, guest_id: int, account_id: int) -> None:
    """A guest signing in to an account brings their lessons along: checks
    passed add up, and a lesson keeps the earlier time it was finished.
    Part of the caller's transaction (`accounts.merge_guest`)."""
    mine = {row.lesson: row for row in session.exec(select(LessonProgress).where(LessonProgress.learner_id == account_id))}
    for theirs in session.exec(select(LessonProgress).where(LessonProgress.learner_id == guest_id)).all():
        kept = mine.get(theirs.lesson)
        if kept is None:
            theirs.learner_id = account_id
            session.add(theirs)
            continue
        kept.passed = json.dumps(sorted(set(json.loads(kept.passed)) | set(json.loads(theirs.passed))))
        times = [t for t in (kept.finished_at, theirs.finished_at) if t is not None]
        kept.finished_at = min(times) if times else None
        if kept.finished_at is None and theirs.lesson in lessons.BY_SLUG:
            if lessons.finished(lessons.BY_SLUG[theirs.lesson], set(json.loads(kept.passed))):
                kept.finished_at = clock.now()
        session.add(kept)
        session.delete(theirs)


def export_lessons(session: Session, learner_id: int, iso: Callable[[datetime | None], str | None]) -> list[dict[str, object]]:
    """The learner's lessons for "Download everything", times written by `iso`."""
    rows = session.exec(
        select(LessonProgress).where(LessonProgress.learner_id == learner_id).order_by(col(LessonProgress.lesson))
    ).all()
    return [
        {"lesson": row.lesson, "checks_right": json.loads(row.passed),
         "finished_at": iso(row.finished_at)}
        for row in rows
    ]
