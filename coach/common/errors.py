"""The one base of the coach's own errors.

Every error the core raises for something its rules or formats refuse (a
tile, a card, a holding, a pass, an action at the table, a drill set, a
deal a drill could not make) derives from `CoachError`, so a caller can
tell the coach's own refusals from a bug in one `except`. Each keeps the
built-in base it had (most are ValueErrors), so `except ValueError` still
catches what it caught.
"""

from __future__ import annotations


class CoachError(Exception):
    """Something the coach refuses, in words a player or teacher can act on."""
