"""Which lessons a learner finished: the checks they got right, lesson by lesson.

A check answered right is kept for good (a wrong answer after it takes
nothing away); a lesson is finished when all its checks are, and keeps
the time it was finished. Written under the learner's lock
(`transaction.write_as`), so two answers at once both count.
"""

from __future__ import annotations

import json

from sqlmodel import Session, select

from coach.store.models import LessonProgress
from coach.store.progress import now_utc
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
            LessonProgress.learner_id == learner_id, LessonProgress.finished_at.is_not(None)  # type: ignore[union-attr]
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
        row.updated_at = now_utc()
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
