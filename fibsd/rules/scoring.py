"""Game results and their worth: single, gammon or backgammon, times the cube.

Owns `game_result` (read off the loser's checkers) and `game_points` (value x cube,
with the Jacoby rule). Knows nothing of turns or match scores (the match adds them).
"""

from __future__ import annotations

from .events import GameResult
from .position import BAR, OFF, Side


def game_result(loser: Side) -> GameResult:
    """The result for the winner, from the loser's checkers (loser's own perspective).

    Gammon: the loser bore off nothing. Backgammon: also a loser's checker on the bar or
    in the winner's home board (the loser's points 19..24).
    """
    if loser[OFF]:
        return GameResult.SINGLE
    if any(loser[19 : BAR + 1]):
        return GameResult.BACKGAMMON
    return GameResult.GAMMON


def game_points(
    result: GameResult, cube: int, *, cube_turned: bool, jacoby: bool
) -> int:
    """Points for a result at `cube`. Under the Jacoby rule (money play only) gammons and
    backgammons count as single while the cube has not been turned (is centred)."""
    value = result.value
    if jacoby and not cube_turned:
        value = 1
    return value * cube
