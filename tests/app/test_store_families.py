"""The families other issues added to the store, on both backends (issue 27: every
family runs on PostgreSQL too): engine analyses (issue 23) and their puzzles (issue 37), and
the recurring tournaments' schedules (issue 35)."""

from __future__ import annotations

import pytest

from fibsd.domain.match_analysis import MatchAnalysis, PlayerAnalysis
from fibsd.domain.puzzles import Candidate, Puzzle
from tests.conftest import StoreBackend


def _analysis(record_id: int, lost: float) -> MatchAnalysis:
    def player(name: str) -> PlayerAnalysis:
        return PlayerAnalysis(name=name, decisions=100, checker_lost=lost, cube_lost=0.0,
                              checker_errors=3, checker_blunders=1, cube_errors=0,
                              cube_blunders=0, luck=0.25)

    return MatchAnalysis(record_id=record_id, checker_plies=2, cube_plies=2,
                         players=(player("Alice"), player("bob")), errors=(),
                         analysed_at=100.0 + record_id, seconds=1.5)


def test_analysis_jobs_results_and_prs_round_trip(backend: StoreBackend) -> None:
    with backend.open() as store:
        store.queue_analysis(1, ["alice"], 10.0)
        store.queue_analysis(2, [], 11.0)
        store.queue_analysis(1, ["alice", "bob"], 12.0)  # replaces the requesters
        assert store.analysis_jobs() == [(1, ["alice", "bob"]), (2, [])]
        sgf = "(;FF[4]GM[6] ... a long match ...)" * 100
        store.save_analysis(_analysis(1, 0.5), sgf)
        store.drop_analysis_job(2)
        assert store.analysis_jobs() == []
    with backend.open() as store:  # durable
        assert store.analysis(1) == _analysis(1, 0.5)
        assert store.analysis_sgf(1) == sgf
        assert store.analysis(2) is None and store.analysis_sgf(2) is None
        store.save_analysis(_analysis(3, 1.0), "(;)")
        average = store.average_pr("ALICE")
        assert average is not None
        assert abs(average[0] - 3.75) < 1e-9 and average[1] == 2  # PRs 2.5 and 5.0
        assert store.average_pr("carol") is None


def _puzzle(record_id: int, player: str, lost: float) -> Puzzle:
    return Puzzle(
        record_id=record_id, game=1, player=player, kind="move", position="4HPwATDgc/ABMA",
        dice=(6, 2), length=5, score=(2, 1), cube=2, cube_owner="opponent", crawford=False,
        played="24/16", lost=lost,
        candidates=(Candidate("24/18 13/11", 0.25), Candidate("24/16", 0.25 - lost)))


def test_an_analysis_keeps_its_puzzles_and_a_new_analysis_replaces_them(
    backend: StoreBackend,
) -> None:
    with backend.open() as store:
        store.save_analysis(_analysis(1, 0.5), "(;)",
                            [_puzzle(1, "Alice", 0.06), _puzzle(1, "bob", 0.2)])
        store.save_analysis(_analysis(2, 0.5), "(;)", [_puzzle(2, "bob", 0.1)])
    with backend.open() as store:  # durable
        first = store.match_puzzles(1)
        assert [p for _, p in first] == [_puzzle(1, "Alice", 0.06), _puzzle(1, "bob", 0.2)]
        assert len({number for number, _ in first}) == 2
        store.save_analysis(_analysis(1, 0.5), "(;)", [_puzzle(1, "bob", 0.3)])
        assert [p for _, p in store.match_puzzles(1)] == [_puzzle(1, "bob", 0.3)]
        assert [p for _, p in store.match_puzzles(2)] == [_puzzle(2, "bob", 0.1)]
        assert store.match_puzzles(3) == []


def test_next_puzzle_own_first_unanswered_and_never_from_a_match_watched_live(
    backend: StoreBackend,
) -> None:
    def record(players: tuple[str, str], started: float, finished: float) -> int:
        return store.record_match(players=players, match_data={}, length=3, score=(3, 0),
                                  winner=0, started_at=started, finished_at=finished)

    with backend.open() as store:
        early = record(("Alice", "bob"), 1000.0, 2000.0)
        late = record(("carol", "Alice"), 5000.0, 6000.0)
        store.save_analysis(_analysis(early, 0.5), "(;)",
                            [_puzzle(early, "bob", 0.1), _puzzle(early, "Alice", 0.2)])
        store.save_analysis(_analysis(late, 0.5), "(;)", [_puzzle(late, "carol", 0.3)])
        [(bobs, _), (alices, _)] = store.match_puzzles(early)
        [(carols, _)] = store.match_puzzles(late)
        # Own errors (any case of the name), then anyone's, oldest first.
        assert store.next_puzzle("alice", mine=True, since=0.0) == (alices, _puzzle(early, "Alice", 0.2))
        assert store.next_puzzle("alice", mine=False, since=0.0) == (bobs, _puzzle(early, "bob", 0.1))
        assert store.puzzle_rating("dave") is None
        store.save_puzzle_answer(bobs, "dave", "24/16", 0.05, 0.5, 7000.0)
        store.save_puzzle_answer(bobs, "dave", "13/5", 0.0, 1.0, 7001.0)  # the first counts
        assert store.puzzle_answers("dave") == [(bobs, "24/16", 0.05)]
        # A draw against an equal (unrated) puzzle: the rating stays, the deviation shrinks.
        rating = store.puzzle_rating("dave")
        assert rating is not None
        glicko, answered, best, lost = rating
        assert glicko.rating == pytest.approx(1500.0) and glicko.deviation < 350.0
        assert (answered, best, lost) == (1, 0, pytest.approx(0.05))
        assert store.next_puzzle("dave", mine=False, since=0.0) == (alices, _puzzle(early, "Alice", 0.2))
        assert store.next_puzzle("dave", mine=True, since=0.0) is None
        # dave started watching ALICE at 5500: her later match (finished at 6000) was
        # watched live; the earlier one was not. A watch before `since` (another day)
        # no longer counts.
        store.note_watch("dave", "alice", 5500.0)
        store.save_puzzle_answer(alices, "dave", "8/2", 0.0, 1.0, 7002.0)
        rating = store.puzzle_rating("dave")
        assert rating is not None and rating[0].rating > 1500.0 and rating[1:3] == (2, 1)
        assert store.next_puzzle("dave", mine=False, since=5000.0) is None
        assert store.next_puzzle("dave", mine=False, since=5600.0) == (carols, _puzzle(late, "carol", 0.3))


def test_tournament_schedules_are_saved_replaced_removed_and_loaded_again(backend: StoreBackend) -> None:
    # Recurring tournaments (docs/tournaments.md): each schedule's whole state, by its name
    # (any case); what the store holds when it opens is what the core loads.
    with backend.open() as store:
        store.save_schedule("Thu", {"name": "Thu", "rule": "FREQ=WEEKLY;BYDAY=TH", "handled_until": 1.0})
        store.save_schedule("eve", {"name": "eve", "rule": "FREQ=DAILY"})
        store.save_schedule("THU", {"name": "THU", "rule": "FREQ=WEEKLY;BYDAY=TH", "handled_until": 2.0})
        store.save_schedule("gone", {"name": "gone"})
        store.remove_schedule("GONE")
    with backend.open() as store:  # durable
        saved = sorted(store.saved_schedules(), key=lambda data: str(data["name"]).lower())
        assert saved == [{"name": "eve", "rule": "FREQ=DAILY"},
                         {"name": "THU", "rule": "FREQ=WEEKLY;BYDAY=TH", "handled_until": 2.0}]
