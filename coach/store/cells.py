"""Text bound for a spreadsheet cell (the CSV exports)."""

from __future__ import annotations

# A cell starting with one of these runs as a formula in a spreadsheet.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str) -> str:
    """Text a spreadsheet would run as a formula gets a leading quote."""
    return "'" + text if text.startswith(FORMULA_START) else text
