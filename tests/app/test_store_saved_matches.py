"""Saved matches in the store: one per pair, either order, replaced, deleted, durable."""

from __future__ import annotations

from pathlib import Path

from fibsd.accounts import Account
from fibsd.store import Store


def test_saved_match_round_trip_in_either_order(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    with Store.open(path) as store:
        store.create_account(Account.new("Alice", "h", 0.0))
        assert store.saved_match("alice", "bob") is None
        store.save_match("Alice", "bob", {"score": [1, 2]}, 10.0)
        assert store.saved_match("BOB", "alice") == {"score": [1, 2]}
        store.save_match("bob", "alice", {"score": [2, 2]}, 11.0)  # replaces
        assert store.saved_matches_of("ALICE") == [("bob", {"score": [2, 2]})]
        assert store.saved_matches_of("bob") == [("alice", {"score": [2, 2]})]
    with Store.open(path) as store:  # durable across reopen
        assert store.saved_match("alice", "bob") == {"score": [2, 2]}
        store.delete_saved_match("bob", "alice")
        assert store.saved_match("alice", "bob") is None
        assert store.saved_matches_of("alice") == []


def test_ratings_list_ranks_experienced_players_only(tmp_path: Path) -> None:
    with Store.open(tmp_path / "db.sqlite") as store:
        for name, rating, experience in [("a", 1600.0, 100), ("b", 1700.0, 51), ("c", 1800.0, 50), ("d", 1600.0, 60)]:
            store.create_account(Account.new(name, "h", 0.0))
            store.update_rating(name, rating, experience)
        assert store.ratings_page(1, 20) == [(1, "b", 1700.0, 51), (2, "a", 1600.0, 100), (3, "d", 1600.0, 60)]
        assert store.ratings_page(2, 2) == [(2, "a", 1600.0, 100)]
        assert store.rating_rank("d") == 3
        assert store.rating_rank("c") is None  # experience 50 is not enough
        assert store.rating_rank("nobody") is None
