"""Match records in the store (migration 4): kept, read back, listed per player."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import fibsd.store.sqlite as store_module
from fibsd.domain.accounts import Account
from fibsd.domain.matfile import MatchRecord
from fibsd.rules import GameResult, Match, MatchOptions
from fibsd.store import NoSuchAccount
from fibsd.store.sqlite import SCHEMA_VERSION
from fibsd.store.sqlite import SQLiteStore as Store
from tests.conftest import StoreBackend


def _finished_one_point_match() -> Match:
    match = Match(MatchOptions(length=1))
    match.opening_roll(3, 1)
    match.resign(1, GameResult.SINGLE)
    match.accept_resignation(0)
    assert match.over and match.score == (1, 0)
    return match


def _record(store: Store, players: tuple[str, str], at: float) -> int:
    match = _finished_one_point_match()
    return store.record_match(
        players=players, match_data=match.to_dict(), length=1, score=match.score,
        winner=match.winner, started_at=at - 60.0, finished_at=at,
    )


def test_a_record_round_trips_and_survives_reopening(backend: StoreBackend) -> None:
    match = _finished_one_point_match()
    with backend.open() as store:
        assert store.schema_version() == SCHEMA_VERSION >= 4
        record_id = store.record_match(
            players=("Alice", "bob"), match_data=match.to_dict(), length=1,
            score=match.score, winner=0, started_at=100.0, finished_at=160.0,
        )
    with backend.open() as store:
        record = store.match_record(record_id)
    assert record == MatchRecord(
        id=record_id, players=("Alice", "bob"), length=1, score=(1, 0), winner=0,
        data=match.to_dict(), started_at=100.0, finished_at=160.0,
    )
    # The stored data restores the very match, history included.
    assert Match.from_dict(dict(record.data)) == match


def test_unknown_id_is_none(backend: StoreBackend) -> None:
    with backend.open() as store:
        assert store.match_record(1) is None
        assert store.match_record(-5) is None


def test_unlimited_match_has_no_length_and_no_winner(backend: StoreBackend) -> None:
    match = Match(MatchOptions(length=None))
    with backend.open() as store:
        record_id = store.record_match(
            players=("a", "b"), match_data=match.to_dict(), length=None, score=(0, 0),
            winner=None, started_at=None, finished_at=5.0,
        )
        record = store.match_record(record_id)
    assert record is not None
    assert (record.length, record.winner, record.started_at) == (None, None, None)


def test_bad_winner_is_refused_and_nothing_is_written(backend: StoreBackend) -> None:
    with backend.open() as store:
        with pytest.raises(ValueError):
            store.record_match(
                players=("a", "b"), match_data={}, length=1, score=(1, 0), winner=2,
                started_at=None, finished_at=1.0,
            )
        assert store.match_records_of("a") == []


def test_records_of_a_player_newest_first_in_any_case_with_limit(backend: StoreBackend) -> None:
    with backend.open() as store:
        first = _record(store, ("Alice", "bob"), 1000.0)
        _record(store, ("carol", "dave"), 1001.0)
        second = _record(store, ("Bob", "ALICE"), 1002.0)
        third = _record(store, ("alice", "carol"), 1003.0)
        assert [r.id for r in store.match_records_of("ALICE")] == [third, second, first]
        assert [r.id for r in store.match_records_of("alice", limit=2)] == [third, second]
        assert [r.id for r in store.match_records_of("bob")] == [second, first]
        # Names are kept as spelt when recorded.
        assert store.match_records_of("bob")[0].players == ("Bob", "ALICE")
        assert store.match_records_of("nobody") == []
        assert store.match_records_of("alice", limit=0) == []


def test_migration_4_upgrades_a_version_3_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "db.sqlite"
    # A file at version 3, as that release left it: only the first three migrations.
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:3])
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", 3)
    with Store.open(path):
        pass
    monkeypatch.undo()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
        # A match saved by that release (today's save_match also clears migration 7's
        # patches, which a version 3 file cannot have).
        db.execute("INSERT INTO saved_matches (player_low, player_high, data, saved_at)"
                   " VALUES ('a', 'b', '{\"score\":[1,0]}', 1.0)")
    with Store.open(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.saved_match("a", "b") == {"score": [1, 0]}  # untouched
        record_id = _record(store, ("a", "b"), 2.0)
        assert store.match_record(record_id) is not None


def test_player_lookup_uses_the_indexes(tmp_path: Path) -> None:
    # A busy server accumulates many records; listing one player's must not scan them all.
    with Store.open(tmp_path / "db.sqlite") as store:
        plan = store._read(
            "EXPLAIN QUERY PLAN SELECT id FROM match_records WHERE player0 = ? COLLATE NOCASE"
            " UNION SELECT id FROM match_records WHERE player1 = ? COLLATE NOCASE"
            " ORDER BY id DESC LIMIT 5",
            ("a", "a"),
        )
    details = " ".join(str(row["detail"]) for row in plan)
    assert "match_records_by_player0" in details and "match_records_by_player1" in details


def test_record_and_ratings_are_stored_together_or_not_at_all(backend: StoreBackend) -> None:
    match = _finished_one_point_match()
    with backend.open() as store:
        store.create_account(Account.new("Alice", "h", 0.0))
        store.create_account(Account.new("bob", "h", 0.0))
        record_id = store.record_match(
            players=("Alice", "bob"), match_data=match.to_dict(), length=1, score=(1, 0),
            winner=0, started_at=None, finished_at=1.0,
            ratings=[("alice", 1510.0, 1), ("BOB", 1490.0, 1)],
        )
        assert store.match_record(record_id) is not None
        alice, bob = store.get_account("alice"), store.get_account("bob")
        assert alice is not None and bob is not None
        assert (alice.rating, alice.experience, bob.rating, bob.experience) == (1510.0, 1, 1490.0, 1)
        # An unknown player: neither the ratings nor the record are stored.
        with pytest.raises(NoSuchAccount):
            store.record_match(
                players=("Alice", "ghost"), match_data=match.to_dict(), length=1,
                score=(1, 0), winner=0, started_at=None, finished_at=2.0,
                ratings=[("alice", 1520.0, 2), ("ghost", 1480.0, 1)],
            )
        alice = store.get_account("alice")
        assert alice is not None and (alice.rating, alice.experience) == (1510.0, 1)
        assert [r.id for r in store.match_records_of("alice")] == [record_id]
