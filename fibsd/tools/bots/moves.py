"""Between the board a bot sees and the rules engine: positions in, FIBS move lines out.

Owns two conversions. A `board:` line numbers points absolutely (O moves 24→1, X moves
1→24, signs say whose checkers); `fibsd.rules` wants the mover's own perspective
(`Position(me, opp)`, each side 24→1 with `OFF` = 0 and `BAR` = 25). And a chosen `Play`
(own perspective) must go back on the wire in absolute numbers with `bar`/`off`, which
`protocol.commands.format_command` writes. Nothing here talks to a socket.
"""

from __future__ import annotations

from fibsd.rules import BAR, OFF, Play, Position, to_absolute
from fibsd.rules.position import Side
from protocol.board import BoardLine, Checkers, Colour
from protocol.commands import Move, MovePoint, Place, format_command

__all__ = ["play_command", "play_line", "position_of", "side_of"]


def side_of(checkers: Checkers) -> Side:
    """A `protocol.board.Checkers` (own perspective) as the rules engine's 26-tuple."""
    return (checkers.off, *checkers.points, checkers.bar)


def position_of(board: BoardLine, mover: Colour | None = None) -> Position:
    """The position with `mover` (default: the board's own player) to play."""
    colour = board.colour if mover is None else mover
    return Position(side_of(board.checkers(colour)), side_of(board.checkers(colour.opponent)))


def _wire_point(point: int, colour: Colour) -> MovePoint:
    if point == BAR:
        return Place.BAR
    if point == OFF:
        return Place.OFF
    return to_absolute(point, colour.direction)


def play_command(play: Play, colour: Colour) -> Move:
    """The `move` command for `play` made by the player of `colour`."""
    return Move(tuple((_wire_point(m.from_point, colour), _wire_point(m.to_point, colour))
                      for m in play.moves))


def play_line(play: Play, colour: Colour) -> str:
    """`play` as the line the bot sends, e.g. `move 1-7 7-12` or `move bar-22 6-off`."""
    return format_command(play_command(play, colour))
