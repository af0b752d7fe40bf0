"""How many examples a Hypothesis test tries, from the profile in force.

tests/conftest.py registers the profiles: "coach", the default (100 examples
a test, Hypothesis's own count), and "fast" for `make test-fast`. A test that
wants more or fewer than the profile's count says how many under the default
profile, and gets as many in proportion under another.
"""

from __future__ import annotations

from hypothesis import settings

DEFAULT_EXAMPLES = 100  # the "coach" profile's max_examples


def examples(default: int) -> int:
    """`default` examples under the default profile; in proportion under another (at least one)."""
    return max(1, default * settings.default.max_examples // DEFAULT_EXAMPLES)
