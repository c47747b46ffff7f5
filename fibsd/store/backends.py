"""Which backend a store location names, for the shell and the command line.

A location is a path of an SQLite file (the default), `sqlite:PATH`, or ":memory:".
"""

from __future__ import annotations

from pathlib import Path

from fibsd.store.api import Store


def open_store(location: str | Path) -> Store:
    """Open (creating and migrating as needed) the store at `location`."""
    from fibsd.store.sqlite import SQLiteStore

    text = str(location)
    if text.startswith("sqlite:"):
        text = text.removeprefix("sqlite:")
    return SQLiteStore(text)
