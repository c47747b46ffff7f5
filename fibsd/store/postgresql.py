"""The PostgreSQL backend of the store: `fibsd.store.api` in a PostgreSQL database.

Chosen with `store = "postgresql://USER@HOST:PORT/DB"` (docs/operations.md). The families
(`fibsd.store.families`) run the same SQL as on SQLite; this module supplies the
connections, transactions, the batch (group commit) and the migrations
(`fibsd.store.migrations.postgresql`, the version kept in the table `fibsd_schema`).

Driver: psycopg 3 (`psycopg[binary]`, imported only when a PostgreSQL store is opened, so
a server on SQLite needs nothing more).

The guarantees, as on SQLite:

- A write (or a batch of `run_batch`) returns only once its transaction has committed;
  PostgreSQL's defaults (`synchronous_commit = on`, `fsync = on`) make a commit durable
  before it is acknowledged, so a change a user was told about survives a kill -9 of
  fibsd and of the database.
- Bounded connections: a pool of at most `pool_size` (a thread that finds them all busy
  waits for one). The committer's batch takes one, reads and single writes the others.
- The core's hot reads (`fibsd.store.api.Reader`: sanctions, saved matches' keys, the
  last chouette number, the open chouettes) are answered from memory (`memory.Facts`),
  loaded at open and changed by this store's own writes once they commit. (One fibsd
  per database: a second process's writes would not reach this memory;
  docs/architecture.md says what sharing would need.)
- The database restarting or unreachable: every operation waits for it (retrying with a
  growing pause, logging each failure), so commands wait and the server does not crash.
  A broken connection is dropped and a new one made. A batch whose COMMIT was sent but
  not answered is not run twice: its transaction id is read before COMMIT and its status
  asked (`txid_status`) once the database answers again.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from fibsd.store.api import SavedMatchInfo, StoreError, saved_match_info
from fibsd.store.families import Families
from fibsd.store.families.base import pair_key
from fibsd.store.memory import Facts
from fibsd.store.migrations.postgresql import MIGRATIONS

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

SCHEMA_VERSION: Final = len(MIGRATIONS)
#: Connections at most, by default: the committer's, and a few for reads and jobs.
POOL_SIZE: Final = 4
#: The longest pause between two attempts to reach a database that is down.
RETRY_PAUSE_MAX: Final = 2.0
#: Any number, the same in every fibsd: serialises migrations of processes starting together.
_MIGRATION_LOCK: Final = 0x66696273  # "fibs"

__all__ = ["POOL_SIZE", "SCHEMA_VERSION", "PostgreSQLDatabase", "PostgreSQLStore"]


class _Row(tuple[Any, ...]):
    """A row that reads by position and by column name, like `sqlite3.Row`."""

    _names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)


def _row_factory(cursor: Any) -> Any:
    names = {column.name: index for index, column in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> _Row:
        row = _Row(values)
        row._names = names
        return row

    return make


_PLACEHOLDER = re.compile(r"\?")


class _Statements:
    """The families' SQL (`?` parameters) in psycopg's (`%s`), each turned once."""

    def __init__(self) -> None:
        self._cache: dict[str, str] = {}

    def __call__(self, sql: str) -> str:
        turned = self._cache.get(sql)
        if turned is None:
            turned = self._cache[sql] = _PLACEHOLDER.sub("%s", sql)
        return turned


class _Cursor:
    """A statement's result with `rowcount` read at once (the cursor is reused)."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self.rowcount = cursor.rowcount
        self._rows: list[Any] | None = cursor.fetchall() if cursor.description is not None else None

    def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        return list(self._rows or ())


class _Connection:
    """What a family's write sees: `execute` and `executemany` with `?` parameters."""

    def __init__(self, connection: psycopg.Connection[Any], statements: _Statements) -> None:
        self._connection = connection
        self._statements = statements

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        with self._connection.cursor() as cursor:
            cursor.execute(self._statements(sql), tuple(parameters))
            return _Cursor(cursor)

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        with self._connection.cursor() as cursor:
            cursor.executemany(self._statements(sql), [tuple(row) for row in parameters])
            return _Cursor(cursor)


class _RerunWithSavepoints(Exception):
    """A write failed in the batch's optimistic pass: roll back, run it with savepoints."""


class _Unavailable(Exception):
    """The database could not be reached, or the connection broke: try again."""


class PostgreSQLDatabase:
    """A bounded pool of connections to one database, and its transactions
    (`families.BatchDatabase`)."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, connect_timeout: float = 10.0,
                 wait_for_database: float | None = None) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "a PostgreSQL store needs psycopg: pip install 'fibsd[postgresql]'"
            ) from None
        self._psycopg = psycopg
        self.url = url
        self._connect_timeout = connect_timeout
        #: How long an operation waits for a database that is down (None: as long as it takes).
        self.wait_for_database = wait_for_database
        self._statements = _Statements()
        self._idle: list[psycopg.Connection[Any]] = []
        self._idle_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(pool_size)
        self.pool_size = pool_size
        self._closed = False
        #: The batch's connection, for the thread running `run_batch`.
        self._batch: threading.local = threading.local()
        try:
            self._migrate()
        except StoreError:
            self.close()
            raise
        except psycopg.Error as error:
            self.close()
            raise StoreError(f"database {_safe(url)}: {_scrub(_one_line(error), url)}") from None

    # --- connections -----------------------------------------------------------------

    def _connect(self) -> psycopg.Connection[Any]:
        connection = self._psycopg.connect(
            self.url, autocommit=True, connect_timeout=max(1, round(self._connect_timeout)),
            row_factory=_row_factory,
        )
        return connection

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pool connection for the block (at most `pool_size` at once); a broken one is
        dropped instead of going back to the pool."""
        if self._closed:
            raise StoreError("the store is closed")
        self._slots.acquire()
        connection = None
        try:
            with self._idle_lock:
                connection = self._idle.pop() if self._idle else None
            if connection is None or connection.closed:
                connection = self._connect()
            yield connection
        finally:
            if connection is not None:
                if connection.broken or connection.closed or self._closed:
                    connection.close()
                else:
                    with self._idle_lock:
                        self._idle.append(connection)
            self._slots.release()

    def _retrying(self, attempt: Any, what: str) -> Any:
        """Run `attempt()` until it gets through: a database that is down or restarting
        is waited for (the pause growing to RETRY_PAUSE_MAX), each failure logged."""
        psycopg = self._psycopg
        pause = 0.05
        deadline = None if self.wait_for_database is None else time.monotonic() + self.wait_for_database
        while True:
            try:
                return attempt()
            except (psycopg.OperationalError, psycopg.InterfaceError, _Unavailable) as error:
                if self._closed:
                    raise StoreError("the store is closed") from None
                if deadline is not None and time.monotonic() >= deadline:
                    raise StoreError(f"database {_safe(self.url)} unavailable: "
                                     f"{_scrub(_one_line(error), self.url)}") from None
                log.warning("database unavailable (%s), retrying: %s", what,
                            _scrub(_one_line(error), self.url))
                time.sleep(pause)  # a worker thread's wait, never the event loop's
                pause = min(pause * 2, RETRY_PAUSE_MAX)

    # --- the families' database --------------------------------------------------------

    def read(self, sql: str, parameters: Sequence[object] = ()) -> list[Any]:
        statement = self._statements(sql)
        values = tuple(parameters)

        def attempt() -> list[Any]:
            with self._connection() as connection:
                return connection.execute(statement, values).fetchall()

        rows: list[Any] = self._retrying(attempt, "read")
        return rows

    @contextmanager
    def write(self) -> Iterator[_Connection]:
        """One write transaction; inside `batch()` (same thread) a savepoint of it.

        Outside a batch the block runs once: if the connection breaks during it, the
        error is raised (the caller did not get an answer, and nothing was acknowledged).
        Waiting for a database that is down happens before the block starts."""
        batch = getattr(self._batch, "connection", None)
        if batch is not None:
            if not self._batch.savepoints or self._batch.depth > 0:
                # The optimistic pass (no savepoints: a failing write reruns the batch
                # with them), or a write inside a write: the outer savepoint covers it.
                self._batch.depth += 1
                try:
                    yield _Connection(batch, self._statements)
                finally:
                    self._batch.depth -= 1
                return
            after: list[Callable[[], None]] = self._batch.after
            kept = len(after)
            self._batch.depth = 1
            try:
                with batch.transaction():  # a savepoint: one failing write undoes itself alone
                    yield _Connection(batch, self._statements)
            except BaseException:
                del after[kept:]  # nor do its changes of the Reader's facts happen
                raise
            finally:
                self._batch.depth = 0
            return
        slot = self._retrying(self._checked_out, "write")
        connection, release = slot
        try:
            with connection.transaction():
                yield _Connection(connection, self._statements)
        finally:
            release()

    def _checked_out_unchecked(self) -> tuple[psycopg.Connection[Any], Any]:
        """A pool connection, and how to give it back."""
        manager = self._connection()
        connection = manager.__enter__()
        return connection, lambda: manager.__exit__(None, None, None)

    def _checked_out(self) -> tuple[psycopg.Connection[Any], Any]:
        """A pool connection known to answer (`SELECT 1`), and how to give it back."""
        manager = self._connection()
        connection = manager.__enter__()
        try:
            connection.execute("SELECT 1")
        except BaseException as error:
            manager.__exit__(type(error), error, error.__traceback__)
            raise
        return connection, lambda: manager.__exit__(None, None, None)

    @contextmanager
    def batch(self, *, savepoints: bool = True) -> Iterator[None]:
        """One transaction for `run_batch`'s writes (each `write()` a savepoint of it, or,
        with `savepoints` False, none: each savepoint is a round trip to the server).
        Raises `_Unavailable` if the connection broke before COMMIT was acknowledged and
        the transaction did not commit; the caller runs the whole batch again. (No
        `SELECT 1` first: a broken connection fails the first statement, and the batch
        is run again on a new one.)"""
        connection, release = self._retrying(self._checked_out_unchecked, "commit")
        psycopg = self._psycopg
        txid: int | None = None
        after: list[Callable[[], None]] = []
        try:
            self._batch.connection = connection
            self._batch.after = after
            self._batch.savepoints = savepoints
            self._batch.depth = 0
            try:
                with connection.transaction():
                    txid = int(connection.execute("SELECT txid_current()").fetchone()[0])
                    yield
            finally:
                self._batch.connection = None
                self._batch.after = None
        except (psycopg.OperationalError, psycopg.InterfaceError) as error:
            if txid is None or not self._committed(txid):
                raise _Unavailable(_one_line(error)) from None
            log.warning("database connection lost after COMMIT; transaction %s committed", txid)
        finally:
            release()
        for apply in after:  # committed: what the batch changed of the Reader's facts
            apply()

    def after_commit(self, apply: Callable[[], None]) -> None:
        """Run `apply` once the current write has committed: at once after a single
        write (it has), at the end of the batch inside one (if the batch commits)."""
        pending = getattr(self._batch, "after", None)
        if pending is not None:
            pending.append(apply)
        else:
            apply()

    def _committed(self, txid: int) -> bool:
        """Whether transaction `txid` committed, asked once the database answers."""
        def attempt() -> bool:
            with self._connection() as connection:
                try:
                    row: Any = connection.execute("SELECT txid_status(%s)", (txid,)).fetchone()
                except self._psycopg.errors.InvalidParameterValue:
                    # "transaction ID N is in the future": the database crashed (its
                    # postmaster killed) before the transaction reached its log, so crash
                    # recovery never saw it: it did not commit.
                    return False
                return bool(row is not None and row[0] == "committed")

        committed: bool = self._retrying(attempt, "commit status")
        return committed

    def run_batch(self, run: Any) -> Any:
        """Run `run()` (the families' run_batch loop inside `batch()`) until one attempt
        commits or is known not to need repeating."""
        return self._retrying(run, "commit")

    # --- schema ------------------------------------------------------------------------

    def _migrate(self) -> None:
        from fibsd.store import migrations
        migrations.check_lengths()
        # All of them in one transaction, under a lock that another fibsd starting at the
        # same moment waits for: a failing migration leaves the database as it was.
        with self._connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            connection.execute(
                "CREATE TABLE IF NOT EXISTS fibsd_schema (version INTEGER NOT NULL)"
            )
            row = connection.execute("SELECT version FROM fibsd_schema").fetchone()
            if row is None:
                connection.execute("INSERT INTO fibsd_schema (version) VALUES (0)")
                version = 0
            else:
                version = int(row[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"database {_safe(self.url)} has schema version {version}, newer than"
                    f" this fibsd ({SCHEMA_VERSION}); upgrade fibsd"
                )
            for number in range(version + 1, SCHEMA_VERSION + 1):
                with connection.transaction():
                    connection.execute(MIGRATIONS[number - 1])
                    connection.execute("UPDATE fibsd_schema SET version = %s", (number,))

    def schema_version(self) -> int:
        rows = self.read("SELECT version FROM fibsd_schema")
        return int(rows[0][0]) if rows else 0

    def close(self) -> None:
        self._closed = True
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


class PostgreSQLStore(Families):
    """The server's database in PostgreSQL. Open it once at start-up, `close()` it at
    shutdown. Every method is one transaction: when it returns, the change is committed."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE,
                 wait_for_database: float | None = None) -> None:
        self._database: PostgreSQLDatabase = PostgreSQLDatabase(
            url, pool_size=pool_size, wait_for_database=wait_for_database
        )
        self.url = url
        try:
            self._facts = Facts(
                sanctions=[(row[0], row[1], row[2]) for row in self._database.read(
                    "SELECT kind, target, until FROM sanctions")],
                saved=super().saved_match_heads(),
                last_chouette_id=super().last_chouette_id(),
                open_chouettes=super().open_chouettes(),
                saved_tournaments=super().saved_tournaments(),
                saved_schedules=super().saved_schedules(),
            )
        except BaseException:
            self._database.close()
            raise

    # --- the Reader: from memory (fibsd.store.memory) ---------------------------------

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        return self._facts.sanction_until(kind, target, now)

    def saved_match_info(self, name: str, other: str) -> SavedMatchInfo | None:
        return self._facts.saved_match_info(*pair_key(name, other))

    def last_chouette_id(self) -> int:
        return self._facts.last_chouette_id()

    def open_chouettes(self) -> list[dict[str, object]]:
        return self._facts.open_chouettes()

    def saved_tournaments(self) -> list[dict[str, object]]:
        return self._facts.saved_tournaments()

    def saved_schedules(self) -> list[dict[str, object]]:
        return self._facts.saved_schedules()

    # --- the writes that change those facts --------------------------------------------

    def impose(self, kind: str, target: str, *, until: float | None, reason: str, by: str,
               at: float) -> None:
        super().impose(kind, target, until=until, reason=reason, by=by, at=at)
        self._database.after_commit(self._facts.imposed(kind, target, until))

    def lift(self, kind: str, target: str) -> bool:
        lifted = super().lift(kind, target)
        self._database.after_commit(self._facts.lifted(kind, target))
        return lifted

    def save_match(self, name: str, other: str, data: dict[str, object], at: float, *,
                   finished_from: int = 0) -> None:
        super().save_match(name, other, data, at, finished_from=finished_from)
        info = saved_match_info(data)
        self._database.after_commit(self._facts.saved(*pair_key(name, other), info))

    def delete_saved_match(self, name: str, other: str) -> None:
        super().delete_saved_match(name, other)
        self._database.after_commit(self._facts.deleted(*pair_key(name, other)))

    def save_chouette(self, table_id: int, owner: str, state: dict[str, object], at: float,
                      *, closed: bool = False) -> None:
        super().save_chouette(table_id, owner, state, at, closed=closed)
        self._database.after_commit(self._facts.chouette_saved(table_id))

    def run_batch(self, writes: Any) -> list[BaseException | None]:
        """Group commit (`Families.run_batch`), run again whole if the database went away
        before the batch's COMMIT was acknowledged (so it did not commit).

        Optimistic: the writes first run without savepoints (a savepoint is two round
        trips to the server, for each write); if one fails, that transaction is rolled
        back and the batch runs again with a savepoint per write, as on SQLite, so the
        failing write is undone alone."""
        parent = super().run_batch

        def attempt() -> list[BaseException | None]:
            try:
                with self._database.batch(savepoints=False):
                    for write in writes:
                        try:
                            write(self)
                        except Exception as error:
                            raise _RerunWithSavepoints from error
                return [None] * len(writes)
            except _RerunWithSavepoints:
                return parent(writes)

        results: list[BaseException | None] = self._database.run_batch(attempt)
        return results


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _password(url: str) -> str | None:
    """The password a URL carries, as typed: in the user part (`user:PASSWORD@host`, up to
    the last `@`, so an unencoded `@` in it counts) or as `password=` in the query."""
    _scheme, separator, rest = url.partition("://")
    at = rest.rfind("@")
    if separator and at != -1 and ":" in rest[:at]:
        return rest[:at].split(":", 1)[1]
    found = re.search(r"[?&]password=([^&#]*)", url, re.IGNORECASE)
    return found.group(1) if found else None


def _safe(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, separator, rest = url.partition("://")
    at = rest.rfind("@")
    if separator and at != -1 and ":" in rest[:at]:
        url = f"{scheme}://{rest[:at].split(':', 1)[0]}:***{rest[at:]}"
    return re.sub(r"([?&]password=)[^&#]*", r"\1***", url, flags=re.IGNORECASE)


def _scrub(text: str, url: str) -> str:
    """`text` (a driver's error message) with the URL's password replaced: whole, decoded,
    and each piece between URL delimiters (libpq splits an unencoded `@` in a password
    off as part of the host name, and may quote that host in its error)."""
    password = _password(url)
    if not password:
        return text
    forms = {password, urllib.parse.unquote(password), *re.split(r"[@:/?#&=]", password)}
    for form in sorted(forms, key=len, reverse=True):
        if len(form) >= 3:  # (a piece of one or two letters would mask ordinary words)
            text = text.replace(form, "***")
    return text
