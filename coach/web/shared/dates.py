"""Dates as the pages print them, in the reader's own time zone."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from coach.common import clock

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)


def local(moment: datetime, zone: str) -> datetime:
    """A stored (UTC) time in the reader's own time zone."""
    try:
        return moment.astimezone(ZoneInfo(zone))
    except (ValueError, KeyError):
        return moment


def due_label(moment: datetime | None, zone: str = "UTC") -> str:
    """A due date as people say it, "Fri 4 Dec", in the reader's own day;
    the year only when it is not this year's."""
    if moment is None:
        return ""
    when = local(moment, zone)
    label = f"{when:%a} {when.day} {when:%b}"
    return label if when.year == local(clock.now(), zone).year else f"{label} {when.year}"


def day(moment: datetime | None) -> str:
    """A day as lists show it: "4 Dec 2026" (UTC; for upload dates and the like)."""
    if moment is None:
        return ""
    return f"{moment.day} {moment:%b %Y}"


def short_date(day: date, year: bool = False) -> str:
    """ "3 Mar", or "3 Mar 2025" where the year matters."""
    label = f"{day.day} {MONTHS[day.month - 1]}"
    return f"{label} {day.year}" if year else label


def long_date(day: date) -> str:
    return f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year}"
