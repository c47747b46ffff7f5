"""FIBS move notation: absolute point numbers on the wire, own-perspective in the rules.

In FIBS, O moves 24→1 and X moves 1→24 (absolute numbering, §4.2 of the reference); the
rules engine numbers every player's points from his own side (24→1, BAR = 25, OFF = 0).
This module converts between the two, writes move lists (`13-8 24-23`, `bar-22`, `6-off`)
and words a rejected play with FIBS's error sentences.
"""

from __future__ import annotations

from collections.abc import Sequence

from fibsd.rules import BAR, OFF, IllegalPlay, Move, PlayReason
from protocol.commands import Place
from protocol.messages import TextLine
from protocol.wording import Text

_ORDINALS = ("first", "second", "third", "fourth")


def own_point(point: int | Place, *, is_o: bool) -> int:
    """A point as typed (absolute, or bar/off) in the mover's own numbering."""
    if point is Place.BAR:
        return BAR
    if point is Place.OFF:
        return OFF
    assert isinstance(point, int)
    return point if is_o else 25 - point


def absolute_text(point: int, *, is_o: bool) -> str:
    """An own-perspective point as FIBS writes it for this mover."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point if is_o else 25 - point)


def moves_text(moves: Sequence[Move], *, is_o: bool) -> str:
    """`13-8 24-23`: the moves of a play in FIBS notation."""
    return " ".join(
        f"{absolute_text(m.from_point, is_o=is_o)}-{absolute_text(m.to_point, is_o=is_o)}"
        for m in moves
    )


def bearoff_text(moves: Sequence[Move], *, is_o: bool) -> str:
    """`6 o 5 o`: FIBS's greedy bear-off line."""
    return " ".join(f"{absolute_text(m.from_point, is_o=is_o)} o" for m in moves)


def play_error(error: IllegalPlay, *, is_o: bool) -> TextLine:
    """FIBS's sentence for an illegal play (§5.5)."""
    ordinal = _ORDINALS[min(max((error.move_index or 1) - 1, 0), 3)]
    point = absolute_text(error.point, is_o=is_o) if error.point is not None else "?"
    match error.reason:
        case PlayReason.TOO_FEW_MOVES | PlayReason.NOT_MAXIMAL:
            return TextLine.of(Text.MUST_GIVE_MOVES, n=max(error.required, 1))
        case PlayReason.TOO_MANY_MOVES:
            return TextLine.of(Text.TOO_MANY_MOVES, n=max(error.required, 0))
        case PlayReason.NO_CHECKER:
            return TextLine.of(Text.CANT_MOVE_FROM, point=point, ordinal=ordinal)
        case PlayReason.NO_SUCH_DIE | PlayReason.WRONG_DIRECTION | PlayReason.MUST_USE_LARGER:
            return TextLine.of(Text.CANT_MOVE_DISTANCE, n=abs(error.distance or 0), ordinal=ordinal)
        case PlayReason.BLOCKED:
            return TextLine.of(Text.CANT_MOVE_TO, point=point, ordinal=ordinal)
        case PlayReason.BAR_FIRST:
            return TextLine.of(Text.MUST_ENTER_FROM_BAR, ordinal=ordinal)
        case PlayReason.NOT_HIGHEST:
            return TextLine.of(Text.CANT_REMOVE_PIECE, ordinal=ordinal)
        case PlayReason.CANNOT_BEAR_OFF_YET:
            return TextLine.of(Text.CANT_MOVE_HOME, ordinal=ordinal)
