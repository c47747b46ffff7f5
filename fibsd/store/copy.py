"""`fibsd migrate-store`: copy a club's whole SQLite database into PostgreSQL, and check it.

Both sides are opened as stores first, so both are migrated to this fibsd's schema
version (the same tables and columns on each, `fibsd.store.migrations`). The target must
be empty. Every table of the SQLite file is copied (whatever family made it: the list is
read from the file, not written here), parents before the tables whose foreign keys
point at them, in ONE PostgreSQL transaction with `COPY`; the identity columns then
continue after the copied ids. Afterwards the counts of every table must be equal, and a
sample of rows of each table (chosen at random) must be found in PostgreSQL exactly, or
the command fails.

Stop fibsd before copying (the SQLite file must not change meanwhile).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import attrs

from fibsd.store.api import StoreError

#: The tables that belong to a backend's own bookkeeping, never copied.
_OWN_TABLES = ("sqlite_sequence", "sqlite_stat1", "fibsd_schema")


@attrs.frozen
class CopyReport:
    """What was copied: rows per table, and how many sampled rows were compared."""

    rows: dict[str, int]
    sampled: int


def _tables_in_order(source: sqlite3.Connection) -> list[str]:
    """The SQLite file's tables, each after the tables its foreign keys refer to."""
    names = [row[0] for row in source.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if row[0] not in _OWN_TABLES and not row[0].startswith("sqlite_")]
    parents = {name: {row[2] for row in source.execute(f'PRAGMA foreign_key_list("{name}")')}
               for name in names}
    ordered: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in ordered or name in path:
            return
        for parent in sorted(parents.get(name, ())):
            if parent != name:
                visit(parent, (*path, name))
        ordered.append(name)

    for name in names:
        visit(name, ())
    return ordered


def _columns(source: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in source.execute(f'PRAGMA table_info("{table}")')]


def copy_sqlite_to_postgresql(source_path: str | Path, target_url: str, *, sample: int = 50,
                              progress: Callable[[str], None] = lambda _: None) -> CopyReport:
    """Copy the SQLite database at `source_path` into the (empty) PostgreSQL database at
    `target_url`, then check it; a StoreError says what is wrong."""
    from fibsd.store.postgresql import PostgreSQLStore
    from fibsd.store.sqlite import SQLiteStore

    if not Path(source_path).is_file():
        raise StoreError(f"no SQLite database at {source_path}")
    # Opening migrates both to this fibsd's schema version (and checks the file).
    with SQLiteStore(source_path) as source_store, PostgreSQLStore(target_url) as target_store:
        if source_store.schema_version() != target_store.schema_version():
            raise StoreError("the two databases are at different schema versions")
    import psycopg

    with closing(sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)) as source, \
            psycopg.connect(target_url) as target:
        tables = _tables_in_order(source)
        known = {row[0] for row in target.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema()")}
        missing = [table for table in tables if table not in known]
        if missing:
            raise StoreError(f"the PostgreSQL database has no table {', '.join(missing)}")
        for table in tables:
            count = target.execute(f'SELECT count(*) FROM "{table}"').fetchone()
            if count is not None and count[0]:
                raise StoreError(f"the PostgreSQL database is not empty (table {table})")
        rows: dict[str, int] = {}
        with target.transaction():
            for table in tables:
                columns = _columns(source, table)
                quoted = ", ".join(f'"{column}"' for column in columns)
                copied = 0
                with target.cursor() as cursor, \
                        cursor.copy(f'COPY "{table}" ({quoted}) FROM STDIN') as copy:
                    for row in source.execute(f'SELECT {quoted} FROM "{table}"'):
                        copy.write_row(row)
                        copied += 1
                rows[table] = copied
                progress(f"{table}: {copied} rows")
            _continue_identities(target, tables)
        sampled = _check(source, target, tables, rows, sample)
    return CopyReport(rows, sampled)


def _continue_identities(target: Any, tables: list[str]) -> None:
    """Make each identity column go on after the largest copied id."""
    for table, column in target.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    ).fetchall():
        if table not in tables:
            continue
        target.execute(
            f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
            f' COALESCE((SELECT max("{column}") FROM "{table}"), 0) + 1, false)'
        )


def _check(source: sqlite3.Connection, target: Any, tables: list[str], rows: dict[str, int],
           sample: int) -> int:
    """Equal counts for every table, and a random sample of each table's rows found in
    PostgreSQL with every column equal. Raises StoreError on the first difference."""
    compared = 0
    for table in tables:
        source_count = source.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        target_count = target.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if not source_count == target_count == rows[table]:
            raise StoreError(f"table {table}: {source_count} rows in SQLite, {target_count} in PostgreSQL")
        columns = _columns(source, table)
        quoted = ", ".join(f'"{column}"' for column in columns)
        for row in source.execute(
            f'SELECT {quoted} FROM "{table}" ORDER BY random() LIMIT ?', (sample,)
        ):
            conditions = " AND ".join(_same(column, value) for column, value in zip(columns, row, strict=True))
            found = target.execute(
                f'SELECT count(*) FROM "{table}" WHERE {conditions}',
                [value for value in row if value is not None],
            ).fetchone()[0]
            if found != 1:
                raise StoreError(f"table {table}: a row differs in PostgreSQL: {_short(row)}")
            compared += 1
    return compared


def _same(column: str, value: object) -> str:
    """A condition that `column` holds exactly `value` (text compared byte for byte)."""
    if value is None:
        return f'"{column}" IS NULL'
    if isinstance(value, str):
        return f'"{column}" COLLATE "C" = %s'
    return f'"{column}" = %s'


def _short(row: Iterator[object] | tuple[object, ...]) -> str:
    text = repr(tuple(row))
    return text if len(text) <= 200 else text[:200] + "..."
