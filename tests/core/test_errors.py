"""One base for the coach's own errors (issue 23): every exception class the
packages define derives from CoachError, and keeps the built-in base its
callers catch (a refused pass is still a ValueError)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import coach
import drills
from coach.common.errors import CoachError
from coach.rules.charleston import PassError

# Not something the coach refuses: a bug in the coach itself (a naive time
# about to be stored), an HTTP answer (werkzeug's 503), a build step not run,
# a background review's signal to stop (another worker took its claim over),
# a statement only SQLAlchemy Core can run (the store then runs it with Core).
NOT_REFUSALS = [
    "coach.store.prepared.Refused",
    "coach.store.utc_datetime.NaiveDatetimeError",
    "coach.web.infra.hashing.HashingBusy",
    "coach.web.shared.practice.reviews._TakenOver",
    "coach.web.tiles.glyphs.GlyphsMissing",
]


def _modules():
    for package in (coach, drills):
        for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            # migrations run against a database when imported, and __main__
            # runs the command line: neither defines an error of the coach.
            if ".migrations" in found.name or found.name.endswith("__main__"):
                continue
            yield importlib.import_module(found.name)


def test_every_error_the_packages_define_is_a_coach_error():
    defined = {
        (module.__name__, name): value
        for module in _modules()
        for name, value in vars(module).items()
        if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.__name__
    }
    assert len(defined) >= 15  # tiles, cards, holdings, passes, hands, sets, teaching, drills, the CLI ...
    outside = sorted(f"{module}.{name}" for (module, name), value in defined.items() if not issubclass(value, CoachError))
    assert outside == NOT_REFUSALS


def test_C4_a_refused_pass_is_still_a_value_error_and_a_coach_error():
    assert issubclass(PassError, ValueError) and issubclass(PassError, CoachError)
