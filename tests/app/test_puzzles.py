"""Reading the puzzles out of the analysis script's JSON (fibsd/domain/puzzles.py,
docs/puzzles.md): the threshold, the order of the candidates, bad data refused."""

from __future__ import annotations

import pytest

from fibsd.domain.puzzles import Candidate, PuzzleError, read_puzzles


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
