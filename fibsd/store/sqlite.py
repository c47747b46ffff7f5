"""The embedded backend of the store: `fibsd.store.api` in one SQLite file.

This module owns the database file: its schema (`fibsd.store.migrations.sqlite`, applied
in order, the version kept in `PRAGMA user_version`), the durability settings, and the
connections and transactions the families (`fibsd.store.families`) run their SQL through.
It must not import trio or know the protocol; it has no clock.

Threads: writes run in a worker thread. The server's committer task hands the writes of
many commands to `run_batch` through `trio.to_thread.run_sync`, and they share one
transaction, each write a savepoint of it (group commit; a write that fails rolls back
alone and is reported to its caller). Reads run on the event loop, synchronously, by
design: they go through a second, read-only connection (`_open_reader`), which in WAL
mode never waits for a commit in progress, and they are indexed lookups. Each connection
is guarded by its own lock, so every method is atomic and safe from any thread.

Durability: WAL journal with `synchronous=FULL`, so a write that returned (or a batch
that `run_batch` finished) has committed and fsynced its transaction; the change survives
a kill -9 and a power loss. Start-up runs `PRAGMA quick_check` and refuses a damaged file.

Adding a migration: see `fibsd.store.migrations` (one entry in every backend's list).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from fibsd.store.api import StoreError
from fibsd.store.families import Families
from fibsd.store.migrations.sqlite import MIGRATIONS, Migration

SCHEMA_VERSION: Final = len(MIGRATIONS)
BUSY_TIMEOUT_SECONDS: Final = 10.0

__all__ = ["BUSY_TIMEOUT_SECONDS", "MIGRATIONS", "SCHEMA_VERSION", "Migration", "SQLiteDatabase",
           "SQLiteStore"]


class SQLiteDatabase:
    """The connections to one SQLite file and its transactions (`families.BatchDatabase`).

    `path` is a file (created with its directory if missing) or ":memory:" (tests).
    """

    def __init__(self, path: str | Path, *, busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: no implicit transactions; every write below opens its
            # own with BEGIN IMMEDIATE, so it takes the write lock up front and cannot
            # deadlock upgrading a read lock.
            self._db = sqlite3.connect(
                self.path,
                timeout=busy_timeout_seconds,
                isolation_level=None,
                check_same_thread=False,  # used from trio's worker threads, under _lock
            )
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"database {self.path}: cannot open: {error}") from None
        self._db.row_factory = sqlite3.Row
        #: The thread running `run_batch`, whose writes become savepoints of one transaction.
        self._batch_thread: int | None = None
        try:
            self._open()
            self._read_db, self._read_lock = self._open_reader(busy_timeout_seconds)
        except sqlite3.Error as error:
            self._db.close()
            raise StoreError(f"database {self.path}: {error}") from None
        except BaseException:
            self._db.close()
            raise

    def _open_reader(self, busy_timeout_seconds: float) -> tuple[sqlite3.Connection, threading.Lock]:
        """A second connection for reads: in WAL mode readers never wait for a writer, so
        the event loop's reads are not held up by a commit (and its fsync) in progress.
        A ":memory:" database exists once per connection, so it reads through the one."""
        if self.path == ":memory:":
            return self._db, self._lock
        reader = sqlite3.connect(
            self.path, timeout=busy_timeout_seconds, isolation_level=None,
            check_same_thread=False,
        )
        reader.row_factory = sqlite3.Row
        reader.execute("PRAGMA query_only=ON")
        return reader, threading.Lock()

    def _open(self) -> None:
        db = self._db
        check = [row[0] for row in db.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            raise StoreError(
                f"database {self.path} is damaged (quick_check: {check[0]}); "
                "restore a backup or run `sqlite3 FILE .recover`"
            )
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"database {self.path}: cannot use WAL mode (got {mode})")
        # FULL: in WAL mode NORMAL may lose the last commits on power loss; an acknowledged
        # change must survive that.
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def _migrate(self) -> None:
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"database {self.path} has schema version {version}, newer than this "
                f"fibsd ({SCHEMA_VERSION}); upgrade fibsd"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            with self.write() as db:
                # Re-read inside the write lock: another process may have migrated.
                if db.execute("PRAGMA user_version").fetchone()[0] >= number:
                    continue
                step = MIGRATIONS[number - 1]
                if isinstance(step, str):
                    for statement in _statements(step):
                        db.execute(statement)
                else:
                    step(db)
                db.execute(f"PRAGMA user_version = {number:d}")

    def schema_version(self) -> int:
        """The migration number the file is at (0 = empty)."""
        with self._lock:
            version: int = self._db.execute("PRAGMA user_version").fetchone()[0]
            return version

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (and fsynced) on exit or rolled back on error.
        Inside `run_batch` (same thread) it is a savepoint of the batch's transaction."""
        if self._batch_thread == threading.get_ident():
            self._db.execute("SAVEPOINT single_write")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK TO single_write")
                self._db.execute("RELEASE single_write")
                raise
            self._db.execute("RELEASE single_write")
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                # SQLite may already have rolled back (e.g. disk full); a second ROLLBACK
                # would raise and hide the real error.
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def read(self, sql: str, parameters: Sequence[object] = ()) -> list[Any]:
        with self._read_lock:
            return self._read_db.execute(sql, tuple(parameters)).fetchall()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction for `run_batch`'s writes: each `write()` in this thread is a
        savepoint of it; committed (one fsync) when the block ends."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._batch_thread = threading.get_ident()
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            finally:
                self._batch_thread = None

    def close(self) -> None:
        """Close the database (checkpointing the WAL into the main file)."""
        if self._read_db is not self._db:
            with self._read_lock:
                self._read_db.close()
        with self._lock:
            self._db.close()


class SQLiteStore(Families):
    """The server's database in SQLite. Open it once at start-up, `close()` it at shutdown.

    `path` is a file (created with its directory if missing) or ":memory:" (tests).
    Every method is one transaction: when it returns, the change is on disk.
    """

    def __init__(
        self, path: str | Path, *, busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS
    ) -> None:
        self._database: SQLiteDatabase = SQLiteDatabase(path, busy_timeout_seconds=busy_timeout_seconds)
        self.path = self._database.path

    @classmethod
    def open(cls, path: str | Path) -> SQLiteStore:
        """Open (creating and migrating as needed) the database at `path`; same as SQLiteStore(path)."""
        return cls(path)


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into complete statements (sqlite3.complete_statement)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statement = pending.strip()
            pending = ""
            if statement.strip(";").strip():
                yield statement
    if pending.strip():
        yield pending
