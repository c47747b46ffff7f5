"""Puzzles made of the members' own analysed errors (issue 37 §1, docs/puzzles.md), as data.

Owns `Puzzle` (one checker play or cube decision where a player lost more than the
`puzzle_threshold`, with every candidate gnubg evaluated at analysis time) and reading
the puzzles out of `GNUBG_SCRIPT`'s JSON (`read_puzzles`), the position a puzzle shows
(`Puzzle.position_for_decider`, from gnubg's position ID) and grading an answer
(`grade_play`, `grade_cube`). The store keeps each puzzle as one row (its JSON).
Pure: no trio, no store, no clock, no protocol.

Equities are gnubg's, in normalised money equity (EMG) from the deciding player's view,
as docs/analysis.md computes the equity lost:

* a checker play: each candidate's gnubg `score`;
* "double or not" (`kind = "double"`): no double = gnubg's no-double equity ND, double =
  min(DT, 1) (a pass gives the doubler +1);
* "take or pass" (`kind = "take"`): take = -DT, pass = -1, from the taker's view.

So the equity lost by any answer is the best candidate's equity minus the answer's.
"""

from __future__ import annotations

import base64
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Final, Literal

import attrs

from fibsd.rules import BAR, OFF, Position, validate_play

__all__ = [
    "DEFAULT_THRESHOLD", "Candidate", "Grade", "Puzzle", "PuzzleError", "PuzzleKind",
    "apply_gnubg_play", "grade_cube", "grade_play", "position_from_id", "read_puzzles",
    "solving_score",
]

#: club-play.md / issue 37: OpenGammon's bar, in EMG.
DEFAULT_THRESHOLD: Final = 0.050

class PuzzleError(ValueError):
    """gnubg's puzzles could not be read (not what `GNUBG_SCRIPT` writes)."""


PuzzleKind = Literal["move", "double", "take"]
CubeOwner = Literal["centred", "mover", "opponent"]


@attrs.frozen
class Candidate:
    """One answer gnubg evaluated: a checker play in gnubg's notation (mover's own point
    numbers, `bar/22* 13/7(2)`) or a cube word (`no double`, `double`, `take`, `pass`)."""

    play: str
    equity: float  # EMG, the decider's view


@attrs.frozen
class Puzzle:
    """One decision of an analysed match that cost its player more than the threshold."""

    record_id: int
    game: int  # 1-based
    player: str  # the name of the player who erred, as in the match record
    kind: PuzzleKind
    position: str  # gnubg position ID, the decider on roll (for a take: the doubler's)
    dice: tuple[int, int] | None  # None for a cube decision
    length: int  # match length (0: unlimited)
    score: tuple[int, int]  # (the decider's, his opponent's) before the game
    cube: int
    cube_owner: CubeOwner
    crawford: bool
    played: str
    lost: float  # EMG, what the played answer cost
    #: Best first; for a checker play gnubg's list (it may list fewer than every legal
    #: play: an unlisted legal play is graded as the worst listed one, docs/puzzles.md).
    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def worst(self) -> Candidate:
        return min(self.candidates, key=lambda c: c.equity)

    @property
    def played_equity(self) -> float:
        return self.best.equity - self.lost

    def position_for_decider(self) -> Position:
        """The board with the decider as `me` (for a take: the doubled player)."""
        position = position_from_id(self.position)
        return position.swapped() if self.kind == "take" else position

    def to_dict(self) -> dict[str, object]:
        return attrs.asdict(self, recurse=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Puzzle:
        return _puzzle_from(data, str(data["player"]), _int(data["record_id"]))


def read_puzzles(
    raw: Sequence[object], *, record_id: int, names: tuple[str, str], threshold: float,
) -> tuple[Puzzle, ...]:
    """The puzzles of `GNUBG_SCRIPT`'s JSON list `puzzles` costing more than `threshold`
    (player 0 of the record is `names[0]`). PuzzleError if it is not what the script
    writes."""
    puzzles = []
    for item in raw:
        if not isinstance(item, Mapping):
            raise PuzzleError("a puzzle is not an object")
        side = _int(item["player"])
        if side not in (0, 1):
            raise PuzzleError(f"no player {side}")
        puzzle = _puzzle_from(item, names[side], record_id)
        if puzzle.lost > threshold:
            puzzles.append(puzzle)
    return tuple(puzzles)


def _puzzle_from(data: Mapping[str, object], player: str, record_id: int) -> Puzzle:
    try:
        kind = data["kind"]
        if kind not in ("move", "double", "take"):
            raise PuzzleError(f"unknown puzzle kind {kind!r}")
        owner = data["cube_owner"]
        if owner not in ("centred", "mover", "opponent"):
            raise PuzzleError(f"unknown cube owner {owner!r}")
        dice = _seq(data["dice"]) if data.get("dice") else []
        if dice and len(dice) != 2:
            raise PuzzleError(f"bad dice {dice!r}")
        score = _seq(data["score"])
        if len(score) != 2:
            raise PuzzleError(f"bad score {score!r}")
        candidates = tuple(
            Candidate(play=str(_map(c)["play"]), equity=_float(_map(c)["equity"]))
            for c in _seq(data["candidates"]))
        if not candidates:
            raise PuzzleError("a puzzle without candidates")
        return Puzzle(
            record_id=record_id, game=_int(data["game"]), player=player, kind=kind,
            position=str(data["position"]),
            dice=(_int(dice[0]), _int(dice[1])) if dice else None,
            length=_int(data["length"]), score=(_int(score[0]), _int(score[1])),
            cube=_int(data["cube"]), cube_owner=owner, crawford=bool(data["crawford"]),
            played=str(data["played"]), lost=_float(data["lost"]),
            candidates=tuple(sorted(candidates, key=lambda c: -c.equity)),
        )
    except KeyError as missing:
        raise PuzzleError(f"a puzzle lacks {missing}") from None


def _map(value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise PuzzleError(f"expected an object, got {type(value).__name__}")
    return value


def _seq(value: object) -> Sequence[object]:
    if not isinstance(value, list | tuple):
        raise PuzzleError(f"expected a list, got {type(value).__name__}")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PuzzleError(f"expected a whole number, got {value!r}")
    return value


def _float(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PuzzleError(f"expected a number, got {value!r}")
    return float(value)


# --- the position ---------------------------------------------------------------------


def position_from_id(position_id: str) -> Position:
    """gnubg's position ID (14 base64 characters: 80 bits, least significant bit of each
    byte first) as a `Position` with the player on roll as `me`. The bits are, for the
    player NOT on roll and then the player on roll, for each of his points 1..24 and his
    bar: as many 1s as checkers, then a 0 (gnubg's `PositionFromKey`; the real-gnubg
    test checks every puzzle's candidates are legal plays of the decoded position)."""
    try:
        key = base64.b64decode(position_id + "==", validate=True)
    except ValueError:
        raise PuzzleError(f"not a gnubg position ID: {position_id!r}") from None
    if len(position_id) != 14 or len(key) != 10:
        raise PuzzleError(f"not a gnubg position ID: {position_id!r}")
    bits = [(byte >> shift) & 1 for byte in key for shift in range(8)]
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side, slot = 0, 0
    for bit in bits:
        if side == 2:
            break
        if bit:
            sides[side][slot] += 1
        else:
            slot += 1
            if slot == 25:
                side, slot = side + 1, 0

    def own(counts: list[int]) -> tuple[int, ...]:
        on_board = sum(counts)
        if on_board > 15:
            raise PuzzleError(f"more than 15 checkers in {position_id!r}")
        return (15 - on_board, *counts[:24], counts[24])

    position = Position(own(sides[1]), own(sides[0]))
    try:
        position.check()
    except ValueError as error:
        raise PuzzleError(f"impossible position {position_id!r}: {error}") from None
    return position


_HOP: Final = re.compile(r"^(?P<path>(?:bar|off|\d+)\*?(?:/(?:bar|off|\d+)\*?)+)(?:\((?P<count>[1-4])\))?$")


def _point(word: str) -> int:
    word = word.rstrip("*")
    return BAR if word == "bar" else OFF if word == "off" else int(word)


def apply_gnubg_play(position: Position, play: str) -> Position:
    """The position after the mover plays `play`, in gnubg's notation (`bar/22* 13/7(2)`,
    `24/20*/16`, `6/off`); a checker landing on a lone opposing checker hits it."""
    me, opp = list(position.me), list(position.opp)
    for token in play.split():
        found = _HOP.match(token)
        if found is None:
            raise PuzzleError(f"not a gnubg play: {play!r}")
        points = [_point(word) for word in found["path"].split("/")]
        for _ in range(int(found["count"] or 1)):
            for start, end in itertools.pairwise(points):
                if not (OFF <= end < start <= BAR) or me[start] <= 0:
                    raise PuzzleError(f"{play!r} does not fit the position")
                me[start] -= 1
                me[end] += 1
                if end != OFF and opp[25 - end] == 1:
                    opp[25 - end] = 0
                    opp[BAR] += 1
    return Position(tuple(me), tuple(opp))


# --- grading ---------------------------------------------------------------------------


@attrs.frozen
class Grade:
    """What an answer cost: its equity, the equity it lost against the best candidate,
    and whether gnubg listed it (an unlisted legal play gets the worst listed equity)."""

    equity: float
    lost: float
    listed: bool


def grade_play(puzzle: Puzzle, moves: Sequence[tuple[int, int]]) -> Grade:
    """Grade a checker play typed as (from, to) steps in the mover's own numbering.
    Raises `fibsd.rules.IllegalPlay` (with FIBS's reason) if it is not a legal play."""
    if puzzle.kind != "move" or puzzle.dice is None:
        raise ValueError("not a checker-play puzzle")
    position = puzzle.position_for_decider()
    result = validate_play(position, puzzle.dice, moves).result
    for candidate in puzzle.candidates:
        if apply_gnubg_play(position, candidate.play) == result:
            return Grade(candidate.equity, puzzle.best.equity - candidate.equity, True)
    worst = puzzle.worst.equity
    return Grade(worst, puzzle.best.equity - worst, False)


CUBE_ANSWERS: Final[Mapping[str, frozenset[str]]] = {
    "double": frozenset({"double", "no double"}),
    "take": frozenset({"take", "pass"}),
}


def grade_cube(puzzle: Puzzle, answer: str) -> Grade:
    """Grade a cube answer (`double` or `no double`; `take` or `pass`)."""
    if answer not in CUBE_ANSWERS.get(puzzle.kind, frozenset()):
        raise ValueError(f"{answer!r} does not answer a {puzzle.kind} puzzle")
    [chosen] = [c for c in puzzle.candidates if c.play == answer]
    return Grade(chosen.equity, puzzle.best.equity - chosen.equity, True)


def solving_score(puzzle: Puzzle, grade: Grade) -> float:
    """The solver's score against the puzzle for its Glicko-2 rating (docs/puzzles.md):
    1 for the best answer, 0 for one that loses as much as the match's error or more,
    in between in proportion to the equity lost."""
    return min(1.0, max(0.0, 1.0 - grade.lost / puzzle.lost))
