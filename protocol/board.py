"""The 53-field `board:` line of boardstyle 3 (FIBS reference §4.2), typed and named.

This module owns the field order, the FIBS sign and numbering conventions, and the strict
encode/decode of the line. It knows nothing of rules or sessions: the server's presentation
layer builds a `BoardLine` with `build_board_line` from each side's checkers counted in that
side's own perspective, so signs and orientation are derived here and nowhere else.

Conventions (absolute FIBS numbering, the same for every viewer):
* O moves 24→1 (absolute point = O's own point number), X moves 1→24 (absolute = 25 − own).
* Positive counts are O's checkers, negative counts X's.
* Slot 0 is X's bar (≤ 0), slot 25 is O's bar (≥ 0).
* Colour −1 = X: direction 1, home 25, bar 0. Colour 1 = O: direction −1, home 0, bar 25.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

FIELD_COUNT: Final = 53
UNLIMITED_MATCH_LENGTH: Final = 9999
CHECKERS_PER_SIDE: Final = 15
POINT_COUNT: Final = 24
X_BAR_SLOT: Final = 0  # board slot holding X's bar checkers (as a negative count)
O_BAR_SLOT: Final = 25  # board slot holding O's bar checkers (as a positive count)
YOU: Final = "You"  # the player field when the recipient is playing


class BoardLineError(ValueError):
    """A line is not a well-formed 53-field board line; the message says why."""


class Colour(enum.IntEnum):
    """A side, with FIBS' number for it (board fields colour and turn)."""

    X = -1
    O = 1

    @property
    def direction(self) -> int:
        """−1: moves 24→1 (O); 1: moves 1→24 (X)."""
        return -int(self)

    @property
    def home(self) -> int:
        """The obsolete home field: 0 for O, 25 for X."""
        return 0 if self is Colour.O else 25

    @property
    def bar(self) -> int:
        """The obsolete bar field: 25 for O, 0 for X."""
        return 25 if self is Colour.O else 0

    @property
    def opponent(self) -> Colour:
        return Colour.X if self is Colour.O else Colour.O

    def absolute_point(self, own_point: int) -> int:
        """FIBS' absolute number of this side's own point `own_point` (1..24)."""
        return own_point if self is Colour.O else 25 - own_point


#: Fields 41..44 (colour, direction, home, bar), which follow from the colour.
_COLOUR_FIELDS: Final = {
    colour: f"{int(colour)}:{colour.direction}:{colour.home}:{colour.bar}" for colour in Colour
}

#: What a name field of a board line may not contain (the field separator, white space).
_NOT_IN_NAME = re.compile(r"[:\s]")


def _check_name(_instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not value or _NOT_IN_NAME.search(value):
        raise BoardLineError(f"{attribute.name} must be a non-empty word without ':', got {value!r}")


def _check_points(_instance: object, _attribute: object, value: tuple[int, ...]) -> None:
    if len(value) != 26:
        raise BoardLineError(f"a board has 26 slots (bars and 24 points), got {len(value)}")
    if value[X_BAR_SLOT] > 0 or value[O_BAR_SLOT] < 0:
        raise BoardLineError("slot 0 holds X's bar (≤ 0) and slot 25 O's bar (≥ 0)")


def _int_tuple(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(map(int, values))


def _pair(value: Sequence[int]) -> tuple[int, int]:
    first, second = value
    return (int(first), int(second))


@attrs.frozen
class BoardLine:
    """Every field of a `board:` line, named; see the module docstring for conventions."""

    player: str = attrs.field(validator=_check_name)  # "You", or the watched player's name
    opponent: str = attrs.field(validator=_check_name)
    match_length: int  # UNLIMITED_MATCH_LENGTH (9999) for an unlimited match
    player_score: int
    opponent_score: int
    points: tuple[int, ...] = attrs.field(converter=_int_tuple, validator=_check_points)
    turn: Colour | None  # the colour to act; None between games (field value 0)
    player_dice: tuple[int, int] = attrs.field(converter=_pair)
    opponent_dice: tuple[int, int] = attrs.field(converter=_pair)
    cube: int
    player_may_double: bool
    opponent_may_double: bool
    was_doubled: bool  # the opponent has doubled the player and no answer yet
    colour: Colour  # the player's colour; direction/home/bar follow from it
    player_off: int
    opponent_off: int
    player_bar: int
    opponent_bar: int
    can_move: int  # checkers the side to move must move with the current roll (0..4)
    # Field 50, documented "forced move, don't use": non-zero (3) tells Gibbon/BaldLies that
    # the Crawford rule is off for a game that would be Crawford or post-Crawford (§4.2, §13).
    no_crawford: int = 0
    post_crawford: bool = False  # field 51, documented "did crawford"
    redoubles: int = 0  # maximum instant redoubles (unlimited matches)
    # The encoded line, kept once built: one board goes to every recipient with the same
    # viewpoint (players and watchers), and encoding was a tenth of a board's cost.
    _encoded: str | None = attrs.field(default=None, init=False, eq=False, repr=False, hash=False)

    @property
    def is_unlimited(self) -> bool:
        return self.match_length == UNLIMITED_MATCH_LENGTH

    @property
    def direction(self) -> int:
        return self.colour.direction

    def encode(self) -> str:
        """The line as sent, without a line terminator."""
        if self._encoded is None:
            object.__setattr__(self, "_encoded", self._encode())
        assert self._encoded is not None
        return self._encoded

    def _encode(self) -> str:
        turn = 0 if self.turn is None else int(self.turn)
        return (
            f"board:{self.player}:{self.opponent}:{self.match_length}:{self.player_score}:"
            f"{self.opponent_score}:{':'.join(map(str, self.points))}:{turn}:"
            f"{self.player_dice[0]}:{self.player_dice[1]}:"
            f"{self.opponent_dice[0]}:{self.opponent_dice[1]}:{self.cube}:"
            f"{int(self.player_may_double)}:{int(self.opponent_may_double)}:"
            f"{int(self.was_doubled)}:{_COLOUR_FIELDS[self.colour]}:"
            f"{self.player_off}:{self.opponent_off}:{self.player_bar}:{self.opponent_bar}:"
            f"{self.can_move}:{self.no_crawford}:{int(self.post_crawford)}:{self.redoubles}"
        )

    @classmethod
    def decode(cls, line: str) -> BoardLine:
        """Parse a board line strictly: 53 fields, integers, consistent colour fields."""
        fields = line.split(":")
        if len(fields) != FIELD_COUNT:
            raise BoardLineError(f"a board line has {FIELD_COUNT} fields, got {len(fields)}")
        if fields[0] != "board":
            raise BoardLineError(f"a board line starts with 'board:', got {fields[0]!r}")
        numbers: list[int] = []
        for index, field in enumerate(fields[3:], start=3):
            # int() would accept "+1", " 1" and "1_0"; clients' regexes accept only -?digits.
            digits = field.removeprefix("-")
            if not digits.isascii() or not digits.isdigit():
                raise BoardLineError(f"field {index} must be an integer, got {field!r}")
            numbers.append(int(field))

        def at(index: int) -> int:
            return numbers[index - 3]

        def flag(index: int) -> bool:
            if at(index) not in (0, 1):
                raise BoardLineError(f"field {index} must be 0 or 1, got {at(index)}")
            return at(index) == 1

        def colour_at(index: int) -> Colour:
            try:
                return Colour(at(index))
            except ValueError:
                raise BoardLineError(f"field {index} must be -1 or 1, got {at(index)}") from None

        colour = colour_at(41)
        for index, expected in ((42, colour.direction), (43, colour.home), (44, colour.bar)):
            if at(index) != expected:
                raise BoardLineError(
                    f"field {index} must be {expected} for colour {int(colour)}, got {at(index)}"
                )
        return cls(
            player=fields[1],
            opponent=fields[2],
            match_length=at(3),
            player_score=at(4),
            opponent_score=at(5),
            points=tuple(numbers[3:29]),
            turn=None if at(32) == 0 else colour_at(32),
            player_dice=(at(33), at(34)),
            opponent_dice=(at(35), at(36)),
            cube=at(37),
            player_may_double=flag(38),
            opponent_may_double=flag(39),
            was_doubled=flag(40),
            colour=colour,
            player_off=at(45),
            opponent_off=at(46),
            player_bar=at(47),
            opponent_bar=at(48),
            can_move=at(49),
            no_crawford=at(50),
            post_crawford=flag(51),
            redoubles=at(52),
        )

    def checkers(self, colour: Colour) -> Checkers:
        """`colour`'s checkers in its own perspective (the inverse of `build_board_line`)."""
        sign = int(colour)
        own_points = tuple(
            max(0, sign * self.points[colour.absolute_point(own)]) for own in range(1, 25)
        )
        bar_slot = O_BAR_SLOT if colour is Colour.O else X_BAR_SLOT
        bar = sign * self.points[bar_slot]
        off = self.player_off if colour is self.colour else self.opponent_off
        return Checkers(points=own_points, bar=bar, off=off)


@attrs.frozen
class Checkers:
    """One side's checkers in its own perspective: `points[0]` is its own 1-point (the
    last point before bearing off), `points[23]` its 24-point (where its back checkers
    start)."""

    points: tuple[int, ...] = attrs.field(converter=_int_tuple)
    bar: int = 0
    off: int = 0

    @points.validator
    def _check(self, _attribute: object, value: tuple[int, ...]) -> None:
        if len(value) != POINT_COUNT or any(count < 0 for count in value):
            raise BoardLineError("Checkers.points holds 24 non-negative counts")

    @classmethod
    def from_points(cls, counts: dict[int, int], *, bar: int = 0, off: int = 0) -> Checkers:
        """From `{own point: count}`, e.g. the opening `{24: 2, 13: 5, 8: 3, 6: 5}`."""
        return cls(points=tuple(counts.get(point, 0) for point in range(1, 25)), bar=bar, off=off)

    @classmethod
    def opening(cls) -> Checkers:
        return cls.from_points({24: 2, 13: 5, 8: 3, 6: 5})


def build_board_line(
    *,
    player: str,
    opponent: str,
    colour: Colour,
    player_checkers: Checkers,
    opponent_checkers: Checkers,
    match_length: int,
    player_score: int = 0,
    opponent_score: int = 0,
    turn: Colour | None = None,
    player_dice: tuple[int, int] = (0, 0),
    opponent_dice: tuple[int, int] = (0, 0),
    cube: int = 1,
    player_may_double: bool = True,
    opponent_may_double: bool = True,
    was_doubled: bool = False,
    can_move: int = 0,
    no_crawford: int = 0,
    post_crawford: bool = False,
    redoubles: int = 0,
) -> BoardLine:
    """A board line from `player`'s view, each side's checkers given in its own perspective.

    `colour` is the player's colour; `player` is `YOU` for a playing recipient, the watched
    player's name for a watcher.
    """
    points = [0] * 26
    for side, checkers in ((colour, player_checkers), (colour.opponent, opponent_checkers)):
        for own_point, count in enumerate(checkers.points, start=1):
            if count:
                slot = side.absolute_point(own_point)
                if points[slot]:
                    raise BoardLineError(f"both sides have checkers on point {slot}")
                points[slot] = int(side) * count
        points[O_BAR_SLOT if side is Colour.O else X_BAR_SLOT] = int(side) * checkers.bar
    return BoardLine(
        player=player,
        opponent=opponent,
        match_length=match_length,
        player_score=player_score,
        opponent_score=opponent_score,
        points=tuple(points),
        turn=turn,
        player_dice=player_dice,
        opponent_dice=opponent_dice,
        cube=cube,
        player_may_double=player_may_double,
        opponent_may_double=opponent_may_double,
        was_doubled=was_doubled,
        colour=colour,
        player_off=player_checkers.off,
        opponent_off=opponent_checkers.off,
        player_bar=player_checkers.bar,
        opponent_bar=opponent_checkers.bar,
        can_move=can_move,
        no_crawford=no_crawford,
        post_crawford=post_crawford,
        redoubles=redoubles,
    )


_BOARD_FIELDS: Final = tuple(
    field.name for field in attrs.fields(BoardLine) if field.init
)


def board_line_from_sides(
    *,
    player: str,
    opponent: str,
    colour: Colour,
    player_side: Sequence[int],
    opponent_side: Sequence[int],
    match_length: int,
    player_score: int,
    opponent_score: int,
    turn: Colour | None,
    player_dice: tuple[int, int],
    opponent_dice: tuple[int, int],
    cube: int,
    player_may_double: bool,
    opponent_may_double: bool,
    was_doubled: bool,
    can_move: int,
    no_crawford: int,
    post_crawford: bool,
    redoubles: int,
) -> BoardLine:
    """The same line as `build_board_line`, from sides already known to be a legal
    position, without the checks and conversions: the server's hot path (two boards or
    more per roll and per move).

    Each side is 26 integers in its own perspective: index 0 its checkers borne off,
    1..24 its own points, 25 its bar (the rules engine's layout). The names must be valid
    board-line names (the server's are: account names and `YOU`).
    """
    if colour is Colour.O:
        o_side, x_side = player_side, opponent_side
    else:
        o_side, x_side = opponent_side, player_side
    # O's own point p is absolute p; X's own point p is absolute 25 - p (module docstring).
    points = (-x_side[25], *[o_side[p] - x_side[25 - p] for p in range(1, 25)], o_side[25])
    values = (
        player, opponent, match_length, player_score, opponent_score, points, turn,
        player_dice, opponent_dice, cube, player_may_double, opponent_may_double,
        was_doubled, colour, player_side[0], opponent_side[0], player_side[25],
        opponent_side[25], can_move, no_crawford, post_crawford, redoubles,
    )
    line = BoardLine.__new__(BoardLine)
    for name, value in zip(_BOARD_FIELDS, values):
        object.__setattr__(line, name, value)
    object.__setattr__(line, "_encoded", None)
    return line
