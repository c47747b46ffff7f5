"""Puzzles from analysed matches (issue 37, docs/puzzles.md) with the real GNU Backgammon:
a bot match played through the server and analysed; its costly decisions become puzzles
whose candidates grade the play made exactly as gnubg graded it; users solve them over
telnet and CLIP and are graded as gnubg grades; their Glicko-2 puzzle ratings move."""

from __future__ import annotations

from typing import Any

import trio

from fibsd.domain.puzzles import Puzzle, apply_gnubg_play
from fibsd.infra.wallclock import SystemClock
from fibsd.rules import BAR, OFF, legal_plays
from tests.server.helpers import clip_login, register, telnet_login
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


def _words_for(puzzle: Puzzle, answer: str) -> str:
    """The command a solver types for a candidate (a gnubg play or a cube word): the
    solver is O, so his own points are the board's."""
    if puzzle.kind != "move":
        return {"no double": "roll"}.get(answer, answer)
    assert puzzle.dice is not None
    position = puzzle.position_for_decider()
    result = apply_gnubg_play(position, answer)
    [play] = [p for p in legal_plays(position, puzzle.dice) if p.result == result]
    name = lambda point: "bar" if point == BAR else "off" if point == OFF else str(point)
    return "move " + " ".join(f"{name(m.from_point)}-{name(m.to_point)}" for m in play.moves)


ASKS = ("You are O and on roll", "Your opponent doubles")


def _asked(line: str) -> bool:
    return line.removeprefix("> ").startswith(ASKS)


def _graded(line: str) -> bool:
    return line.removeprefix("> ").startswith("Puzzle ") and " you answered " in line


async def test_users_solve_puzzles_over_telnet_and_clip_graded_as_gnubg_graded(
    start_server: Any,
) -> None:
    running, record_id = await analysed_match(start_server)
    store = running.server.store
    numbered = store.match_puzzles(record_id)
    assert len(numbered) >= 3
    for _, puzzle in numbered:  # gnubg's position ID read right: its plays are legal
        if puzzle.kind == "move":
            assert puzzle.dice is not None
            position = puzzle.position_for_decider()
            legal = {play.result for play in legal_plays(position, puzzle.dice)}
            assert {apply_gnubg_play(position, c.play) for c in puzzle.candidates} <= legal

    # Telnet: carol takes anyone's puzzles, oldest first; the best answer loses nothing.
    await register(running, "carol")
    carol, _ = await telnet_login(running, "carol")
    await carol.send("take")  # no puzzle open: as ever, an unknown command
    assert (await carol.read_until(lambda l: "take" in l))[-1].removeprefix("> ") == (
        "** Unknown command: 'take'")
    (first, puzzle), (second, other) = numbered[0], numbered[1]
    await carol.send("puzzle any")
    shown = await carol.read_until(_asked, timeout=LONG)
    header = next(l.removeprefix("> ") for l in shown if l.removeprefix("> ").startswith("Puzzle"))
    assert header.startswith(f"Puzzle {first}: {puzzle.player}'s ")
    assert f"in match {record_id}, game {puzzle.game}; 3 point match" in header
    assert any("|" in line and "O" in line for line in shown), "the ASCII board"
    await carol.send(_words_for(puzzle, puzzle.best.play))
    graded = (await carol.read_until(_graded, timeout=LONG))[-1].removeprefix("> ")
    assert "the best answer" in graded and f"Best: {puzzle.best.play} " in graded
    assert f"chose {puzzle.played} (lost {puzzle.lost:.3f})" in graded
    with trio.fail_after(LONG):
        while store.puzzle_rating("carol") is None:
            await trio.sleep(0)  # the answer's write commits in the store's thread
    rating = store.puzzle_rating("carol")
    assert rating is not None and rating[0].rating > 1500.0  # solved: her rating rises
    first_rating = rating[0].rating

    # The play made in the match loses what gnubg said it lost.
    await carol.send("puzzle any")
    await carol.read_until(_asked, timeout=LONG)
    await carol.send(_words_for(other, other.played))
    graded = (await carol.read_until(_graded, timeout=LONG))[-1].removeprefix("> ")
    assert graded.startswith(f"Puzzle {second}: ")
    if other.lost > 0.0005:
        assert f"you lost {other.lost:.3f}" in graded
    with trio.fail_after(LONG):
        while len(store.puzzle_answers("carol")) < 2:
            await trio.sleep(0)  # the answer's write commits in the store's thread
    answers = store.puzzle_answers("carol")
    assert [number for number, _, _ in answers] == [first, second]
    assert abs(answers[0][2]) < 1e-9 and abs(answers[1][2] - other.lost) < 1e-9
    rating = store.puzzle_rating("carol")
    assert rating is not None and rating[1:3] == (2, 1)
    assert rating[0].rating < first_rating  # the match's error again: it falls
    await carol.send("show puzzles")
    shown_rating = (await carol.read_until(lambda l: "Puzzle rating" in l))[-1]
    assert shown_rating.removeprefix("> ") == (
        f"Puzzle rating of carol: {rating[0].rating:.0f} (RD {rating[0].deviation:.0f}), "
        f"puzzles answered: 2, best answers: 1, mean equity lost: {rating[3]:.3f}")
    await carol.send("show puzzles bob")
    assert (await carol.read_until(lambda l: "bob" in l))[-1].removeprefix("> ") == (
        "** bob has answered no puzzles.")

    # CLIP: the board line the client draws, no `** ` line it did not ask for.
    await register(running, "dave")
    dave, _ = await clip_login(running, "dave")
    await dave.send("set boardstyle 3")  # as every CLIP client does
    await dave.read_until(lambda l: "boardstyle" in l.lower())
    await dave.send("puzzle mine")
    assert (await dave.read_until(lambda l: l.startswith("** ")))[-1] == (
        "** There is no puzzle from your own errors now. Type 'puzzle any' for anyone's.")
    await dave.send("puzzle")  # nothing of his own: anyone's, oldest first
    shown = await dave.read_until(_asked, timeout=LONG)
    assert not [line for line in shown if line.startswith("** ")]
    [board] = [line for line in shown if line.startswith("board:")]
    assert board.startswith("board:You:puzzle:3:")
    assert shown[0].startswith(f"Puzzle {first}: ")
    await dave.send(_words_for(puzzle, puzzle.played))
    graded = (await dave.read_until(_graded, timeout=LONG))[-1]
    if puzzle.lost > 0.0005:
        assert f"you lost {puzzle.lost:.3f}" in graded

    # alice gets her own errors first.
    alice, _ = await telnet_login(running, "alice")
    await alice.send("puzzle")
    shown = await alice.read_until(_asked, timeout=LONG)
    own = [number for number, p in numbered if p.player == "alice"]
    expected = own[0] if own else first
    assert any(l.removeprefix("> ").startswith(f"Puzzle {expected}: ") for l in shown)
