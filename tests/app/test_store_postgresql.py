"""The PostgreSQL backend's own guarantees, against a real server (issue 27): migrations
from the one list of schema versions, a bounded pool, waiting for a database that
restarts without losing acknowledged work, and `fibsd migrate-store`.

The store's API itself is tested on both backends by the `backend` fixture
(tests/conftest.py) in test_store.py, test_store_saved_matches.py and test_match_records.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import fibsd.store.postgresql as postgresql_module
from fibsd.__main__ import main
from fibsd.domain.accounts import Account
from fibsd.store import StoreError
from fibsd.store.migrations import postgresql as postgresql_migrations
from fibsd.store.migrations import sqlite as sqlite_migrations
from fibsd.store.postgresql import SCHEMA_VERSION, PostgreSQLStore
from fibsd.store.sqlite import SQLiteStore
from fibsd.tools import pgcluster
from tests.app.test_store_families import _analysis
from tests.conftest import new_database


@pytest.fixture
def url(postgresql_cluster: pgcluster.Cluster) -> str:
    return new_database(postgresql_cluster)


@pytest.fixture
def own_cluster() -> Iterator[pgcluster.Cluster]:
    """A cluster of the test's own, to stop and restart."""
    cluster = pgcluster.Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def test_every_backend_has_one_migration_per_schema_version() -> None:
    assert len(postgresql_migrations.MIGRATIONS) == len(sqlite_migrations.MIGRATIONS) == SCHEMA_VERSION


def test_migrates_an_empty_database_and_reopens_idempotently(url: str) -> None:
    with PostgreSQLStore(url) as store:
        assert store.schema_version() == SCHEMA_VERSION
        store.create_account(Account.new("Alice", "h", 1.0))
    with PostgreSQLStore(url) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.account_exists("ALICE")


def test_a_newer_schema_is_refused(url: str) -> None:
    PostgreSQLStore(url).close()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("UPDATE fibsd_schema SET version = %s", (SCHEMA_VERSION + 5,))
    with pytest.raises(StoreError, match="newer than this fibsd"):
        PostgreSQLStore(url)


def test_a_failing_migration_leaves_the_database_as_it_was(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    PostgreSQLStore(url).close()
    good = "CREATE TABLE extra_one (id INTEGER)"
    broken = "CREATE TABLE extra_two (id INTEGER); SELECT no_such_function()"
    monkeypatch.setattr(postgresql_module, "MIGRATIONS", (*postgresql_module.MIGRATIONS, good, broken))
    monkeypatch.setattr(postgresql_module, "SCHEMA_VERSION", SCHEMA_VERSION + 2)
    with pytest.raises(StoreError):
        PostgreSQLStore(url)
    monkeypatch.undo()
    with PostgreSQLStore(url) as store:
        assert store.schema_version() == SCHEMA_VERSION
    with psycopg.connect(url) as connection:
        tables = {row[0] for row in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'extra_%'")}
    assert tables == set()


def test_the_pool_is_bounded(url: str) -> None:
    with PostgreSQLStore(url, pool_size=2) as store:
        store.create_account(Account.new("Alice", "h", 1.0))
        errors: list[BaseException] = []

        def read() -> None:
            try:
                for _ in range(20):
                    assert store.get_account("alice") is not None
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=read) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        with psycopg.connect(url) as connection:
            ours = connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()").fetchone()
        assert ours is not None and ours[0] <= 2


def test_waits_for_a_restarted_database_and_loses_no_acknowledged_write(
    own_cluster: pgcluster.Cluster,
) -> None:
    url = own_cluster.create_database("club")
    with PostgreSQLStore(url) as store:
        store.create_account(Account.new("Alice", "h", 1.0))
        errors = store.run_batch([lambda s: s.add_message("alice", "bob", 2.0, "before")])
        assert errors == [None]  # acknowledged
        own_cluster.halt()  # the database goes away (fast shutdown) ...
        done = threading.Event()
        results: list[object] = []

        def commit() -> None:
            results.append(store.run_batch([lambda s: s.add_message("alice", "bob", 3.0, "during")]))
            done.set()

        committer = threading.Thread(target=commit)
        committer.start()  # ... a commit waits for it instead of failing ...
        assert not done.is_set()
        own_cluster.launch()  # ... and goes through once it is back
        committer.join(timeout=120)
        assert results == [[None]]
        assert [m.text for m in store.pending_messages("alice")] == ["before", "during"]
        # The connections the restart broke were replaced: reads and single writes work.
        store.record_login("alice", 4.0, "host")
        account = store.get_account("alice")
        assert account is not None and account.last_login_at == 4.0


def test_a_database_that_stays_down_is_a_store_error_when_bounded(
    own_cluster: pgcluster.Cluster,
) -> None:
    url = own_cluster.create_database("club")
    store = PostgreSQLStore(url, wait_for_database=0.5)
    try:
        own_cluster.halt()
        with pytest.raises(StoreError, match="unavailable"):
            store.get_account("alice")
    finally:
        store.close()


def _club(path: Path) -> None:
    """An SQLite club with something in every family."""
    with SQLiteStore(path) as store:
        for name in ("Alice", "bob", "carol"):
            store.create_account(Account.new(name, "$hash$" + name, 10.0))
        store.update_rating("alice", 1612.5, 77)
        store.add_message("carol", "Alice", 11.0, "see you, 100% sure")
        store.save_match("alice", "bob", {"match": {"finished_games": [{"g": 1}], "game": {"h": []}}}, 12.0)
        store.patch_saved_match("bob", "alice", [("extend", ("match", "game", "h"), [1, 2])], 13.0)
        store.record_match(players=("Alice", "bob"), match_data={"finished_games": []}, length=3,
                           score=(3, 1), winner=0, started_at=1.0, finished_at=14.0)
        store.impose("mute", "Carol", until=None, reason="spam", by="admin", at=15.0)
        store.add_invitation_codes(["code-1", "code-2"], by="admin", at=16.0)
        store.record_drop("bob")
        store.save_chouette(1, "Alice", {"seats": ["Alice", "bob"]}, 17.0)
        store.save_chouette(2, "carol", {"seats": ["carol"]}, 18.0, closed=True)
        store.queue_analysis(1, ["alice"], 19.0)
        store.save_analysis(_analysis(2, 0.5), "(;FF[4] binary-safe: \x00\xff)")  # a BLOB column


def _everything(store: SQLiteStore | PostgreSQLStore) -> list[object]:
    """What the API reads back of `_club`."""
    return [
        [store.get_account(name) for name in ("alice", "BOB", "carol")],
        store.pending_messages("carol"),
        store.saved_matches_of("alice"),
        store.match_records_of("alice"),
        store.sanction_until("mute", "carol", 20.0),
        [store.invitation_code_usable(code) for code in ("code-1", "code-2", "code-3")],
        store.drop_count("BOB"),
        store.open_chouettes(), store.chouette(2), store.last_chouette_id(),
        store.ratings_page(1, 10), store.rating_rank("alice"),
        store.analysis_jobs(), store.analysis(2), store.analysis_sgf(2), store.average_pr("alice"),
    ]


def test_migrate_store_copies_a_whole_club_and_checks_it(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "club.db"
    _club(path)
    assert main(["migrate-store", "--from", f"sqlite:{path}", "--to", url]) == 0
    out = capsys.readouterr().out
    assert "counts equal" in out and "sampled rows equal" in out
    with SQLiteStore(path) as source, PostgreSQLStore(url) as target:
        assert _everything(target) == _everything(source)
        # New rows continue after the copied ids.
        old = source.pending_messages("carol")[0].id
        assert target.add_message("carol", "bob", 30.0, "new") > old
        assert target.record_match(players=("a", "b"), match_data={}, length=1, score=(1, 0),
                                   winner=0, started_at=None, finished_at=31.0) == 2
    # The target is no longer empty: a second copy is refused, and nothing changes.
    assert main(["migrate-store", "--from", f"sqlite:{path}", "--to", url]) == 1
    assert "not empty" in capsys.readouterr().err


def test_migrate_store_needs_an_existing_sqlite_source(tmp_path: Path, url: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate-store", "--from", f"sqlite:{tmp_path / 'none.db'}", "--to", url]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    assert main(["migrate-store", "--from", url, "--to", f"sqlite:{tmp_path / 'x.db'}"]) == 2


def test_a_server_on_sqlite_never_imports_the_postgresql_driver(tmp_path: Path) -> None:
    # ./scripts/serve installs fibsd without the `postgresql` extra: psycopg is imported
    # only when a postgresql:// store is opened.
    import subprocess
    import sys

    code = (
        "import sys, fibsd.__main__, fibsd.shell.server\n"
        "from fibsd.store.backends import open_store\n"
        f"open_store({str(tmp_path / 'club.db')!r}).close()\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'psycopg'], 'psycopg imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("url", "secret"), [
    # (the query names the host: libpq would take the password's tail for a host name)
    ("postgresql://fibsd:s3cr@t!x@127.0.0.1:1/club?host=127.0.0.1&port=1", "s3cr@t!x"),
    ("postgresql://fibsd:plain-secret@127.0.0.1:1/club", "plain-secret"),
    ("postgresql://fibsd@127.0.0.1:1/club?password=hunter2x&connect_timeout=1", "hunter2x"),
    ("postgresql://127.0.0.1:1/club?sslmode=disable&PASSWORD=hunter2x", "hunter2x"),
])
def test_a_password_never_shows_in_a_store_error_or_the_log(
    url: str, secret: str, caplog: pytest.LogCaptureFixture,
) -> None:
    """However the URL carries it (an unencoded `@` in it, or `?password=`), the real
    driver's failure to connect is reported without the password or any piece of it."""
    with caplog.at_level("WARNING"), pytest.raises(StoreError) as caught:
        PostgreSQLStore(url, wait_for_database=0.3)
    said = str(caught.value) + "\n" + caplog.text
    assert "***" in str(caught.value)
    for piece in {secret, *secret.split("@")}:
        assert piece not in said, said
