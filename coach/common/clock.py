"""One clock for the whole coach: the time now, always in UTC and time-zone
aware, so that times from anywhere compare and subtract without surprises
(fsrs refuses naive times, and a naive time cannot be compared with an
aware one)."""

from __future__ import annotations

from datetime import UTC, datetime

UTC = UTC


def now() -> datetime:
    """This moment, aware, in UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """The same moment in UTC. A naive time is taken to be UTC already: the
    stored times are UTC, and a caller's plain datetime has always meant UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
