"""protocol.ascii_board: the boardstyle 1 and 2 boards of the reference (§4.6)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from protocol.ascii_board import render_ascii_board
from protocol.board import (
    UNLIMITED_MATCH_LENGTH,
    YOU,
    BoardLine,
    Checkers,
    Colour,
    build_board_line,
)
from tests.protocol.test_board import board_lines

OPENING_O_VIEW_STYLE_1 = [
    "   +13-14-15-16-17-18-------19-20-21-22-23-24-+ X: someplayer - score: 0",
    "   | O           X    |   |  X              O |",
    "   | O           X    |   |  X              O |",
    "   | O           X    |   |  X                |",
    "   | O                |   |  X                |",
    "   | O                |   |  X                |",
    "  v|                  |BAR|                   |    3-point match",
    "   | X                |   |  O                |",
    "   | X                |   |  O                |",
    "   | X           O    |   |  O                |",
    "   | X           O    |   |  O              X |",
    "   | X           O    |   |  O              X |",
    "   +12-11-10--9--8--7--------6--5--4--3--2--1-+ O: myself - score: 0",
    "",
    "   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  You rolled 6 2.",
]


def opening(colour: Colour, *, match_length: int = 3, **state: object) -> BoardLine:
    return build_board_line(
        player=YOU, opponent="someplayer", colour=colour, player_checkers=Checkers.opening(),
        opponent_checkers=Checkers.opening(), match_length=match_length, **state,  # type: ignore[arg-type]
    )


def test_the_opening_board_from_o_view_is_the_reference_board_line_by_line() -> None:
    board = opening(Colour.O, turn=Colour.O, player_dice=(6, 2), can_move=2)
    assert render_ascii_board(board, style=1, player_name="myself") == OPENING_O_VIEW_STYLE_1


def test_x_view_numbers_the_borders_the_other_way_and_moves_the_direction_mark() -> None:
    lines = render_ascii_board(opening(Colour.X, match_length=5), style=1, player_name="myself")
    assert lines[0] == "   +-1--2--3--4--5--6--------7--8--9-10-11-12-+ O: someplayer - score: 0"
    assert lines[6] == "   |                  |BAR|                   |v    5-point match"
    assert lines[12] == "   +24-23-22-21-20-19-------18-17-16-15-14-13-+ X: myself - score: 0"
    # FIBS points 1-12 on top: X's back checkers (1) left, O's 6- and 8-points, X's 12.
    assert lines[1] == "   | X              O |   |     O           X |"


def test_style_2_puts_point_numbers_on_lines_of_their_own() -> None:
    o_view = render_ascii_board(opening(Colour.O), style=2, player_name="myself")
    assert o_view[:2] == [
        "    13 14 15 16 17 18       19 20 21 22 23 24",
        "   +------------------------------------------+ X: someplayer - score: 0",
    ]
    assert o_view[13:15] == [
        "   +------------------------------------------+ O: myself - score: 0",
        "    12 11 10  9  8  7        6  5  4  3  2  1",
    ]
    assert len(o_view) == len(OPENING_O_VIEW_STYLE_1) + 2
    x_view = render_ascii_board(opening(Colour.X), style=2)
    assert x_view[0] == "     1  2  3  4  5  6        7  8  9 10 11 12"
    assert x_view[14] == "    24 23 22 21 20 19       18 17 16 15 14 13"


def test_more_than_five_checkers_show_their_count_in_the_innermost_row() -> None:
    board = build_board_line(
        player="watched", opponent="other", colour=Colour.O,
        player_checkers=Checkers.from_points({6: 9, 13: 6}),
        opponent_checkers=Checkers.from_points({6: 15}), match_length=7, turn=Colour.X,
    )
    lines = render_ascii_board(board, style=1)
    # O's 13-point is the first top cell, X's checkers on FIBS 19 the first right cell.
    assert lines[5] == "   | 6                |   | 15                |"
    assert lines[7] == "   |                  |   |  9                |"
    assert lines[11] == "   |                  |   |  O                |"
    assert lines[-1] == "   BAR: O-0 X-0   OFF: O-0 X-0   Cube: 1  turn: other"


def test_bar_checkers_sit_on_their_owners_half_and_the_footer_counts_them() -> None:
    board = build_board_line(
        player=YOU, opponent="someplayer", colour=Colour.O,
        player_checkers=Checkers.from_points({6: 12}, bar=2, off=1),
        opponent_checkers=Checkers.from_points({6: 10}, bar=1, off=4), match_length=3,
        turn=Colour.X, opponent_dice=(3, 1), cube=2, player_may_double=False,
    )
    lines = render_ascii_board(board, style=1, player_name="myself")
    assert lines[1] == "   |                  | X |  X                |"  # X's bar: top, outer row
    assert lines[2].startswith("   |                  |   |")
    assert lines[11] == "   |                  | O |  O                |"  # O's bar: bottom edge
    assert lines[10] == "   |                  | O |  O                |"
    assert lines[-1] == (
        "   BAR: O-2 X-1   OFF: O-1 X-4   Cube: 2 (owned by someplayer)  someplayer rolled 3 1."
    )


def test_unlimited_match_says_so_and_tells_the_redoubles() -> None:
    lines = render_ascii_board(opening(Colour.O, match_length=UNLIMITED_MATCH_LENGTH), style=1)
    assert lines[6].endswith("|    unlimited match")
    assert lines[7].endswith("|     No redoubles")
    with_redoubles = opening(Colour.O, match_length=UNLIMITED_MATCH_LENGTH, redoubles=2)
    assert render_ascii_board(with_redoubles, style=1)[7].endswith("|     2 redoubles")


def test_only_styles_1_and_2_are_ascii() -> None:
    with pytest.raises(ValueError):
        render_ascii_board(opening(Colour.O), style=3)


@settings(deadline=None)  # timing varies on a shared machine; no per-example deadline
@given(board_lines())
def test_every_generated_board_has_the_fixed_geometry(board: BoardLine) -> None:
    for style, count in ((1, 15), (2, 17)):
        lines = render_ascii_board(board, style=style)
        assert len(lines) == count
        rows = [line for line in lines if line.startswith(("   |", "  v|"))]
        assert len(rows) == 11
        for row in rows:
            assert row[3] == "|" and row[22] == "|" and row[26] == "|" and row[46] == "|"
        assert all(line == line.rstrip() for line in lines)
        assert not any(line[:1].isdigit() for line in lines)
