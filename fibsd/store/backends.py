"""Which backend a store location names, for the shell and the command line.

A location is a path of an SQLite file (the default), `sqlite:PATH`, ":memory:", or a
PostgreSQL URL (`postgresql://USER@HOST:PORT/DB`, also `postgres://`).
"""

from __future__ import annotations

from pathlib import Path

from fibsd.store.api import Store


def is_postgresql(location: str | Path) -> bool:
    return str(location).startswith(("postgresql://", "postgres://"))


def open_store(location: str | Path, *, pool_size: int | None = None) -> Store:
    """Open (creating and migrating as needed) the store at `location`."""
    text = str(location)
    if is_postgresql(text):
        from fibsd.store.postgresql import POOL_SIZE, PostgreSQLStore

        return PostgreSQLStore(text, pool_size=pool_size or POOL_SIZE)
    from fibsd.store.sqlite import SQLiteStore

    return SQLiteStore(text.removeprefix("sqlite:"))
