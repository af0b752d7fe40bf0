"""The one error of teaching: what a teacher or student asked for that cannot be done."""

from coach.common.errors import CoachError


class TeachingError(CoachError, ValueError):
    """Something a teacher or student asked for that cannot be done, said plainly."""

