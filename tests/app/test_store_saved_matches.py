"""Saved matches in the store: one per pair, either order, replaced, deleted, durable."""

from __future__ import annotations

from pathlib import Path

import pytest

from fibsd.domain.accounts import Account
from fibsd.store import apply_patch
from fibsd.store.sqlite import SQLiteStore as Store
from tests.conftest import StoreBackend


def test_saved_match_round_trip_in_either_order(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.create_account(Account.new("Alice", "h", 0.0))
        assert store.saved_match("alice", "bob") is None
        store.save_match("Alice", "bob", {"score": [1, 2]}, 10.0)
        assert store.saved_match("BOB", "alice") == {"score": [1, 2]}
        store.save_match("bob", "alice", {"score": [2, 2]}, 11.0)  # replaces
        assert store.saved_matches_of("ALICE") == [("bob", {"score": [2, 2]})]
        assert store.saved_matches_of("bob") == [("alice", {"score": [2, 2]})]
    with backend.open() as store:  # durable across reopen
        assert store.saved_match("alice", "bob") == {"score": [2, 2]}
        store.delete_saved_match("bob", "alice")
        assert store.saved_match("alice", "bob") is None
        assert store.saved_matches_of("alice") == []


def test_ratings_list_ranks_experienced_players_only(backend: StoreBackend) -> None:
    with backend.open() as store:
        for name, rating, experience in [("a", 1600.0, 100), ("b", 1700.0, 51), ("c", 1800.0, 50), ("d", 1600.0, 60)]:
            store.create_account(Account.new(name, "h", 0.0))
            store.update_rating(name, rating, experience)
        assert store.ratings_page(1, 20) == [(1, "b", 1700.0, 51), (2, "a", 1600.0, 100), (3, "d", 1600.0, 60)]
        assert store.ratings_page(2, 2) == [(2, "a", 1600.0, 100)]
        assert store.rating_rank("d") == 3
        assert store.rating_rank("c") is None  # experience 50 is not enough
        assert store.rating_rank("nobody") is None
        # fibsd's `ratings all`: the provisional players too, ranked among the others.
        assert store.ratings_page(1, 20, everyone=True) == [
            (1, "c", 1800.0, 50), (2, "b", 1700.0, 51), (3, "a", 1600.0, 100), (4, "d", 1600.0, 60)]
        assert store.rating_rank("c", everyone=True) == 1 and store.rating_rank("a", everyone=True) == 3


def test_patches_change_the_saved_match_until_it_is_saved_whole_again(backend: StoreBackend) -> None:
    with backend.open() as store:
        base = {"format": 1, "match": {"score": [0, 0], "game": {"turn": 0, "history": [{"e": 1}]}}}
        store.save_match("alice", "bob", base, 1.0)
        store.patch_saved_match("bob", "alice", [
            ("update", (), {"opening_done": True}),
            ("update", ("match", "game"), {"turn": 1}),
            ("extend", ("match", "game", "history"), [{"e": 2}]),
        ], 2.0)
        store.patch_saved_match("alice", "bob", [("extend", ("match", "game", "history"), [{"e": 3}])], 3.0)
    expected = {"format": 1, "opening_done": True,
                "match": {"score": [0, 0], "game": {"turn": 1, "history": [{"e": 1}, {"e": 2}, {"e": 3}]}}}
    with backend.open() as store:  # patches are as durable as the whole copy
        assert store.saved_match("alice", "bob") == expected
        assert store.saved_matches_of("bob") == [("alice", expected)]
        store.save_match("alice", "bob", {"format": 1, "match": {"score": [1, 0]}}, 4.0)
        assert store.saved_match("alice", "bob") == {"format": 1, "match": {"score": [1, 0]}}
        store.patch_saved_match("alice", "bob", [("update", ("match",), {"score": [2, 0]})], 5.0)
        store.delete_saved_match("alice", "bob")
        store.save_match("alice", "bob", {"fresh": True}, 6.0)
        assert store.saved_match("alice", "bob") == {"fresh": True}  # old patches are gone


def test_saved_matches_are_listed_by_their_latest_change_whole_or_patched(backend: StoreBackend) -> None:
    # A patch no longer rewrites its match's row (migration 10): the listing order must
    # still follow the time of each match's latest change.
    with backend.open() as store:
        store.save_match("alice", "bob", {"with": "bob"}, 1.0)
        store.save_match("alice", "carol", {"with": "carol"}, 2.0)
        store.save_match("alice", "dave", {"with": "dave"}, 3.0)
        assert [name for name, _ in store.saved_matches_of("alice")] == ["bob", "carol", "dave"]
        store.patch_saved_match("alice", "bob", [("update", (), {"x": 1})], 4.0)
        assert [name for name, _ in store.saved_matches_of("alice")] == ["carol", "dave", "bob"]
        store.patch_saved_match("carol", "alice", [("update", (), {"x": 2})], 5.0)
        store.patch_saved_match("alice", "bob", [("update", (), {"x": 3})], 6.0)
        assert [name for name, _ in store.saved_matches_of("alice")] == ["dave", "carol", "bob"]
        store.save_match("alice", "dave", {"with": "dave", "again": True}, 7.0)  # whole copy
        assert [name for name, _ in store.saved_matches_of("alice")] == ["carol", "bob", "dave"]
        assert store.saved_matches_of("bob") == [("alice", {"with": "bob", "x": 3})]


def test_a_patch_needs_a_saved_match_and_a_damaged_patch_reads_as_unreadable(backend: StoreBackend) -> None:
    with backend.open() as store:
        with pytest.raises(ValueError, match="no saved match"):
            store.patch_saved_match("alice", "bob", [("update", (), {"x": 1})], 1.0)
        assert store.saved_match("alice", "bob") is None
        store.save_match("alice", "bob", {"match": {"game": {}}}, 1.0)
        store.patch_saved_match("alice", "bob", [("extend", ("match", "game", "history"), [1])], 2.0)
        assert store.saved_match("alice", "bob") is None  # no history list to extend


def test_apply_patch_refuses_malformed_steps() -> None:
    data: dict[str, object] = {"a": {"list": [1]}}
    apply_patch(data, [("update", ("a",), {"b": 2}), ("extend", ("a", "list"), [2])])
    assert data == {"a": {"list": [1, 2], "b": 2}}
    for bad in (("update", ("a", "list"), {"x": 1}), ("extend", ("a",), [1]),
                ("replace", (), {}), ("update", "a", {})):
        with pytest.raises(ValueError):
            apply_patch(data, [bad])
    with pytest.raises(KeyError):
        apply_patch(data, [("update", ("missing",), {})])


def test_finished_games_are_stored_once_and_the_whole_copy_does_not_grow(backend: StoreBackend) -> None:
    # Issue 17: the whole copy written at the start of each game held every finished game,
    # so in a long unlimited match each save (and each patch, which rewrote that row)
    # grew with the games played. Each finished game is now stored once, apart.
    import random

    from fibsd.rules import Match, MatchOptions
    from tests.app.random_matches import play_match

    match = play_match(random.Random(3), MatchOptions(length=None), max_games=12)
    games = match.to_dict()["finished_games"]
    assert len(games) == 12
    row_sizes = []
    with backend.open() as store:
        for count in range(len(games) + 1):
            # What a table saves at the start of game `count + 1`: the games finished
            # since its previous whole copy (one), and the small state.
            kept = max(0, count - 1)
            state = {"table": 1, "match": {**match.state_dict(), "finished_games": games[kept:count],
                                           "game": {"history": []}}}
            store.save_match("alice", "bob", state, float(count), finished_from=kept)
            store.patch_saved_match("alice", "bob", [("extend", ("match", "game", "history"), [count])], 0.5)
            saved = store.saved_match("bob", "alice")
            assert saved is not None
            assert saved["match"]["finished_games"] == games[:count]  # type: ignore[index]
            assert saved["match"]["game"]["history"] == [count]  # type: ignore[index]
            (size,) = store._read("SELECT length(data) FROM saved_matches")[0]
            row_sizes.append(size)
        assert len(set(row_sizes)) == 1  # the same size with 0 finished games as with 12
        # A whole save from the start (a table resumed from the store) replaces them all.
        store.save_match("alice", "bob", {"match": {"finished_games": games[:2]}}, 20.0)
        saved = store.saved_match("alice", "bob")
        assert saved is not None and saved["match"]["finished_games"] == games[:2]  # type: ignore[index]
        store.delete_saved_match("alice", "bob")
        assert store.saved_match("alice", "bob") is None
        assert store._read("SELECT count(*) FROM saved_match_games")[0][0] == 0
    restored = Match.from_dict({**match.to_dict(finished_from=5)})
    assert restored.finished_count == 7 and restored.finished_games[0].to_dict() == games[5]


def test_forgotten_games_leave_memory_and_come_back_in_the_record(backend: StoreBackend) -> None:
    # Issue 17: a server keeps only the last finished game of a match in memory (each is
    # in the saved match); the match record still gets every game, for the .mat export.
    import random

    from fibsd.app.play.history import score_before
    from fibsd.rules import MatchOptions
    from tests.app.random_matches import play_match

    match = play_match(random.Random(4), MatchOptions(length=None), max_games=9)
    whole = match.to_dict()
    scores = [score_before(match, game) for game in match.finished_games]
    with backend.open() as store:
        store.save_match("alice", "bob", {"match": match.to_dict()}, 1.0)
        match.forget_finished(keep=1)
        assert len(match.finished_games) == 1  # what stays in memory: the last game only
        assert match.finished_count == 9 and match.forgotten_count == 8
        assert score_before(match, match.finished_games[0]) == scores[-1]
        with pytest.raises(ValueError):
            match.to_dict()
        tail = match.to_dict(finished_from=8)
        assert tail["finished_games"] == whole["finished_games"][8:]
        record_id = store.record_match(
            players=("alice", "bob"), match_data=tail, length=None, score=match.score,
            winner=None, started_at=0.0, finished_at=2.0, saved_games_before=8,
        )
        record = store.match_record(record_id)
        assert record is not None and record.data == whole
        with pytest.raises(ValueError, match="holds 0 of 3"):
            store.record_match(players=("carol", "dave"), match_data=tail, length=None,
                               score=(0, 0), winner=None, started_at=0.0, finished_at=2.0,
                               saved_games_before=3)


def test_the_saved_matches_with_a_clock_are_read_at_start_with_their_patches(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.save_match("alice", "bob", {"format": 1, "match": {}}, 1.0)  # no clock
        store.save_match("carol", "alice", {"format": 1, "clock": {"running": 0}, "dropped": None,
                                            "match": {}}, 2.0)
        store.patch_saved_match("alice", "carol", [("update", (), {"dropped": [0, 5.0]})], 3.0)
    with backend.open() as store:
        assert store.saved_clocked_matches() == [
            {"format": 1, "clock": {"running": 0}, "dropped": [0, 5.0], "match": {}}]
