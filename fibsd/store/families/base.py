"""What every family stands on: the backend's database helper, and small shared helpers.

A family is a class of methods (one per operation of its `fibsd.store.api` protocol) that
runs its SQL through `self._write()` (one transaction, or a savepoint of the batch's
transaction inside `run_batch`) and `self._read(sql, parameters)` (rows that can be
indexed by column name and by position). The backend (`fibsd.store.sqlite`,
`fibsd.store.postgresql`) supplies the `Database` these go through.

The SQL is written once for every backend, in the dialect they share: `?` parameters
(the PostgreSQL backend turns them into `%s`), `RETURNING id` for a new row's id (never
`lastrowid`), `COLLATE NOCASE` for names in any case (PostgreSQL has a collation called
`nocase`, created by its first migration), `instr(a, b)` (PostgreSQL gets the function
too), no `%` in a statement.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol


class Cursor(Protocol):
    """What a family uses of the result of one statement."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The connection a write runs on, inside its transaction."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Any, /) -> Cursor: ...


class Database(Protocol):
    """A backend's connections, transactions and dialect."""

    def write(self) -> AbstractContextManager[Connection]:
        """One write transaction (a savepoint inside the batch's), committed on exit."""

    def read(self, sql: str, parameters: Sequence[object] = ()) -> list[Any]:
        """The rows of one query, read outside any write transaction."""


class Family:
    """The base of every family: `_write` and `_read` over the backend's database."""

    _database: Database

    def _write(self) -> AbstractContextManager[Connection]:
        return self._database.write()

    def _read(self, sql: str, parameters: Sequence[object] = ()) -> list[Any]:
        return self._database.read(sql, parameters)


def json_object(text: str) -> dict[str, object]:
    # A damaged settings column must not lock the player out: defaults instead.
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def pair_key(name: str, other: str) -> tuple[str, str]:
    first, second = name.lower(), other.lower()
    return (first, second) if first <= second else (second, first)


__all__ = ["Connection", "Cursor", "Database", "Family", "Iterator", "json_object", "pair_key"]
