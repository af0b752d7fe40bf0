"""Text bound for a spreadsheet cell (the CSV exports)."""

from __future__ import annotations

from typing import Any

# A cell starting with one of these runs as a formula in a spreadsheet
# (OWASP's list, with the full-width forms some spreadsheets also read).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def cell(text: str) -> str:
    """Text a spreadsheet would run as a formula gets a leading quote.

    Leading spaces do not hide a formula: some spreadsheets skip them."""
    return "'" + text if text.lstrip(" ").startswith(FORMULA_START) else text


def row(values: list[Any]) -> list[Any]:
    """A CSV row with every text cell guarded; numbers stay numbers."""
    return [cell(value) if isinstance(value, str) else value for value in values]
