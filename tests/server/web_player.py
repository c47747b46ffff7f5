"""A player at the web page, for the browser tests: he reads the board the page holds
(`fibsd.board`, the last board: line it parsed), chooses one of the legal plays (fibsd's
own move generator, seeded), and makes it the way a person does, by clicking checkers and
points on the drawn board, then Confirm. He knows the rules; the page under test does not
have to."""

from __future__ import annotations

import random
from typing import Any

from fibsd.rules.movegen import legal_plays
from fibsd.rules.position import BAR, OFF, Position


def position_of(board: dict[str, Any]) -> Position:
    """The page's parsed board as the move generator's position, the viewer on roll."""
    points, colour, direction = board["points"], board["colour"], board["direction"]

    def absolute(q: int) -> int:  # the viewer's own point q
        return q if direction == -1 else 25 - q

    me = [0] * 26
    opp = [0] * 26
    for q in range(1, 25):
        count = points[absolute(q)] * colour
        if count > 0:
            me[q] = count
        elif count < 0:
            opp[25 - q] = -count
    me[BAR], opp[BAR] = board["onBar"]
    me[OFF], opp[OFF] = board["off"]
    return Position(tuple(me), tuple(opp))


def choose_play(board: dict[str, Any], rng: random.Random) -> list[tuple[str, str]]:
    """One legal play for the board's dice, as clicks: [(from, to)], each a CSS selector
    of the drawn board (the viewer's point numbers, the bar, the tray)."""
    plays = legal_plays(position_of(board), (board["dice"][0], board["dice"][1]))
    play = rng.choice(plays)

    def where(point: int) -> str:
        if point == BAR:
            return '#board [data-point="bar"]'
        if point == OFF:
            return '#board [data-point="off"]'
        return f'#board [data-q="{point}"]'

    return [(where(move.from_point), where(move.to_point)) for move in play.moves]
