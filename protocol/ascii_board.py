"""The ASCII boards of boardstyle 1 and 2 for telnet users (FIBS reference §4.6).

This module owns the layout only: it draws a `BoardLine` as FIBS does, from the view of
the board's player (O's view: O's home board bottom right; X's view: absolute points 1-12
on top). Clients never parse these boards; fidelity matters for people on telnet. The
words in it come from `protocol.wording`.

Geometry: indent 3; `|`; left half of 6 cells of 3 characters; `|`; the bar column (3);
`|`; right half of one space and 6 cells; `|`. Five rows per half, filled from the outer
edge inward; more than five checkers show their count in the innermost row.
"""

from __future__ import annotations

from typing import Final

from protocol.board import O_BAR_SLOT, X_BAR_SLOT, BoardLine, Colour
from protocol.wording import Text, render

ROWS_PER_HALF: Final = 5
_INDENT: Final = "   "
_CELLS_PER_HALF: Final = 6


def _symbol(colour: Colour) -> str:
    return colour.name


def _cell(count: int, colour: Colour, row_from_edge: int) -> str:
    """The 3-character cell of a point (or the bar) holding `count` checkers of `colour`,
    in row `row_from_edge` (0 = outer edge, 4 = innermost)."""
    if count > ROWS_PER_HALF and row_from_edge == ROWS_PER_HALF - 1:
        return f"{count:2d} "
    if count > row_from_edge:
        return f" {_symbol(colour)} "
    return "   "


def _point_cell(board: BoardLine, point: int, row_from_edge: int) -> str:
    value = board.points[point]
    if value == 0:
        return "   "
    return _cell(abs(value), Colour.O if value > 0 else Colour.X, row_from_edge)


def _bar_cell(board: BoardLine, colour: Colour, row_from_edge: int) -> str:
    count = abs(board.points[O_BAR_SLOT if colour is Colour.O else X_BAR_SLOT])
    return _cell(count, colour, row_from_edge)


def _layout(colour: Colour) -> tuple[list[int], list[int]]:
    """Absolute point numbers of the top and bottom rows, left to right, for a player of
    `colour`."""
    if colour is Colour.O:
        return list(range(13, 25)), list(range(12, 0, -1))
    return list(range(1, 13)), list(range(24, 12, -1))


def _row(board: BoardLine, points: list[int], bar_colour: Colour, row_from_edge: int) -> str:
    cells = [_point_cell(board, point, row_from_edge) for point in points]
    left = "".join(cells[:_CELLS_PER_HALF])
    right = "".join(cells[_CELLS_PER_HALF:])
    bar = _bar_cell(board, bar_colour, row_from_edge)
    return f"{_INDENT}|{left}|{bar}| {right}|"


def _numbered_border(points: list[int]) -> str:
    cells = [f"{point:->2}-" for point in points]
    return (
        f"{_INDENT}+{''.join(cells[:_CELLS_PER_HALF])}-----"
        f"-{''.join(cells[_CELLS_PER_HALF:])}+"
    )


def _number_line(points: list[int]) -> str:
    return _numbered_border(points).replace("-", " ").replace("+", " ").rstrip()


def _plain_border() -> str:
    return f"{_INDENT}+{'-' * 42}+"


def render_ascii_board(
    board: BoardLine, *, style: int, player_name: str | None = None,
    cube_owner: str | None = None,
    clocks: tuple[str, str] | None = None,
) -> list[str]:
    """The board as FIBS draws it for boardstyle `style` (1: point numbers in the borders,
    2: on lines of their own). `player_name` replaces `You` in the player's border label;
    `cube_owner` names the cube's owner when he is neither side's name on the board (a
    chouette crew member's own cube). `clocks` (fibsd's match clocks): the player's and
    the opponent's time, shown after their border labels."""
    if style not in (1, 2):
        raise ValueError(f"ASCII boards are styles 1 and 2, got {style}")
    player, opponent = board.colour, board.colour.opponent
    top_points, bottom_points = _layout(player)
    shown_player = player_name or board.player
    top_label = render(
        Text.BOARD_BORDER_LABEL, colour=opponent.name, name=board.opponent,
        score=board.opponent_score,
    )
    bottom_label = render(
        Text.BOARD_BORDER_LABEL, colour=player.name, name=shown_player, score=board.player_score
    )
    if clocks is not None:
        bottom_label += render(Text.BOARD_CLOCK, text=clocks[0])
        top_label += render(Text.BOARD_CLOCK, text=clocks[1])

    lines: list[str] = []
    if style == 1:
        lines.append(f"{_numbered_border(top_points)} {top_label}")
    else:
        lines += [_number_line(top_points), f"{_plain_border()} {top_label}"]
    # The opponent's side is drawn at the top, so are its bar checkers.
    lines += [_row(board, top_points, opponent, row) for row in range(ROWS_PER_HALF)]

    length = (
        Text.BOARD_UNLIMITED_MATCH.value
        if board.is_unlimited
        else render(Text.BOARD_MATCH_LENGTH, length=board.match_length)
    )
    empty_half_left, empty_half_right = " " * 18, " " * 19
    bar_word = Text.BOARD_BAR_COLUMN.value
    middle = f"|{empty_half_left}|{bar_word}|{empty_half_right}|"
    # FIBS puts the direction mark `v` left of the board in O's view, right of it in X's.
    if player is Colour.O:
        lines.append(f"  v{middle}    {length}")
    else:
        lines.append(f"{_INDENT}{middle}v    {length}")

    bottom_rows = [
        _row(board, bottom_points, player, row) for row in reversed(range(ROWS_PER_HALF))
    ]
    if board.is_unlimited:
        redoubles = (
            Text.BOARD_NO_REDOUBLES.value
            if board.redoubles == 0
            else render(Text.BOARD_REDOUBLES, n=board.redoubles)
        )
        bottom_rows[0] += f"     {redoubles}"
    lines += bottom_rows
    if style == 1:
        lines.append(f"{_numbered_border(bottom_points)} {bottom_label}")
    else:
        lines += [f"{_plain_border()} {bottom_label}", _number_line(bottom_points)]

    lines += ["", f"{_INDENT}{_footer(board, shown_player, cube_owner)}"]
    return lines


def _footer(board: BoardLine, shown_player: str, cube_owner: str | None = None) -> str:
    o_checkers, x_checkers = board.checkers(Colour.O), board.checkers(Colour.X)
    counts = render(
        Text.BOARD_COUNTS, o_bar=o_checkers.bar, x_bar=x_checkers.bar, o_off=o_checkers.off,
        x_off=x_checkers.off, cube=board.cube,
    )
    if board.player_may_double != board.opponent_may_double:
        owner = cube_owner or (shown_player if board.player_may_double else board.opponent)
        counts += render(Text.BOARD_CUBE_OWNER, name=owner)
    if any(board.player_dice):
        status = render(
            Text.BOARD_ROLLED, name=board.player, die1=board.player_dice[0],
            die2=board.player_dice[1],
        )
    elif any(board.opponent_dice):
        status = render(
            Text.BOARD_ROLLED, name=board.opponent, die1=board.opponent_dice[0],
            die2=board.opponent_dice[1],
        )
    elif board.turn is not None:
        status = render(
            Text.BOARD_TURN, name=shown_player if board.turn is board.colour else board.opponent
        )
    else:
        status = ""
    return f"{counts}  {status}".rstrip()
