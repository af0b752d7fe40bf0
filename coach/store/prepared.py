"""Statements run on every answer: compiled once per database, run on the driver's cursor.

SQLAlchemy Core caches a statement's compiled form, but each execution
still builds an execution context, its parameters and a result around the
driver's call: 20-60 us a statement on the 2-core machines here, against
2-20 us for SQLite's own work (issue 26: six statements an answer, the
session check's included). A `Prepared` statement keeps what each execution would work out
again: the SQL text and the order of its parameters for the dialect, and
the column types' bind and result processors (so every value is written
and read back exactly as Core writes and reads it: aware UTC times, SQLite's
text times, booleans). What Core gives the caller is kept too:

- the statement runs in the `Connection`'s transaction, begun as Core
  begins it, committed and rolled back by the caller as before;
- the engine's `before_cursor_execute` and `after_cursor_execute`
  listeners see it (the statement counts of tests/web/test_answer_statements.py);
- a driver error is raised as SQLAlchemy's (`OperationalError`,
  `IntegrityError`, ...), with a lost connection invalidated, so the
  store's retries (coach/store/transaction.py `write`) read it as before.

Only for statements whose every parameter the caller gives: a column
default that Core would fill in is refused when the statement is built.
"""

from __future__ import annotations

import collections
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql.base import Executable
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement

Processor = Any  # a type's bind or result processor: a callable, or None for none


class Refused(ValueError):
    """A statement only Core can run: it needs a value Core works out itself."""


class _Compiled:
    """A statement as one dialect runs it, with its processors."""

    __slots__ = ("sql", "names", "keys", "binds", "positional", "defaults", "results")

    def __init__(self, statement: Executable, dialect: Dialect, columns: list[str] | None) -> None:
        compiled = cast(ClauseElement, statement).compile(dialect=dialect, column_keys=columns)  # a SELECT, INSERT, UPDATE or DELETE
        assert isinstance(compiled, SQLCompiler)
        if compiled.insert_prefetch or compiled.update_prefetch:
            names = ", ".join(column.key for column in [*compiled.insert_prefetch, *compiled.update_prefetch])
            raise Refused(f"{names}: values Core fills in itself (column defaults); give them, or run this with Core")
        self.positional = bool(compiled.positional)
        if self.positional:
            self.keys = tuple(compiled.positiontup or ())  # the caller's name of each parameter, in the driver's order
            self.names = self.keys
        else:
            self.keys = tuple(dict.fromkeys(compiled.bind_names.values()))
            self.names = tuple(compiled.escaped_bind_names.get(key, key) for key in self.keys)  # the driver's keys
        processors: dict[str, Processor] = {}
        self.defaults: dict[str, Any] = {}  # values the statement holds itself, such as `guest == True`
        for bind in compiled.binds.values():
            if bind.expanding or bind.callable is not None:
                raise Refused(f"{bind.key}: an expanding or computed parameter; run this statement with Core")
            if not bind.required:
                self.defaults[bind.key] = bind.value
            processors[bind.key] = bind.type.dialect_impl(dialect).bind_processor(dialect)
        self.sql: str = compiled.string
        self.binds = tuple((key, processors[key]) for key in self.keys)
        self.results: list[tuple[int, Processor]] | None = None  # worked out on the first rows read

    def values(self, parameters: Mapping[str, Any]) -> Any:
        """The parameters as the driver takes them, each through its type's bind processor."""
        if self.defaults:
            parameters = {**self.defaults, **parameters}
        try:
            values = [parameters[key] if process is None else process(parameters[key]) for key, process in self.binds]
        except Exception as error:  # a value its type refuses (a naive time), or one not given: as Core raises it
            words = f"A value is required for bind parameter {error}" if isinstance(error, KeyError) else str(error)
            raise StatementError(
                f"({type(error).__module__}.{type(error).__name__}) {words}", self.sql, dict(parameters), error
            ) from error
        return tuple(values) if self.positional else dict(zip(self.names, values, strict=True))


class Prepared:
    """One Core statement (INSERT, UPDATE, DELETE or SELECT), run without Core's per-execution work.

    Parameters are given by their bindparam names, as with `Connection.execute`;
    an INSERT or UPDATE given by its table alone takes `columns`, the keys
    of the parameters it will be given (Core compiles it for those keys too)."""

    def __init__(self, statement: Executable, columns: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.columns = list(columns) if columns is not None else None
        self._compiled: weakref.WeakKeyDictionary[Dialect, _Compiled] = weakref.WeakKeyDictionary()
        self._last: tuple[Dialect, _Compiled] | None = None  # most processes have one database
        returned = list(getattr(statement, "exported_columns", ()))
        self._row: Any = collections.namedtuple("Row", [column.key for column in returned], rename=True) if returned else None
        self._types = [column.type for column in returned]

    def _for(self, dialect: Dialect) -> _Compiled:
        last = self._last
        if last is not None and last[0] is dialect:
            return last[1]
        found = self._compiled.get(dialect)
        if found is None:
            found = self._compiled[dialect] = _Compiled(self.statement, dialect, self.columns)
        self._last = (dialect, found)
        return found

    def ready(self, dialect: Dialect) -> bool:
        """Whether this statement runs here without Core: False when Core would
        fill in a value itself (a column default the parameters leave out)."""
        try:
            self._for(dialect)
        except Refused:
            return False
        return True

    def rows(self, connection: Connection, parameters: Mapping[str, Any]) -> list[Any]:
        """Every row the statement returns (its columns by name, as Core's rows), processed as Core would."""
        compiled = self._for(connection.dialect)
        cursor = _run(connection, compiled.sql, compiled.values(parameters), many=False)
        try:
            fetched = cursor.fetchall()
            results = compiled.results
            if results is None:
                results = compiled.results = self._result_processors(connection.dialect, cursor.description)
        finally:
            cursor.close()
        assert self._row is not None, "rows() of a statement that returns none"
        make = self._row._make
        if not results:
            return [make(values) for values in fetched]
        rows = []
        for values in fetched:
            processed = list(values)
            for index, process in results:
                processed[index] = process(processed[index])
            rows.append(make(processed))
        return rows

    def first(self, connection: Connection, parameters: Mapping[str, Any]) -> Any | None:
        """The first row the statement returns, or None."""
        found = self.rows(connection, parameters)
        return found[0] if found else None

    def rowcount(self, connection: Connection, parameters: Mapping[str, Any]) -> int:
        """Run a statement that returns no rows; the rows it changed."""
        compiled = self._for(connection.dialect)
        cursor = _run(connection, compiled.sql, compiled.values(parameters), many=False)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def many(self, connection: Connection, parameters: Iterable[Mapping[str, Any]]) -> None:
        """Run a statement that returns no rows once for each set of parameters (the driver's executemany)."""
        compiled = self._for(connection.dialect)
        cursor = _run(connection, compiled.sql, [compiled.values(one) for one in parameters], many=True)
        cursor.close()

    def _result_processors(self, dialect: Dialect, description: Sequence[Sequence[Any]] | None) -> list[tuple[int, Processor]]:
        """Each returned column's result processor that does something, by its place.

        A driver's type code for a column of a statement is the same on every
        run: Core caches its processors on that assumption too."""
        codes = [column[1] for column in description or ()]
        processors = [
            type_.dialect_impl(dialect).result_processor(dialect, code) for type_, code in zip(self._types, codes, strict=True)
        ]
        return [(index, process) for index, process in enumerate(processors) if process is not None]


def _run(connection: Connection, sql: str, values: Any, many: bool) -> Any:
    """The driver's cursor, with the statement run on it in the connection's transaction."""
    if not connection.in_transaction():
        connection.begin()  # as Core's autobegin: the caller commits or rolls back
    dbapi_connection = connection.connection
    cursor = dbapi_connection.cursor()
    dispatch = connection.dispatch
    try:
        if dispatch.before_cursor_execute:
            for before in dispatch.before_cursor_execute:
                sql, values = before(connection, cursor, sql, values, None, many)
        if many:
            cursor.executemany(sql, values)
        else:
            cursor.execute(sql, values)
        if dispatch.after_cursor_execute:
            dispatch.after_cursor_execute(connection, cursor, sql, values, None, many)
    except connection.dialect.loaded_dbapi.Error as error:
        lost = connection.dialect.is_disconnect(error, dbapi_connection.dbapi_connection, cursor)
        cursor.close()
        if lost:
            connection.invalidate(error)
        raise DBAPIError.instance(
            sql, values, error, connection.dialect.loaded_dbapi.Error,
            connection_invalidated=lost, dialect=connection.dialect, ismulti=many,
        ) from error  # fmt: skip
    except BaseException:
        cursor.close()
        raise
    return cursor
