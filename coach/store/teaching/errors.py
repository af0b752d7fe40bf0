"""The one error of teaching: what a teacher or student asked for that cannot be done."""

class TeachingError(ValueError):
    """Something a teacher or student asked for that cannot be done, said plainly."""

