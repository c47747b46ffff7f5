"""The embedded store: accounts, their settings and ratings, offline messages, saved
matches, match records and sanctions, in SQLite.

This module owns the database file: its schema (a list of migrations applied in order,
the version kept in `PRAGMA user_version`), the durability settings, and a small
synchronous API in terms of `fibsd.accounts` values and `fibsd.matfile.MatchRecord`. It
must not import trio or know the protocol; it has no clock (callers pass epoch seconds in).

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

Adding a migration: append one SQL script (or a function taking the connection) to
MIGRATIONS. Never edit or reorder a migration that has shipped.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, Self, TypeAlias

import attrs

from fibsd.accounts import Account, Toggles, Variables
from fibsd.analysis import MatchAnalysis
from fibsd.matfile import MatchRecord

Migration: TypeAlias = str | Callable[[sqlite3.Connection], None]

MIGRATIONS: Final[tuple[Migration, ...]] = (
    # 1: accounts and offline messages.
    """
    CREATE TABLE accounts (
        id              INTEGER PRIMARY KEY,
        name            TEXT NOT NULL UNIQUE COLLATE NOCASE,  -- unique regardless of case
        password_hash   TEXT NOT NULL,
        created_at      REAL NOT NULL,
        last_login_at   REAL,
        last_login_host TEXT,
        last_logout_at  REAL,
        rating          REAL NOT NULL DEFAULT 1500.0,
        experience      INTEGER NOT NULL DEFAULT 0,
        email           TEXT,
        -- JSON objects: a toggle or variable added later needs no migration, and a
        -- missing entry reads back as its default.
        toggles         TEXT NOT NULL DEFAULT '{}',
        variables       TEXT NOT NULL DEFAULT '{}'
    );
    -- AUTOINCREMENT: ids are never reused, so deleting delivered ids after a crash can
    -- never remove a newer message.
    CREATE TABLE messages (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        recipient_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        sender       TEXT NOT NULL,
        sent_at      REAL NOT NULL,
        text         TEXT NOT NULL
    );
    CREATE INDEX messages_by_recipient ON messages (recipient_id, id);
    """,
    # 2: the `ratings` list reads accounts by rating.
    "CREATE INDEX accounts_by_rating ON accounts (rating DESC, name)",
    # 3: saved matches, one per pair of players (keys: lower-case names, sorted).
    """
    CREATE TABLE saved_matches (
        player_low  TEXT NOT NULL,  -- the smaller of the two name keys
        player_high TEXT NOT NULL,
        data        TEXT NOT NULL,  -- JSON: the complete match state
        saved_at    REAL NOT NULL,
        PRIMARY KEY (player_low, player_high)
    );
    CREATE INDEX saved_matches_by_high ON saved_matches (player_high);
    """,
    # 4: match records, one per finished match, kept for `.mat` export.
    """
    CREATE TABLE match_records (
        id          INTEGER PRIMARY KEY,
        player0     TEXT NOT NULL,  -- names as spelt; player 0 invited player 1
        player1     TEXT NOT NULL,
        length      INTEGER,        -- NULL: unlimited
        score0      INTEGER NOT NULL,
        score1      INTEGER NOT NULL,
        winner      INTEGER,        -- 0, 1 or NULL (an unlimited match has no winner)
        data        TEXT NOT NULL,  -- JSON: Match.to_dict() with every game's history
        started_at  REAL,
        finished_at REAL NOT NULL
    );
    -- A player's records are looked up by name in any case (`list-matches`, `export`).
    CREATE INDEX match_records_by_player0 ON match_records (player0 COLLATE NOCASE, id);
    CREATE INDEX match_records_by_player1 ON match_records (player1 COLLATE NOCASE, id);
    """,
    # 5: the operators' sanctions (bans of accounts and addresses, mutes) and the
    # invitation codes of clubs with `registration = "code"`.
    """
    CREATE TABLE sanctions (
        kind       TEXT NOT NULL,  -- 'ban-account', 'ban-address' or 'mute'
        target     TEXT NOT NULL,  -- lower-case account name, or an address
        until      REAL,           -- NULL: until lifted
        reason     TEXT NOT NULL,
        imposed_by TEXT NOT NULL,
        imposed_at REAL NOT NULL,
        PRIMARY KEY (kind, target)
    );
    CREATE TABLE invitation_codes (
        code       TEXT PRIMARY KEY,
        created_by TEXT NOT NULL,
        created_at REAL NOT NULL,
        used_by    TEXT,
        used_at    REAL
    );
    """,
    # 6: matches each player dropped and did not come back to (shown by `whois`).
    """
    CREATE TABLE drop_counts (
        name  TEXT PRIMARY KEY COLLATE NOCASE,
        drops INTEGER NOT NULL
    );
    """,
    # 7: changes to a saved match since its last whole copy, applied in id order when it
    # is read. A match is saved after every action; rewriting the whole match (every game
    # so far with its history) each time made the save cost grow with the match.
    """
    CREATE TABLE saved_match_patches (
        id          INTEGER PRIMARY KEY,
        player_low  TEXT NOT NULL,
        player_high TEXT NOT NULL,
        patch       TEXT NOT NULL  -- JSON list of ["update"|"extend", [key, ...], value]
    );
    CREATE INDEX saved_match_patches_by_pair
        ON saved_match_patches (player_low, player_high, id);
    """,
    # 8: the finished games of a saved match, each written once when it is saved for the
    # first time. They were part of the whole copy written at the start of every game, and
    # that copy (and every change of the row it was in: each patch updates `saved_at`)
    # grew with the games played: in a long unlimited match the saves came to cost more
    # than the rest of each command. A match saved by an older release keeps its games
    # in its whole copy until it is saved again.
    """
    CREATE TABLE saved_match_games (
        player_low  TEXT NOT NULL,
        player_high TEXT NOT NULL,
        number      INTEGER NOT NULL,  -- 0 for the first finished game
        data        TEXT NOT NULL,     -- the game's JSON object (`Game.to_dict`)
        PRIMARY KEY (player_low, player_high, number)
    );
    """,
    # 9: chouette tables (docs/chouette.md): the whole state of each, saved after every
    # action like a match; a closed one stays, with its ledger, for `chouette score`.
    """
    CREATE TABLE chouettes (
        id        INTEGER PRIMARY KEY,
        owner     TEXT NOT NULL COLLATE NOCASE,
        state     TEXT NOT NULL,  -- JSON: fibsd.app.play.chouette.ChouetteTable.saved_state
        closed    INTEGER NOT NULL DEFAULT 0,
        saved_at  REAL NOT NULL
    );
    """,
    # 10: each patch carries its own time. A patch used to set `saved_matches.saved_at`,
    # and SQLite rewrites a whole row (the game's whole copy, over several pages) to change
    # one column: a tenth of the committer's work and extra pages in every commit. The
    # time a saved match was last changed is its latest patch's, else its own. (Patches
    # written before this have none, and their match's `saved_at` is up to date.)
    """
    ALTER TABLE saved_match_patches ADD COLUMN saved_at REAL;
    """,
    # 11: engine analysis (issue 23, docs/analysis.md): the jobs waiting (they survive a
    # restart), each finished analysis (JSON, and gnubg's .sgf of the analysed match,
    # zlib-compressed: hundreds of KiB of text), and each player's PR per analysed match
    # for `show pr`.
    """
    CREATE TABLE analysis_jobs (
        record_id  INTEGER PRIMARY KEY,
        requesters TEXT NOT NULL,  -- JSON list of name keys; empty: queued automatically
        queued_at  REAL NOT NULL
    );
    CREATE TABLE analyses (
        record_id   INTEGER PRIMARY KEY,
        data        TEXT NOT NULL,  -- JSON: fibsd.analysis.MatchAnalysis.to_dict()
        sgf         BLOB NOT NULL,  -- zlib: gnubg's `save match` of the analysed match
        analysed_at REAL NOT NULL
    );
    CREATE TABLE analysis_prs (
        record_id INTEGER NOT NULL,
        name      TEXT NOT NULL COLLATE NOCASE,
        pr        REAL NOT NULL,
        PRIMARY KEY (record_id, name)
    );
    CREATE INDEX analysis_prs_by_name ON analysis_prs (name);
    """,
)

SCHEMA_VERSION: Final = len(MIGRATIONS)
BUSY_TIMEOUT_SECONDS: Final = 10.0


class StoreError(Exception):
    """The database cannot be used (corrupt, too new, not a database); one-line message."""


class NameTaken(Exception):
    """An account with this name (in any case) already exists."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class NoSuchAccount(Exception):
    """No account has this name (in any case)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


_RECORD_COLUMNS: Final = (
    "id, player0, player1, length, score0, score1, winner, data, started_at, finished_at"
)


def _record_from_row(row: sqlite3.Row) -> MatchRecord:
    return MatchRecord(
        id=row["id"],
        players=(row["player0"], row["player1"]),
        length=row["length"],
        score=(row["score0"], row["score1"]),
        winner=row["winner"],
        data=_json_object(row["data"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


@attrs.frozen
class StoredMessage:
    """An offline message waiting for its recipient; `id` orders and deletes it."""

    id: int
    recipient: str
    sender: str
    sent_at: float
    text: str


_ACCOUNT_COLUMNS: Final = (
    "name, password_hash, created_at, last_login_at, last_login_host, last_logout_at,"
    " rating, experience, email, toggles, variables"
)


def _account_row(account: Account) -> tuple[object, ...]:
    return (
        account.name,
        account.password_hash,
        account.created_at,
        account.last_login_at,
        account.last_login_host,
        account.last_logout_at,
        account.rating,
        account.experience,
        account.email,
        json.dumps(account.toggles.as_dict()),
        json.dumps(account.variables.as_dict()),
    )


#: One step of a saved match's patch: ["update", path, object] or ["extend", path, list].
PatchStep = tuple[str, Sequence[str], object]


def apply_patch(data: dict[str, object], patch: Iterable[Sequence[object]]) -> None:
    """Apply `patch` to `data` in place, step by step: `update` merges an object's keys
    into the object at the path of keys (the empty path is `data` itself); `extend`
    appends a list's values to the list at the path."""
    for step in patch:
        operation, path, value = step
        if not isinstance(path, list | tuple):
            raise ValueError(f"bad patch path {path!r}")
        target: Any = data
        for key in path:
            target = target[key]
        if operation == "update" and isinstance(target, dict) and isinstance(value, dict):
            target.update(value)
        elif operation == "extend" and isinstance(target, list) and isinstance(value, list):
            target.extend(value)
        else:
            raise ValueError(f"bad patch step {operation!r} at {path!r}")


def _json_object(text: str) -> dict[str, object]:
    # A damaged settings column must not lock the player out: defaults instead.
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return {}
    return value if isinstance(value, dict) else {}


def _account_from_row(row: sqlite3.Row) -> Account:
    return Account(
        name=row["name"],
        password_hash=row["password_hash"],
        created_at=row["created_at"],
        last_login_at=row["last_login_at"],
        last_login_host=row["last_login_host"],
        last_logout_at=row["last_logout_at"],
        rating=row["rating"],
        experience=row["experience"],
        email=row["email"],
        toggles=Toggles.from_dict(_json_object(row["toggles"])),
        variables=Variables.from_dict(_json_object(row["variables"])),
    )


class Store:
    """The server's database. Open it once at start-up, `close()` it at shutdown.

    `path` is a file (created with its directory if missing) or ":memory:" (tests).
    Every method is one transaction: when it returns, the change is on disk.
    """

    def __init__(
        self, path: str | Path, *, busy_timeout_seconds: float = BUSY_TIMEOUT_SECONDS
    ) -> None:
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

    @classmethod
    def open(cls, path: str | Path) -> Store:
        """Open (creating and migrating as needed) the database at `path`; same as Store(path)."""
        return cls(path)

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
            with self._write() as db:
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
    def _write(self) -> Iterator[sqlite3.Connection]:
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

    def _read(self, sql: str, parameters: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self._read_lock:
            return self._read_db.execute(sql, parameters).fetchall()

    def run_batch(self, writes: Sequence[Callable[[Store], object]]) -> list[BaseException | None]:
        """Group commit: run `writes` (each a function of this store) in ONE transaction,
        so one fsync makes them all durable. Each write is a savepoint: one that raises is
        undone alone and its exception returned in its place; the others commit."""
        results: list[BaseException | None] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._batch_thread = threading.get_ident()
            try:
                for write in writes:
                    try:
                        write(self)
                    except Exception as error:  # that write only; reported to its caller
                        results.append(error)
                    else:
                        results.append(None)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            finally:
                self._batch_thread = None
        return results

    # --- accounts ---------------------------------------------------------------------

    def create_account(self, account: Account) -> None:
        """Store a new account; `NameTaken` if the name exists in any case."""
        with self._write() as db:
            if db.execute("SELECT 1 FROM accounts WHERE name = ?", (account.name,)).fetchone():
                raise NameTaken(account.name)
            db.execute(
                f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                _account_row(account),
            )

    def get_account(self, name: str) -> Account | None:
        """The account called `name` in any case (with its stored spelling), or None."""
        rows = self._read(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE name = ?", (name,))
        return _account_from_row(rows[0]) if rows else None

    def account_exists(self, name: str) -> bool:
        """True if an account called `name` (in any case) exists."""
        return bool(self._read("SELECT 1 FROM accounts WHERE name = ?", (name,)))

    def save_account(self, account: Account) -> None:
        """Overwrite every field of the existing account `account.name`.

        The stored spelling of the name is kept. Prefer the finer updates below where they
        fit: they cannot undo a concurrent change to another field.
        """
        row = _account_row(account)
        self._update(
            account.name,
            "password_hash=?, created_at=?, last_login_at=?, last_login_host=?,"
            " last_logout_at=?, rating=?, experience=?, email=?, toggles=?, variables=?",
            row[1:],
        )

    def update_toggles(self, name: str, toggles: Toggles) -> None:
        self._update(name, "toggles=?", (json.dumps(toggles.as_dict()),))

    def update_variables(self, name: str, variables: Variables) -> None:
        self._update(name, "variables=?", (json.dumps(variables.as_dict()),))

    def set_email(self, name: str, email: str | None) -> None:
        self._update(name, "email=?", (email,))

    def set_password_hash(self, name: str, password_hash: str) -> None:
        self._update(name, "password_hash=?", (password_hash,))

    def record_login(self, name: str, at: float, host: str) -> None:
        self._update(name, "last_login_at=?, last_login_host=?", (at, host))

    def record_logout(self, name: str, at: float) -> None:
        self._update(name, "last_logout_at=?", (at,))

    def update_rating(self, name: str, rating: float, experience: int) -> None:
        self._update(name, "rating=?, experience=?", (rating, experience))

    def update_ratings(self, changes: Iterable[tuple[str, float, int]]) -> None:
        """Several (name, rating, experience) in one transaction: both players of a
        finished match change together or not at all."""
        with self._write() as db:
            for name, rating, experience in changes:
                cursor = db.execute(
                    "UPDATE accounts SET rating=?, experience=? WHERE name = ?",
                    (rating, experience, name),
                )
                if cursor.rowcount != 1:
                    raise NoSuchAccount(name)

    # ------------------------------------------------------------- ratings list

    #: Only experienced players are ranked (FIBS: experience above 50, §8).
    RANKED_EXPERIENCE: Final = 50

    def ratings_page(self, first_rank: int, last_rank: int) -> list[tuple[int, str, float, int]]:
        """(rank, name, rating, experience) of the ranked players in ranks first..last."""
        if last_rank < first_rank or last_rank < 1:
            return []
        first_rank = max(first_rank, 1)
        rows = self._read(
            "SELECT name, rating, experience FROM accounts WHERE experience > ?"
            " ORDER BY rating DESC, name LIMIT ? OFFSET ?",
            (self.RANKED_EXPERIENCE, last_rank - first_rank + 1, first_rank - 1),
        )
        return [
            (first_rank + index, row["name"], float(row["rating"]), int(row["experience"]))
            for index, row in enumerate(rows)
        ]

    def rating_rank(self, name: str) -> int | None:
        """`name`'s rank in the ratings list, or None if unknown or not ranked."""
        rows = self._read(
            "SELECT a.name, (SELECT COUNT(*) FROM accounts b WHERE b.experience > ?"
            " AND (b.rating > a.rating OR (b.rating = a.rating AND b.name < a.name))) AS better"
            " FROM accounts a WHERE a.name = ? AND a.experience > ?",
            (self.RANKED_EXPERIENCE, name, self.RANKED_EXPERIENCE),
        )
        return int(rows[0]["better"]) + 1 if rows else None

    def delete_account(self, name: str) -> None:
        """Remove the account and its pending messages (admin `erase`)."""
        with self._write() as db:
            if db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount != 1:
                raise NoSuchAccount(name)

    def _update(self, name: str, assignments: str, values: tuple[object, ...]) -> None:
        # `assignments` is always a literal from this class, never user input.
        with self._write() as db:
            cursor = db.execute(
                f"UPDATE accounts SET {assignments} WHERE name = ?", (*values, name)
            )
            if cursor.rowcount != 1:
                raise NoSuchAccount(name)

    # --- offline messages -------------------------------------------------------------

    def add_message(self, recipient: str, sender: str, sent_at: float, text: str) -> int:
        """Store a message for `recipient` (any case); its id. `NoSuchAccount` if none."""
        with self._write() as db:
            row = db.execute("SELECT id FROM accounts WHERE name = ?", (recipient,)).fetchone()
            if row is None:
                raise NoSuchAccount(recipient)
            cursor = db.execute(
                "INSERT INTO messages (recipient_id, sender, sent_at, text) VALUES (?,?,?,?)",
                (row["id"], sender, sent_at, text),
            )
            message_id = cursor.lastrowid
            assert message_id is not None
            return message_id

    def pending_messages(self, recipient: str) -> list[StoredMessage]:
        """The messages waiting for `recipient`, oldest first; they stay stored until
        `delete_messages`, so a crash before delivery loses nothing."""
        rows = self._read(
            "SELECT m.id, a.name, m.sender, m.sent_at, m.text"
            " FROM messages m JOIN accounts a ON a.id = m.recipient_id"
            " WHERE a.name = ? ORDER BY m.id",
            (recipient,),
        )
        return [StoredMessage(*row) for row in rows]

    def delete_messages(self, ids: Iterable[int]) -> None:
        """Forget delivered messages; ids that are already gone are ignored."""
        with self._write() as db:
            db.executemany("DELETE FROM messages WHERE id = ?", ((i,) for i in ids))

    # --- saved matches ------------------------------------------------------------------

    def save_match(
        self, name: str, other: str, data: dict[str, object], at: float, *, finished_from: int = 0,
    ) -> None:
        """Store (or replace) the saved match between `name` and `other`, whole (its
        patches are dropped: `data` includes them).

        The finished games (`data["match"]["finished_games"]`, if there) are stored apart,
        each once: with `finished_from` N, the list holds only the games from number N on
        and the N before it are the ones already stored, so that a save at the start of
        each game costs the same in the 500th game as in the first. Reading the saved
        match puts them back in place."""
        low, high = _pair_key(name, other)
        games: list[object] = []
        match = data.get("match")
        if isinstance(match, dict) and isinstance(match.get("finished_games"), list):
            games = match["finished_games"]
            data = {**data, "match": {**match, "finished_games": []}}
        text = json.dumps(data, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "DELETE FROM saved_match_games WHERE player_low = ? AND player_high = ? AND number >= ?",
                (low, high, finished_from),
            )
            db.executemany(
                "INSERT INTO saved_match_games (player_low, player_high, number, data) VALUES (?,?,?,?)",
                ((low, high, finished_from + i, json.dumps(game, separators=(",", ":")))
                 for i, game in enumerate(games)),
            )
            db.execute(
                "INSERT INTO saved_matches (player_low, player_high, data, saved_at)"
                " VALUES (?,?,?,?) ON CONFLICT (player_low, player_high)"
                " DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at",
                (low, high, text, at),
            )
            db.execute(
                "DELETE FROM saved_match_patches WHERE player_low = ? AND player_high = ?",
                (low, high),
            )

    def patch_saved_match(self, name: str, other: str, patch: Sequence[PatchStep], at: float) -> None:
        """Record a change to the saved match between `name` and `other`: each step
        updates the object at a path of keys or extends the list there (`apply_patch`).
        Constant in size however long the match: it holds only what changed."""
        low, high = _pair_key(name, other)
        text = json.dumps(patch, separators=(",", ":"))
        with self._write() as db:
            # Inserted only if the match is saved: the saved match's row is read, not
            # rewritten (migration 10).
            cursor = db.execute(
                "INSERT INTO saved_match_patches (player_low, player_high, patch, saved_at)"
                " SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM saved_matches"
                " WHERE player_low = ? AND player_high = ?)",
                (low, high, text, at, low, high),
            )
            if cursor.rowcount != 1:
                raise ValueError(f"no saved match between {name} and {other} to change")

    def saved_match(self, name: str, other: str) -> dict[str, object] | None:
        """The saved match between the two players, or None (also for unreadable data)."""
        low, high = _pair_key(name, other)
        rows = self._read(
            "SELECT data FROM saved_matches WHERE player_low = ? AND player_high = ?", (low, high)
        )
        if not rows:
            return None
        return self._with_patches(low, high, _json_object(rows[0]["data"])) or None

    def delete_saved_match(self, name: str, other: str) -> None:
        low, high = _pair_key(name, other)
        with self._write() as db:
            db.execute(
                "DELETE FROM saved_matches WHERE player_low = ? AND player_high = ?", (low, high)
            )
            db.execute(
                "DELETE FROM saved_match_games WHERE player_low = ? AND player_high = ?", (low, high)
            )
            db.execute(
                "DELETE FROM saved_match_patches WHERE player_low = ? AND player_high = ?",
                (low, high),
            )

    # --- chouettes ----------------------------------------------------------------------

    def save_chouette(self, table_id: int, owner: str, state: dict[str, object], at: float,
                      *, closed: bool = False) -> None:
        """Store (or replace) chouette `table_id`'s whole state."""
        text = json.dumps(state, separators=(",", ":"))
        with self._write() as db:
            db.execute(
                "INSERT INTO chouettes (id, owner, state, closed, saved_at) VALUES (?,?,?,?,?)"
                " ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, state = excluded.state,"
                " closed = excluded.closed, saved_at = excluded.saved_at",
                (table_id, owner, text, int(closed), at),
            )

    def open_chouettes(self) -> list[dict[str, object]]:
        """The saved state of every chouette not closed, by number (unreadable ones are
        left out)."""
        rows = self._read("SELECT state FROM chouettes WHERE closed = 0 ORDER BY id", ())
        return [state for state in (_json_object(row["state"]) for row in rows) if state]

    def chouette(self, table_id: int) -> dict[str, object] | None:
        """One chouette's saved state, closed or not."""
        rows = self._read("SELECT state FROM chouettes WHERE id = ?", (table_id,))
        return (_json_object(rows[0]["state"]) or None) if rows else None

    def chouettes_naming(self, name: str) -> list[tuple[int, bool, dict[str, object]]]:
        """(number, closed, saved state) of every chouette whose saved state names `name`
        (any case), by number: a text match on the JSON string, so the caller checks
        where the name stands (seated, in the ledger) before showing anything."""
        needle = json.dumps(name).lower()  # '"alice"', escaped as the states are
        rows = self._read(
            "SELECT id, closed, state FROM chouettes WHERE instr(lower(state), ?) > 0 ORDER BY id",
            (needle,),
        )
        found = []
        for row in rows:
            state = _json_object(row["state"])
            if state:
                found.append((int(row["id"]), bool(row["closed"]), state))
        return found

    def last_chouette_id(self) -> int:
        rows = self._read("SELECT COALESCE(MAX(id), 0) AS top FROM chouettes", ())
        return int(rows[0]["top"])

    def saved_matches_of(self, name: str) -> list[tuple[str, dict[str, object]]]:
        """(opponent's name key, data) of every saved match `name` takes part in."""
        key = name.lower()
        rows = self._read(
            "SELECT player_low, player_high, data FROM saved_matches AS s"
            " WHERE player_low = ? OR player_high = ? ORDER BY COALESCE("
            "(SELECT p.saved_at FROM saved_match_patches AS p WHERE p.player_low = s.player_low"
            " AND p.player_high = s.player_high ORDER BY p.id DESC LIMIT 1), s.saved_at)",
            (key, key),
        )
        return [
            (row["player_high"] if row["player_low"] == key else row["player_low"],
             self._with_patches(row["player_low"], row["player_high"], _json_object(row["data"])))
            for row in rows
        ]

    def _with_patches(self, low: str, high: str, data: dict[str, object]) -> dict[str, object]:
        """The whole copy `data` with its finished games put back, then its patches."""
        games = self._read(
            "SELECT data FROM saved_match_games WHERE player_low = ? AND player_high = ?"
            " ORDER BY number",
            (low, high),
        )
        if games:
            match = data.get("match")
            if not isinstance(match, dict) or not isinstance(match.get("finished_games"), list):
                return {}  # games stored apart belong in a match's list: damaged
            match["finished_games"] = [*(json.loads(row["data"]) for row in games),
                                       *match["finished_games"]]
        rows = self._read(
            "SELECT patch FROM saved_match_patches WHERE player_low = ? AND player_high = ?"
            " ORDER BY id",
            (low, high),
        )
        for row in rows:
            try:
                apply_patch(data, json.loads(row["patch"]))
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                return {}  # damaged: unreadable, like a damaged whole copy
        return data

    # --- match records -----------------------------------------------------------------

    def record_match(
        self,
        *,
        players: tuple[str, str],
        match_data: dict[str, object],
        length: int | None,
        score: tuple[int, int],
        winner: int | None,
        started_at: float | None,
        finished_at: float,
        ratings: Iterable[tuple[str, float, int]] = (),
        saved_games_before: int = 0,
    ) -> int:
        """Keep a finished match (`match_data` is `Match.to_dict()`); its record id.

        With `saved_games_before` N, `match_data` lacks the first N finished games (the
        server drops them from memory once saved): they are taken from the saved match
        between the two players (`save_match`), which must still hold them.

        `ratings` are (name, rating, experience) updates applied in the same transaction,
        so the record and both players' new ratings are stored together or not at all
        (`NoSuchAccount` if a name is unknown, and then nothing is stored).
        """
        if winner not in (0, 1, None):
            raise ValueError(f"winner must be 0, 1 or None, not {winner!r}")
        with self._write() as db:
            if saved_games_before > 0:
                low, high = _pair_key(*players)
                rows = db.execute(
                    "SELECT data FROM saved_match_games WHERE player_low = ? AND player_high = ?"
                    " AND number < ? ORDER BY number",
                    (low, high, saved_games_before),
                ).fetchall()
                if len(rows) != saved_games_before:
                    raise ValueError(f"the saved match holds {len(rows)} of {saved_games_before} games")
                later = match_data.get("finished_games")
                if not isinstance(later, list):
                    raise ValueError("match data without a list of finished games")
                match_data = {**match_data,
                              "finished_games": [*(json.loads(row[0]) for row in rows), *later]}
            text = json.dumps(match_data, separators=(",", ":"))
            for name, rating, experience in ratings:
                cursor = db.execute(
                    "UPDATE accounts SET rating=?, experience=? WHERE name = ?",
                    (rating, experience, name),
                )
                if cursor.rowcount != 1:
                    raise NoSuchAccount(name)
            cursor = db.execute(
                f"INSERT INTO match_records ({_RECORD_COLUMNS})"
                " VALUES (NULL,?,?,?,?,?,?,?,?,?)",
                (players[0], players[1], length, score[0], score[1], winner, text,
                 started_at, finished_at),
            )
            record_id = cursor.lastrowid
            assert record_id is not None
            return record_id

    def match_record(self, record_id: int) -> MatchRecord | None:
        """The match record with this id, or None."""
        rows = self._read(
            f"SELECT {_RECORD_COLUMNS} FROM match_records WHERE id = ?", (record_id,)
        )
        return _record_from_row(rows[0]) if rows else None

    def match_records_of(self, name: str, limit: int = 20) -> list[MatchRecord]:
        """The last `limit` finished matches `name` (any case) played, newest first."""
        # A UNION of the two indexed lookups rather than `OR`, which would scan the table.
        rows = self._read(
            f"SELECT {_RECORD_COLUMNS} FROM match_records WHERE player0 = ? COLLATE NOCASE"
            f" UNION SELECT {_RECORD_COLUMNS} FROM match_records"
            " WHERE player1 = ? COLLATE NOCASE ORDER BY id DESC LIMIT ?",
            (name, name, max(limit, 0)),
        )
        return [_record_from_row(row) for row in rows]

    # --- sanctions and invitation codes ------------------------------------------------

    def impose(self, kind: str, target: str, *, until: float | None, reason: str, by: str,
               at: float) -> None:
        """Ban or mute `target` (replacing an earlier sanction of the same kind)."""
        with self._write() as db:
            db.execute(
                "INSERT INTO sanctions (kind, target, until, reason, imposed_by, imposed_at)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT (kind, target) DO UPDATE SET"
                " until = excluded.until, reason = excluded.reason,"
                " imposed_by = excluded.imposed_by, imposed_at = excluded.imposed_at",
                (kind, target.lower(), until, reason, by, at),
            )

    def lift(self, kind: str, target: str) -> bool:
        """Lift a sanction; False if there was none."""
        with self._write() as db:
            cursor = db.execute(
                "DELETE FROM sanctions WHERE kind = ? AND target = ?", (kind, target.lower())
            )
            return cursor.rowcount > 0

    def sanction_until(self, kind: str, target: str, now: float) -> float | None:
        """None if `target` is free; else the end of the sanction (`inf` if open-ended)."""
        rows = self._read(
            "SELECT until FROM sanctions WHERE kind = ? AND target = ?"
            " AND (until IS NULL OR until > ?)",
            (kind, target.lower(), now),
        )
        if not rows:
            return None
        until = rows[0]["until"]
        return float("inf") if until is None else float(until)

    def add_invitation_codes(self, codes: Iterable[str], *, by: str, at: float) -> None:
        with self._write() as db:
            db.executemany(
                "INSERT INTO invitation_codes (code, created_by, created_at) VALUES (?,?,?)",
                ((code, by, at) for code in codes),
            )

    def use_invitation_code(self, code: str, *, name: str, at: float) -> bool:
        """Spend an unused code for `name`'s registration; False if unknown or used."""
        with self._write() as db:
            cursor = db.execute(
                "UPDATE invitation_codes SET used_by = ?, used_at = ?"
                " WHERE code = ? AND used_by IS NULL",
                (name, at, code),
            )
            return cursor.rowcount == 1

    def invitation_code_usable(self, code: str) -> bool:
        rows = self._read(
            "SELECT 1 FROM invitation_codes WHERE code = ? AND used_by IS NULL", (code,)
        )
        return bool(rows)

    def record_drop(self, name: str) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO drop_counts (name, drops) VALUES (?, 1)"
                " ON CONFLICT (name) DO UPDATE SET drops = drops + 1",
                (name,),
            )

    def drop_count(self, name: str) -> int:
        rows = self._read("SELECT drops FROM drop_counts WHERE name = ?", (name,))
        return int(rows[0]["drops"]) if rows else 0

    # --- engine analysis (issue 23) ------------------------------------------------------

    def queue_analysis(self, record_id: int, requesters: Sequence[str], at: float) -> None:
        """Keep a job (or replace its requesters); it stays until `save_analysis` or
        `drop_analysis_job`, so a restart finds it."""
        with self._write() as db:
            db.execute(
                "INSERT INTO analysis_jobs (record_id, requesters, queued_at) VALUES (?, ?, ?)"
                " ON CONFLICT (record_id) DO UPDATE SET requesters = excluded.requesters",
                (record_id, json.dumps(list(requesters)), at),
            )

    def analysis_jobs(self) -> list[tuple[int, list[str]]]:
        """The jobs waiting, oldest first: (record id, requesters)."""
        rows = self._read(
            "SELECT record_id, requesters FROM analysis_jobs ORDER BY queued_at, record_id")
        return [(int(row["record_id"]), [str(n) for n in json.loads(row["requesters"])])
                for row in rows]

    def drop_analysis_job(self, record_id: int) -> None:
        with self._write() as db:
            db.execute("DELETE FROM analysis_jobs WHERE record_id = ?", (record_id,))

    def save_analysis(self, analysis: MatchAnalysis, sgf: str) -> None:
        """Keep a finished analysis and each player's PR; its job is done."""
        data = json.dumps(analysis.to_dict(), separators=(",", ":"))
        with self._write() as db:
            db.execute("DELETE FROM analysis_jobs WHERE record_id = ?", (analysis.record_id,))
            db.execute(
                "INSERT OR REPLACE INTO analyses (record_id, data, sgf, analysed_at)"
                " VALUES (?, ?, ?, ?)",
                (analysis.record_id, data, zlib.compress(sgf.encode("utf-8")),
                 analysis.analysed_at),
            )
            db.execute("DELETE FROM analysis_prs WHERE record_id = ?", (analysis.record_id,))
            for player in analysis.players:
                if player.pr is not None:
                    db.execute(
                        "INSERT OR REPLACE INTO analysis_prs (record_id, name, pr)"
                        " VALUES (?, ?, ?)", (analysis.record_id, player.name, player.pr))

    def analysis(self, record_id: int) -> MatchAnalysis | None:
        rows = self._read("SELECT data FROM analyses WHERE record_id = ?", (record_id,))
        return MatchAnalysis.from_dict(json.loads(rows[0]["data"])) if rows else None

    def analysis_sgf(self, record_id: int) -> str | None:
        rows = self._read("SELECT sgf FROM analyses WHERE record_id = ?", (record_id,))
        return zlib.decompress(rows[0]["sgf"]).decode("utf-8") if rows else None

    def average_pr(self, name: str) -> tuple[float, int] | None:
        """A player's mean PR over his analysed matches, and how many; None if none."""
        rows = self._read(
            "SELECT AVG(pr) AS average, COUNT(*) AS matches FROM analysis_prs WHERE name = ?",
            (name,))
        if not rows or not rows[0]["matches"]:
            return None
        return float(rows[0]["average"]), int(rows[0]["matches"])

    # --- lifetime ---------------------------------------------------------------------

    def close(self) -> None:
        """Close the database (checkpointing the WAL into the main file)."""
        if self._read_db is not self._db:
            with self._read_lock:
                self._read_db.close()
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _pair_key(name: str, other: str) -> tuple[str, str]:
    first, second = name.lower(), other.lower()
    return (first, second) if first <= second else (second, first)


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
