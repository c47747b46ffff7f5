"""fibsd.store: round trips, case-insensitive names, messages, migrations, durability."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from fibsd.domain.accounts import Account, Toggles, Variables
from fibsd.store import (
    NameTaken,
    NoSuchAccount,
    StoredMessage,
    StoreError,
)
from fibsd.store import sqlite as store_module
from fibsd.store.families.tournaments import Tournaments
from fibsd.store.sqlite import SCHEMA_VERSION
from fibsd.store.sqlite import SQLiteStore as Store
from protocol.vocabulary import SortWho
from tests.conftest import StoreBackend

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(backend: StoreBackend) -> Iterator[Store]:
    """A store on each backend in turn (tests/conftest.py)."""
    with backend.open() as opened:
        yield opened


def alice(**changes: Any) -> Account:
    return attrs.evolve(Account.new("Alice", "$argon2id$fake", created_at=1000.0), **changes)


def test_create_and_get_round_trip(store: Store) -> None:
    account = alice(
        last_login_at=1200.5,
        last_login_host="example.org",
        last_logout_at=1300.0,
        rating=1623.41,
        experience=212,
        email="alice@example.org",
        toggles=Toggles(ready=True, moreboards=True, telnet=False),
        variables=Variables(3, 80, 24, "unlimited", SortWho.RATING, "Europe/Sofia"),
    )
    store.create_account(account)
    assert store.get_account("Alice") == account


def test_lookup_is_case_insensitive_and_keeps_the_spelling(store: Store) -> None:
    store.create_account(alice())
    found = store.get_account("aLiCe")
    assert found is not None and found.name == "Alice"
    assert store.account_exists("ALICE") and not store.account_exists("bob")
    assert store.get_account("bob") is None


def test_names_are_unique_case_insensitively(store: Store) -> None:
    store.create_account(alice())
    with pytest.raises(NameTaken) as caught:
        store.create_account(alice(name="ALICE", password_hash="other"))
    assert caught.value.name == "ALICE"
    stored = store.get_account("alice")
    assert stored is not None and stored.password_hash == "$argon2id$fake"  # unchanged


def test_fine_updates(store: Store) -> None:
    store.create_account(alice())
    store.update_toggles("alice", Toggles(bell=True))
    store.update_variables("ALICE", Variables(boardstyle=3))
    store.set_email("alice", "a@b.c")
    store.set_password_hash("alice", "$pbkdf2-sha256$new")
    store.record_login("alice", 2000.0, "host.example")
    store.record_logout("alice", 2100.0)
    store.update_rating("alice", 1510.25, 5)
    assert store.get_account("alice") == alice(
        toggles=Toggles(bell=True),
        variables=Variables(boardstyle=3),
        email="a@b.c",
        password_hash="$pbkdf2-sha256$new",
        last_login_at=2000.0,
        last_login_host="host.example",
        last_logout_at=2100.0,
        rating=1510.25,
        experience=5,
    )
    store.set_email("alice", None)
    account = store.get_account("alice")
    assert account is not None and account.email is None


def test_save_account_overwrites_all_fields_but_keeps_the_spelling(store: Store) -> None:
    store.create_account(alice())
    changed = alice(name="ALICE", rating=1400.0, experience=9, toggles=Toggles(wrap=True))
    store.save_account(changed)
    assert store.get_account("alice") == attrs.evolve(changed, name="Alice")


def test_update_ratings_is_all_or_nothing(store: Store) -> None:
    store.create_account(alice())
    store.create_account(alice(name="Bob"))
    store.update_ratings([("alice", 1502.0, 1), ("bob", 1498.0, 1)])
    with pytest.raises(NoSuchAccount):
        store.update_ratings([("alice", 9999.0, 2), ("carol", 1.0, 1)])
    a, b = store.get_account("alice"), store.get_account("bob")
    assert a is not None and (a.rating, a.experience) == (1502.0, 1)
    assert b is not None and (b.rating, b.experience) == (1498.0, 1)


@pytest.mark.parametrize(
    "update",
    [
        lambda s: s.update_toggles("nobody", Toggles()),
        lambda s: s.update_variables("nobody", Variables()),
        lambda s: s.set_email("nobody", "a@b"),
        lambda s: s.set_password_hash("nobody", "x"),
        lambda s: s.record_login("nobody", 1.0, "h"),
        lambda s: s.record_logout("nobody", 1.0),
        lambda s: s.update_rating("nobody", 1.0, 1),
        lambda s: s.save_account(alice(name="nobody")),
        lambda s: s.add_message("nobody", "alice", 1.0, "hi"),
        lambda s: s.delete_account("nobody"),
    ],
)
def test_updates_of_a_missing_account_raise(
    store: Store, update: Callable[[Store], object]
) -> None:
    with pytest.raises(NoSuchAccount):
        update(store)


def test_damaged_settings_columns_read_as_defaults(store: Store) -> None:
    store.create_account(alice(toggles=Toggles(bell=True)))
    with store._write() as db:  # simulate on-disk damage
        db.execute("UPDATE accounts SET toggles = 'not json', variables = '[1]'")
    account = store.get_account("alice")
    assert account is not None
    assert (account.toggles, account.variables) == (Toggles(), Variables())


# --- offline messages ---


def test_messages_in_order_and_deleted_only_on_request(store: Store) -> None:
    store.create_account(alice())
    store.create_account(alice(name="Bob"))
    first = store.add_message("alice", "Bob", 10.0, "hello  there")
    store.add_message("bob", "Alice", 11.0, "for bob")
    second = store.add_message("ALICE", "Carol", 12.0, "second: with colon")
    pending = store.pending_messages("alice")
    assert pending == [
        StoredMessage(first, "Alice", "Bob", 10.0, "hello  there"),
        StoredMessage(second, "Alice", "Carol", 12.0, "second: with colon"),
    ]
    # Reading does not consume: a crash before delivery re-delivers.
    assert store.pending_messages("alice") == pending
    store.delete_messages([first])
    assert [m.id for m in store.pending_messages("alice")] == [second]
    store.delete_messages([second, second, 12345])  # already-gone ids are ignored
    assert store.pending_messages("alice") == []
    assert [m.text for m in store.pending_messages("bob")] == ["for bob"]


def test_message_ids_are_never_reused(store: Store) -> None:
    store.create_account(alice())
    old = store.add_message("alice", "x", 1.0, "a")
    store.delete_messages([old])
    assert store.add_message("alice", "x", 2.0, "b") > old


def test_deleting_an_account_deletes_its_messages(store: Store) -> None:
    store.create_account(alice())
    store.add_message("alice", "x", 1.0, "a")
    store.delete_account("ALICE")
    assert store.get_account("alice") is None
    store.create_account(alice())
    assert store.pending_messages("alice") == []


# --- migrations and files ---


def test_migrates_an_empty_file_and_reopens_idempotently(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "fibsd.db"  # directories are created
    with Store(path) as first:
        assert first.schema_version() == SCHEMA_VERSION
        first.create_account(alice())
    with Store.open(path) as again:
        assert again.schema_version() == SCHEMA_VERSION
        assert again.get_account("alice") == alice()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"accounts", "messages"} <= tables


def test_adding_a_migration_is_one_more_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fibsd.db"
    Store(path).close()
    extra = "CREATE TABLE future_things (id INTEGER PRIMARY KEY, data TEXT NOT NULL);"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, extra))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with Store(path) as upgraded:
        assert upgraded.schema_version() == SCHEMA_VERSION + 1
        with upgraded._write() as db:
            db.execute("INSERT INTO future_things (data) VALUES ('x')")


def test_a_failing_migration_leaves_the_file_at_the_old_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fibsd.db"
    Store(path).close()
    broken = "CREATE TABLE half (id INTEGER); THIS IS NOT SQL;"
    monkeypatch.setattr(store_module, "MIGRATIONS", (*store_module.MIGRATIONS, broken))
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StoreError):
        Store(path)
    monkeypatch.undo()
    with Store(path) as reopened:
        assert reopened.schema_version() == SCHEMA_VERSION
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name='half'").fetchone() is None


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fibsd.db"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    with pytest.raises(StoreError, match="newer than this fibsd"):
        Store(path)


def test_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fibsd.db"
    path.write_bytes(b"this is not an SQLite file" * 200)
    with pytest.raises(StoreError, match="not a database") as caught:
        Store(path)
    assert "\n" not in str(caught.value)


def test_a_damaged_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fibsd.db"
    with Store(path) as store:
        for i in range(200):  # enough rows for the accounts table to span several pages
            store.create_account(alice(name=f"user_{chr(97 + i // 26)}{chr(97 + i % 26)}"))
    # Scribble over the middle of the accounts table's pages (not the header).
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    assert len(data) >= 3 * page_size
    for offset in range(page_size + 8, 3 * page_size, 7):
        data[offset] = 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError):
        Store(path)


def test_threads_can_share_one_store(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.create_account(alice())

        def send(sender: str) -> None:
            for i in range(20):
                store.add_message("alice", sender, float(i), f"{sender} {i}")

        threads = [threading.Thread(target=send, args=(name,)) for name in "abcd"]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        messages = store.pending_messages("alice")
    assert len(messages) == 80
    assert [m.id for m in messages] == sorted(m.id for m in messages)
    for sender in "abcd":
        assert [m.text for m in messages if m.sender == sender] == [
            f"{sender} {i}" for i in range(20)
        ]


WRITER = textwrap.dedent(
    """
    import sys, time
    from fibsd.domain.accounts import Account
    from fibsd.store.backends import open_store
    store = open_store(sys.argv[1])
    store.create_account(Account.new("Alice", "h", created_at=1.0))
    store.create_account(Account.new("Bob", "h", created_at=1.0))
    store.add_message("alice", "Bob", 2.0, "acknowledged")
    store.update_rating("bob", 1502.5, 1)
    print("ACK", flush=True)
    time.sleep(60)
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_acknowledged_writes_survive_kill_9(backend: StoreBackend) -> None:
    path = backend.location
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ACK\n"
        os.kill(writer.pid, signal.SIGKILL)  # no close(), no checkpoint: only the WAL
    finally:
        writer.kill()
        writer.wait(timeout=30)
        if writer.stdout is not None:
            writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL
    with backend.open() as store:
        assert [m.text for m in store.pending_messages("ALICE")] == ["acknowledged"]
        bob = store.get_account("bob")
        assert bob is not None and (bob.rating, bob.experience) == (1502.5, 1)
    if not backend.is_postgresql:
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_unopenable_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot open"):
        Store(blocker / "fibsd.db")  # its "directory" is a file


def test_these_modules_import_neither_trio_nor_the_wire_codec() -> None:
    # The server wraps them in threads; they must stay usable without trio (architecture).
    # Of the protocol they may know only FIBS's vocabulary (toggles, variables, name rules:
    # `protocol.vocabulary` and the wording and errors it is made of), never the codec.
    allowed = "{'protocol', 'protocol.vocabulary', 'protocol.wording', 'protocol.errors'}"
    code = (
        "import sys, fibsd.infra.config, fibsd.infra.passwords, fibsd.domain.accounts, fibsd.store.sqlite\n"
        "bad = [m for m in sys.modules if m == 'trio'\n"
        f"       or m.split('.')[0] == 'protocol' and m not in {allowed}]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr


def test_a_batch_undoes_a_failing_write_alone_even_a_database_error(store: Store) -> None:
    # Group commit: one transaction, each write a savepoint. A write the database itself
    # refuses (a duplicate key) leaves the transaction usable for the others on both
    # backends (PostgreSQL runs the batch first without savepoints, then again with them).
    store.create_account(alice())
    errors = store.run_batch([
        lambda s: s.add_invitation_codes(["first"], by="admin", at=1.0),
        lambda s: s.add_invitation_codes(["first"], by="admin", at=2.0),  # duplicate
        lambda s: s.add_message("alice", "bob", 3.0, "kept"),
    ])
    assert errors[0] is None and errors[2] is None
    assert errors[1] is not None
    assert store.invitation_code_usable("first")
    assert [m.text for m in store.pending_messages("alice")] == ["kept"]


def test_tournaments_are_saved_whole_by_id_and_a_name_reused_keeps_the_old_record(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.save_tournament(1, "Club", {"name": "Club", "phase": "open", "entrants": [["alice", 1500.0]]})
        store.save_tournament(2, "cup", {"name": "cup", "phase": "running"})
        store.save_tournament(1, "Club", {"name": "Club", "phase": "finished", "winner": "alice"})
        store.save_tournament(3, "CLUB", {"name": "CLUB", "phase": "open"})  # the name again
    # What the reader gives is what the store held when it opened (the core loads once).
    with backend.open() as store:
        saved = store.saved_tournaments()
    assert saved == [{"name": "Club", "phase": "finished", "winner": "alice", "id": 1},
                     {"name": "cup", "phase": "running", "id": 2},
                     {"name": "CLUB", "phase": "open", "id": 3}]


def _tournaments_by_id_migration(migrations: tuple[str, ...]) -> int:
    """The schema version that gave tournaments their ids (issue 35)."""
    return next(number for number, step in enumerate(migrations, start=1)
                if isinstance(step, str) and "tournaments_by_name" in step)


def test_tournaments_saved_before_ids_keep_their_state_and_are_numbered_in_order(
    backend: StoreBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fibsd.store.postgresql as postgresql_module

    module: Any = postgresql_module if backend.is_postgresql else store_module
    version = _tournaments_by_id_migration(module.MIGRATIONS)
    monkeypatch.setattr(module, "MIGRATIONS", module.MIGRATIONS[:version - 1])
    monkeypatch.setattr(module, "SCHEMA_VERSION", version - 1)
    # (a store at that version could not read tournaments as this one does: not asked)
    monkeypatch.setattr(Tournaments, "saved_tournaments", lambda self: [])
    older = {"name": "older", "phase": "finished", "created_at": 100.0, "winner": "bob"}
    newer = {"name": "Newer", "phase": "running", "created_at": 200.0}
    with backend.open() as store:  # the schema as it was: tournaments keyed by name
        with store._write() as db:
            for state in (older, newer):
                db.execute("INSERT INTO tournaments (name, state) VALUES (?, ?)",
                           (state["name"], json.dumps(state)))
    monkeypatch.undo()
    with backend.open() as store:
        assert store.saved_tournaments() == [{**older, "id": 1}, {**newer, "id": 2}]
        store.save_tournament(3, "OLDER", {"name": "OLDER", "phase": "open", "created_at": 300.0})
    with backend.open() as store:
        assert [(s["id"], s["name"], s["phase"]) for s in store.saved_tournaments()] == [
            (1, "older", "finished"), (2, "Newer", "running"), (3, "OLDER", "open")]


def test_the_bot_mark_is_kept_with_the_account(store: Store) -> None:
    store.create_account(Account.new("gnubg", "hash", 0.0))
    account = store.get_account("gnubg")
    assert account is not None and not account.bot
    store.set_bot("GNUBG", True)
    account = store.get_account("gnubg")
    assert account is not None and account.bot
    store.set_bot("gnubg", False)
    account = store.get_account("gnubg")
    assert account is not None and not account.bot
