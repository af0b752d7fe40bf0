"""Who teaches: the teacher's role, and how a student's name shows on a teacher's pages."""

from __future__ import annotations

from coach.store.models import Learner

TEACHER = "teacher"
LEARNER = "learner"


def is_teacher(learner: Learner | None) -> bool:
    return bool(learner is not None and not learner.guest and learner.role == TEACHER)


def display_name(learner: Learner) -> str:
    """How a student shows on a teacher's pages: their name, else their email, else a number."""
    return learner.name.strip() or (learner.email or "") or f"Student {learner.id}"

