"""The type of every time column: aware UTC datetimes in, aware UTC out.

A naive datetime is refused when written (whose clock would it be on?).
PostgreSQL keeps `timestamp with time zone` and hands back times in the
connection's time zone, turned to UTC here. SQLite keeps text without an
offset, as it always has ("2026-12-01 09:30:00.000000", UTC): the text of
rows written before this type existed reads back the same, now with UTC
attached.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from coach.common.clock import UTC


class NaiveDatetimeError(ValueError):
    """A datetime without a time zone was about to be stored."""


class UTCDateTime(TypeDecorator[datetime]):
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise TypeError(f"a time column takes a datetime, not {type(value).__name__}")
        if value.tzinfo is None or value.utcoffset() is None:
            raise NaiveDatetimeError(f"refusing to store a naive datetime ({value.isoformat()}): give it a time zone")
        moment = value.astimezone(UTC)
        # SQLite's text has no offset: store the UTC wall time, as every row before did.
        return moment.replace(tzinfo=None) if dialect.name == "sqlite" else moment

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
