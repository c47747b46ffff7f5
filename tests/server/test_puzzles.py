"""Puzzles from analysed matches (issue 37, docs/puzzles.md) with the real GNU Backgammon:
a bot match played through the server and analysed; its costly decisions become puzzles
whose candidates grade the play made exactly as gnubg graded it."""

from __future__ import annotations

from typing import Any

import trio

from fibsd.infra.wallclock import SystemClock
from tests.server.test_analysis import LONG, _gnubg_is_installed, play_match

__all__ = ["_gnubg_is_installed"]  # the autouse fixture: a missing gnubg fails


async def analysed_match(start_server: Any, **settings: object) -> tuple[Any, int]:
    """A server whose one rated match (alice and bob, random bots) is analysed."""
    running = await start_server(clock=SystemClock(), **{
        "analysis.analysis_auto": "rated", "analysis.analysis_checker_plies": 0,
        "analysis.analysis_cube_plies": 0, **settings})
    pool = running.server.analysis_pool
    await play_match(running.port, 3)
    with trio.fail_after(LONG):
        while pool.done_count < 1:
            await pool.changed.wait()
    [record] = running.server.store.match_records_of("alice")
    return running, record.id


async def test_every_decision_costing_more_than_the_threshold_is_a_puzzle(
    start_server: Any,
) -> None:
    running, record_id = await analysed_match(start_server)
    store = running.server.store
    analysis = store.analysis(record_id)
    assert analysis is not None
    puzzles = [puzzle for _, puzzle in store.match_puzzles(record_id)]
    assert puzzles, "random bots make costly plays"
    assert all(p.lost > 0.05 and p.record_id == record_id for p in puzzles)
    assert {p.player for p in puzzles} <= {"alice", "bob"}
    # Every error gnubg marked that cost more than the threshold is among the puzzles,
    # the same decision at the same cost.
    costly = [e for e in analysis.errors if e.lost > 0.05]
    assert costly
    kinds = {"move": {"move"}, "cube": {"double", "take"}}
    for error in costly:
        name = analysis.players[error.player].name
        assert any(
            p.game == error.game and p.player == name and p.kind in kinds[error.kind]
            and p.position == error.position and p.played == error.played
            and abs(p.lost - error.lost) < 1e-9
            for p in puzzles
        ), error
    for puzzle in puzzles:
        # The candidates grade the play made as gnubg did: best minus played = lost.
        [played] = [c for c in puzzle.candidates if c.play == puzzle.played]
        assert abs(puzzle.best.equity - played.equity - puzzle.lost) < 1e-9
        if puzzle.kind == "move":
            assert puzzle.dice is not None and len(puzzle.candidates) > 1
        else:
            assert puzzle.dice is None
            assert {c.play for c in puzzle.candidates} in (
                {"no double", "double"}, {"take", "pass"})
        assert puzzle.length == 3 and puzzle.cube >= 1


async def test_the_threshold_is_a_setting(start_server: Any) -> None:
    running, record_id = await analysed_match(start_server, **{
        "analysis.puzzle_threshold": 0.3})
    puzzles = [puzzle for _, puzzle in running.server.store.match_puzzles(record_id)]
    analysis = running.server.store.analysis(record_id)
    assert analysis is not None
    assert all(p.lost > 0.3 for p in puzzles)
    assert len(puzzles) >= sum(1 for e in analysis.errors if e.lost > 0.3)
