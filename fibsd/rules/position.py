"""Positions: where the 30 checkers stand, seen from the side on roll.

Owns the board representation, the named points `BAR` and `OFF`, the opening position,
pip counts, the 26-hex-digit text form of the reference data, and the conversion between
a player's own point numbers and FIBS's absolute numbering. Knows nothing of dice, legal
plays, the cube or whose turn it is in a game.

Representation (the one used by GNU Backgammon and by tests/data/legal-plays.jsonl): a side
is a tuple of 26 checker counts in **its own** perspective: index `OFF` (0) = borne off,
1..24 = its points (it moves from 24 towards 1, its home board is 1..6), `BAR` (25) =
on the bar. A `Position` is the pair (`me`, `opp`): the side on roll and its opponent,
each in its own perspective, so the opponent's point q is the mover's point 25 - q.
"""

from __future__ import annotations

from typing import NamedTuple

OFF = 0
BAR = 25
CHECKERS = 15
POINTS = 24
HOME_SIZE = 6

Side = tuple[int, ...]
"""26 checker counts of one side in its own perspective (index OFF, 1..24, BAR)."""

OPENING_SIDE: Side = (
    0,
    0,
    0,
    0,
    0,
    0,
    5,
    0,
    3,
    0,
    0,
    0,
    0,
    5,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    2,
    0,
)


class InvalidPosition(ValueError):
    """A side or position that cannot occur (wrong length, counts, overlap)."""


def check_side(side: Side) -> None:
    """Raise InvalidPosition unless `side` is 26 counts of 0..15 adding up to 15."""
    if len(side) != BAR + 1:
        raise InvalidPosition(f"a side has {BAR + 1} entries, not {len(side)}")
    if any(not 0 <= n <= CHECKERS for n in side):
        raise InvalidPosition("checker counts must be 0..15")
    if sum(side) != CHECKERS:
        raise InvalidPosition(f"a side has {CHECKERS} checkers, not {sum(side)}")


def side_from_hex(text: str) -> Side:
    """The side written as 26 hex digits (the reference data's form)."""
    if len(text) != BAR + 1:
        raise InvalidPosition(f"expected {BAR + 1} hex digits, got {len(text)}")
    try:
        side = tuple(int(c, 16) for c in text)
    except ValueError as exc:
        raise InvalidPosition(f"not hex digits: {text!r}") from exc
    check_side(side)
    return side


def side_to_hex(side: Side) -> str:
    """The 26-hex-digit form of a side."""
    return "".join("0123456789abcdef"[n] for n in side)


class Position(NamedTuple):
    """Both sides' checkers; `me` is the side on roll. Immutable and cheap to hash.

    A NamedTuple rather than an attrs class because the move generator creates many of
    them and tuple construction is the cheapest immutable value Python has.
    """

    me: Side
    opp: Side

    @classmethod
    def opening(cls) -> Position:
        """The starting position of every game."""
        return cls(OPENING_SIDE, OPENING_SIDE)

    @classmethod
    def from_hex(cls, me: str, opp: str) -> Position:
        """From two 26-hex-digit strings (mover, opponent); checked for consistency."""
        pos = cls(side_from_hex(me), side_from_hex(opp))
        pos.check()
        return pos

    @classmethod
    def from_hex52(cls, text: str) -> Position:
        """From the 52-hex-digit form used for results in the reference data."""
        if len(text) != 2 * (BAR + 1):
            raise InvalidPosition(f"expected 52 hex digits, got {len(text)}")
        return cls.from_hex(text[: BAR + 1], text[BAR + 1 :])

    def to_hex(self) -> tuple[str, str]:
        """The (mover, opponent) 26-hex-digit strings."""
        return side_to_hex(self.me), side_to_hex(self.opp)

    def to_hex52(self) -> str:
        """Mover's 26 digits followed by the opponent's."""
        return side_to_hex(self.me) + side_to_hex(self.opp)

    def check(self) -> None:
        """Raise InvalidPosition unless both sides are valid and no point is shared."""
        check_side(self.me)
        check_side(self.opp)
        for p in range(1, POINTS + 1):
            if self.me[p] and self.opp[25 - p]:
                raise InvalidPosition(f"both sides have checkers on point {p}")

    def swapped(self) -> Position:
        """The same position seen from the other side (the opponent on roll)."""
        return Position(self.opp, self.me)

    def pip_count(self) -> tuple[int, int]:
        """(mover's pips, opponent's pips): the dice total each needs to bear off all."""
        return pip_count(self.me), pip_count(self.opp)

    def winner_side(self) -> int | None:
        """0 if the mover has borne off all checkers, 1 if the opponent has, else None."""
        if self.me[OFF] == CHECKERS:
            return 0
        if self.opp[OFF] == CHECKERS:
            return 1
        return None


def pip_count(side: Side) -> int:
    """Pips of one side: each checker counts its point number, the bar counts 25."""
    return sum(p * n for p, n in enumerate(side))


# --- FIBS absolute numbering -------------------------------------------------------------
# FIBS numbers the board once for both players: player O (direction -1) moves 24 -> 1,
# so its own point p is absolute p; player X (direction +1) moves 1 -> 24, so its own
# point p is absolute 25 - p. BAR and OFF are not board points and stay as they are.

DIRECTION_O = -1
DIRECTION_X = 1


def to_absolute(point: int, direction: int) -> int:
    """FIBS absolute point number of a player's own `point` (BAR and OFF unchanged)."""
    if point in (BAR, OFF):
        return point
    if not 1 <= point <= POINTS:
        raise ValueError(f"no such point: {point}")
    if direction == DIRECTION_O:
        return point
    if direction == DIRECTION_X:
        return 25 - point
    raise ValueError(f"direction must be -1 or +1, not {direction}")


def from_absolute(absolute: int, direction: int) -> int:
    """A player's own point number for FIBS absolute point `absolute` (its own inverse)."""
    return to_absolute(absolute, direction)
