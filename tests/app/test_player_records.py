"""Every player's record (`show record`, issue 37 §2), counted by the store's queries on
both backends: matches by length and rating, against one opponent, the unfinished ones,
and the PR of the latest analysed matches with the left-out ones counted apart."""

from __future__ import annotations

from fibsd.domain.match_analysis import MatchAnalysis, PlayerAnalysis
from fibsd.domain.player_record import LengthTally, MatchEnding, OpponentsPr, PrFigure, Unfinished
from fibsd.store.api import Store
from tests.conftest import StoreBackend

_FULL = 40  # checker plays of an ordinary match


def _record(store: Store, players: tuple[str, str], winner: int | None, length: int | None = 3,
            *, rated: bool = True, how: str = "borne_off", moves: int = _FULL,
            final_moves: int = 20) -> int:
    return store.record_match(
        players=players, match_data={"finished_games": []}, length=length, score=(0, 0),
        winner=winner, started_at=1.0, finished_at=2.0,
        ending=MatchEnding(how=how, rated=rated, moves=moves, final_moves=final_moves))


def _analyse(store: Store, record_id: int, prs: dict[str, float]) -> None:
    # A PR is checker_lost * 500 / decisions (docs/analysis.md): 100 decisions, PR = lost * 5.
    players = tuple(
        PlayerAnalysis(name=name, decisions=100, checker_lost=pr / 5, cube_lost=0.0,
                       checker_errors=0, checker_blunders=0, cube_errors=0, cube_blunders=0,
                       luck=0.0) for name, pr in prs.items())
    store.save_analysis(MatchAnalysis(record_id=record_id, checker_plies=0, cube_plies=0,
                                      players=players, errors=(), analysed_at=3.0, seconds=1.0), "(;)")


def test_counts_by_length_and_rating_and_against_one_opponent(backend: StoreBackend) -> None:
    with backend.open() as store:
        _record(store, ("alice", "bob"), 0)
        _record(store, ("Bob", "alice"), 0)  # bob won, names in any case
        _record(store, ("alice", "carol"), 1, rated=False)
        _record(store, ("carol", "ALICE"), 1, length=5)
        _record(store, ("alice", "bob"), None, length=None, rated=False)  # unlimited
        _record(store, ("bob", "carol"), 0)  # not hers
        record = store.player_record("alice")
        assert record.tallies == (
            LengthTally(length=3, rated=True, played=2, won=1, lost=1),
            LengthTally(length=3, rated=False, played=1, won=0, lost=1),
            LengthTally(length=5, rated=True, played=1, won=1, lost=0),
            LengthTally(length=None, rated=False, played=1, won=0, lost=0),
        )
        assert (record.played, record.won, record.lost) == (5, 2, 2)
        assert record.decided() == (2, 2)
        against = store.player_record("ALICE", "bob")
        assert against.tallies == (
            LengthTally(length=3, rated=True, played=2, won=1, lost=1),
            LengthTally(length=None, rated=False, played=1, won=0, lost=0),
        )
        assert store.player_record("dave").tallies == ()


def test_unfinished_matches(backend: StoreBackend) -> None:
    with backend.open() as store:
        _record(store, ("alice", "bob"), 1, how="time")  # alice lost on time
        _record(store, ("alice", "bob"), 0, how="time")  # bob did
        _record(store, ("carol", "alice"), 0, how="claimed")  # alice dropped, carol claimed
        store.save_match("alice", "bob", {"match": {"options": {"length": 5}}}, 4.0)
        store.save_match("Carol", "Alice", {"match": {"options": {"length": 3}}}, 4.0)
        store.record_abandoned_match(("bob", "alice"), 7, 5.0)
        store.record_abandoned_match(("alice", "carol"), 1, 6.0)
        store.record_abandoned_match(("bob", "carol"), 1, 6.0)
        store.record_drop("alice")
        store.record_drop("alice")
    with backend.open() as store:  # durable
        assert store.player_record("alice").unfinished == Unfinished(
            saved=2, abandoned=2, lost_on_time=1, claimed=1, dropped=2)
        assert store.player_record("alice", "bob").unfinished == Unfinished(
            saved=1, abandoned=1, lost_on_time=1, claimed=0, dropped=None)
        assert store.player_record("bob").unfinished == Unfinished(
            saved=1, abandoned=2, lost_on_time=1, claimed=0, dropped=0)


def test_pr_of_the_latest_analysed_matches_leaves_out_the_meaningless(backend: StoreBackend) -> None:
    with backend.open() as store:
        # 55 ordinary matches: PR 1.0 for the oldest 45, then 2.0 for the latest 10.
        for number in range(55):
            record_id = _record(store, ("alice", "bob"), number % 2)
            _analyse(store, record_id, {"alice": 1.0 if number < 45 else 2.0, "bob": 8.0})
        # The latest of all are left out: claimed, resigned at once, very short.
        for how, moves, final in (("claimed", _FULL, 20), ("resigned", _FULL, 1), ("borne_off", 9, 9)):
            record_id = _record(store, ("carol", "alice"), 1, how=how, moves=moves, final_moves=final)
            _analyse(store, record_id, {"alice": 70.0, "carol": 70.0})
        record = store.player_record("alice")
        ten = record.prs[0]
        assert ten.span == 10 and ten.matches == 10
        assert ten.average is not None and abs(ten.average - 2.0) < 1e-9
        fifty = record.prs[1]
        assert fifty.span == 50 and fifty.matches == 50
        assert fifty.average is not None and abs(fifty.average - (10 * 2.0 + 40 * 1.0) / 50) < 1e-9
        assert record.left_out == 3
        against_carol = store.player_record("alice", "carol")
        assert against_carol.prs == (PrFigure(10, None, 0), PrFigure(50, None, 0))
        assert against_carol.left_out == 3
        bobs = store.player_record("bob").prs[0]
        assert bobs.matches == 10 and bobs.average is not None and abs(bobs.average - 8.0) < 1e-9
        # The opponents' PR against alice (a house bot's page): bob's 55 and carol's 3 left out.
        opponents = store.opponents_pr("alice")
        assert opponents.matches == 55 and opponents.left_out == 3
        assert opponents.average is not None and abs(opponents.average - 8.0) < 1e-9
        assert store.opponents_pr("dave") == OpponentsPr(average=None, matches=0, left_out=0)
