"""Reading the puzzles out of the analysis script's JSON (fibsd/domain/puzzles.py,
docs/puzzles.md): the threshold, the order of the candidates, bad data refused; gnubg's
position ID, and grading plays (unlisted ones too) and cube answers."""

from __future__ import annotations

import pytest

from fibsd.domain.puzzles import (
    Candidate,
    Grade,
    Puzzle,
    PuzzleError,
    PuzzleKind,
    apply_gnubg_play,
    grade_cube,
    grade_play,
    position_from_id,
    read_puzzles,
)
from fibsd.rules import IllegalPlay, Position


def _raw(lost: float, player: int = 1, **changes: object) -> dict[str, object]:
    raw: dict[str, object] = {
        "game": 2, "player": player, "kind": "move", "position": "4HPwATDgc/ABMA",
        "dice": [5, 3], "length": 7, "score": [3, 4], "cube": 2, "cube_owner": "mover",
        "crawford": False, "played": "8/3 6/3", "lost": lost,
        # gnubg lists best first; the reader sorts anyway (equity, best first).
        "candidates": [{"play": "8/3 6/3", "equity": 0.1 - lost}, {"play": "13/5", "equity": 0.1}],
    }
    raw.update(changes)
    return raw


def test_only_decisions_costing_more_than_the_threshold_become_puzzles() -> None:
    puzzles = read_puzzles([_raw(0.05), _raw(0.0501, player=0), _raw(0.2)], record_id=9,
                           names=("alice", "bob"), threshold=0.05)
    assert [(p.player, p.lost) for p in puzzles] == [("alice", 0.0501), ("bob", 0.2)]
    first = puzzles[0]
    assert first.record_id == 9 and first.dice == (5, 3) and first.score == (3, 4)
    assert first.candidates == (Candidate("13/5", 0.1), Candidate("8/3 6/3", 0.1 - 0.0501))
    assert first.best.play == "13/5" and first.worst.play == "8/3 6/3"
    assert first.from_dict(first.to_dict()) == first


def test_cube_puzzles_have_no_dice() -> None:
    [puzzle] = read_puzzles([_raw(
        0.3, kind="take", dice=[], played="take",
        candidates=[{"play": "take", "equity": -1.3}, {"play": "pass", "equity": -1.0}])],
        record_id=1, names=("a", "b"), threshold=0.05)
    assert puzzle.dice is None and puzzle.best == Candidate("pass", -1.0)


@pytest.mark.parametrize("change", [
    {"kind": "resign"}, {"cube_owner": "nobody"}, {"candidates": []}, {"dice": [1, 2, 3]},
    {"player": 2}, {"score": [1]},
])
def test_what_the_script_never_writes_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(PuzzleError):
        read_puzzles([_raw(0.2, **change)], record_id=1, names=("a", "b"), threshold=0.05)


def test_a_missing_field_is_refused() -> None:
    raw = _raw(0.2)
    del raw["score"]
    with pytest.raises(PuzzleError):
        read_puzzles([raw], record_id=1, names=("a", "b"), threshold=0.05)


OPENING_ID = "4HPwATDgc/ABMA"  # gnubg's position ID of the starting position


def _opening_puzzle(kind: PuzzleKind = "move") -> Puzzle:
    candidates = ((Candidate("8/5 6/5", 0.2), Candidate("13/10 6/5", 0.05)) if kind == "move"
                  else (Candidate("no double", 0.1), Candidate("double", -0.3)))
    return Puzzle(record_id=1, game=1, player="alice", kind=kind, position=OPENING_ID,
                  dice=(3, 1) if kind == "move" else None, length=5, score=(0, 0), cube=1,
                  cube_owner="centred", crawford=False, played="13/10 6/5", lost=0.15,
                  candidates=candidates)


def test_gnubgs_position_id_is_read() -> None:
    assert position_from_id(OPENING_ID) == Position.opening()
    with pytest.raises(PuzzleError):
        position_from_id("not an id!!!!!")


def test_a_play_is_graded_by_the_position_it_leads_to() -> None:
    puzzle = _opening_puzzle()
    assert grade_play(puzzle, [(6, 5), (8, 5)]) == Grade(0.2, 0.0, True)  # any order
    assert grade_play(puzzle, [(13, 10), (6, 5)]) == Grade(0.05, pytest.approx(0.15), True)
    # Not among gnubg's candidates: graded as the worst listed one.
    assert grade_play(puzzle, [(24, 21), (21, 20)]) == Grade(0.05, pytest.approx(0.15), False)
    with pytest.raises(IllegalPlay):
        grade_play(puzzle, [(24, 18)])


def test_a_cube_answer_is_graded() -> None:
    puzzle = _opening_puzzle("double")
    assert grade_cube(puzzle, "no double") == Grade(0.1, 0.0, True)
    assert grade_cube(puzzle, "double") == Grade(-0.3, pytest.approx(0.4), True)
    with pytest.raises(ValueError):
        grade_cube(puzzle, "take")


def test_gnubg_notation_is_applied() -> None:
    after = apply_gnubg_play(Position.opening(), "13/7(2)")
    assert after.me[13] == 3 and after.me[7] == 2
    with pytest.raises(PuzzleError):
        apply_gnubg_play(Position.opening(), "12/7")
