"""protocol.board: the 53-field board line, the reference's worked examples, strict
decoding, and the round trip of generated positions for both colours."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.board import (
    FIELD_COUNT,
    O_BAR_SLOT,
    UNLIMITED_MATCH_LENGTH,
    X_BAR_SLOT,
    YOU,
    BoardLine,
    BoardLineError,
    Checkers,
    Colour,
    build_board_line,
)

# §4.3: you are O, opening roll 6-2 in a 3-point match.
EXAMPLE_START = (
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2"
    ":0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)
# §4.4: watching imlooney (X) with one checker on the bar.
EXAMPLE_WATCHING = (
    "board:imlooney:Brahms:5:1:2:-1:-1:0:0:2:0:4:3:1:1:0:0:-4:3:0:0:0:-1:0:-4:-2:0:-2:0:1:0:-1"
    ":0:0:0:0:1:1:1:0:-1:1:25:0:0:0:1:0:2:0:0:0"
)
# §4.5: unlimited match, you are X, the opponent owns the cube at 2.
EXAMPLE_UNLIMITED = (
    "board:You:GibbonTestD:9999:0:0:0:-2:0:0:0:0:5:0:3:0:1:0:-4:4:1:0:0:-2:-2:-5:0:0:0:0:1:0:-1"
    ":5:6:0:0:2:0:1:0:-1:1:25:0:0:0:0:0:2:0:0:0"
)


def test_worked_example_start_of_game_is_built_exactly() -> None:
    board = build_board_line(
        player=YOU, opponent="someplayer", colour=Colour.O,
        player_checkers=Checkers.opening(), opponent_checkers=Checkers.opening(),
        match_length=3, turn=Colour.O, player_dice=(6, 2), can_move=2,
    )
    assert board.encode() == EXAMPLE_START
    assert BoardLine.decode(EXAMPLE_START) == board


def test_worked_example_watching_decodes_with_x_on_the_bar() -> None:
    board = BoardLine.decode(EXAMPLE_WATCHING)
    assert board.player == "imlooney" and board.opponent == "Brahms"
    assert (board.match_length, board.player_score, board.opponent_score) == (5, 1, 2)
    assert board.colour is Colour.X and board.direction == 1
    assert board.points[X_BAR_SLOT] == -1 and board.player_bar == 1
    assert board.turn is Colour.X and board.player_dice == (0, 0)
    assert board.checkers(Colour.X).bar == 1
    assert board.encode() == EXAMPLE_WATCHING


def test_worked_example_unlimited_match_with_owned_cube_is_built_exactly() -> None:
    decoded = BoardLine.decode(EXAMPLE_UNLIMITED)
    assert decoded.is_unlimited and decoded.match_length == UNLIMITED_MATCH_LENGTH
    assert (decoded.cube, decoded.player_may_double, decoded.opponent_may_double) == (2, False, True)
    rebuilt = build_board_line(
        player=YOU, opponent="GibbonTestD", colour=Colour.X,
        player_checkers=decoded.checkers(Colour.X), opponent_checkers=decoded.checkers(Colour.O),
        match_length=UNLIMITED_MATCH_LENGTH, turn=Colour.X, player_dice=(5, 6), cube=2,
        player_may_double=False, opponent_may_double=True, can_move=2,
    )
    assert rebuilt.encode() == EXAMPLE_UNLIMITED


def test_numbering_and_signs_follow_fibs() -> None:
    # X's own 24-point is FIBS point 1; O's own 24-point is FIBS point 24.
    as_x = build_board_line(
        player=YOU, opponent="o", colour=Colour.X,
        player_checkers=Checkers.from_points({24: 1, 1: 2}, bar=3),
        opponent_checkers=Checkers.from_points({6: 4}, bar=1), match_length=1,
    )
    assert as_x.points[1] == -1 and as_x.points[24] == -2
    assert as_x.points[6] == 4
    assert as_x.points[X_BAR_SLOT] == -3 and as_x.points[O_BAR_SLOT] == 1
    assert (as_x.player_bar, as_x.opponent_bar) == (3, 1)
    fields = as_x.encode().split(":")
    assert fields[41:45] == ["-1", "1", "25", "0"]
    as_o = build_board_line(
        player=YOU, opponent="x", colour=Colour.O, player_checkers=Checkers.opening(),
        opponent_checkers=Checkers.opening(), match_length=1,
    )
    assert as_o.encode().split(":")[41:45] == ["1", "-1", "0", "25"]


def test_turn_zero_between_games_and_flags_are_encoded_as_integers() -> None:
    board = BoardLine.decode(EXAMPLE_START)
    between = build_board_line(
        player=YOU, opponent="someplayer", colour=Colour.O,
        player_checkers=Checkers.opening(), opponent_checkers=Checkers.opening(),
        match_length=3, turn=None, was_doubled=True, post_crawford=True, no_crawford=3,
        redoubles=2,
    )
    fields = between.encode().split(":")
    assert fields[32] == "0" and fields[40] == "1"
    assert fields[50:] == ["3", "1", "2"]
    assert BoardLine.decode(between.encode()) == between
    assert board.turn is Colour.O


def test_both_sides_on_one_point_is_refused() -> None:
    with pytest.raises(BoardLineError):
        build_board_line(
            player=YOU, opponent="x", colour=Colour.O,
            player_checkers=Checkers.from_points({1: 1}),
            opponent_checkers=Checkers.from_points({24: 1}), match_length=1,
        )


def _replace_field(line: str, index: int, value: str) -> str:
    fields = line.split(":")
    fields[index] = value
    return ":".join(fields)


@pytest.mark.parametrize(
    "line",
    [
        EXAMPLE_START + ":0",  # 54 fields
        EXAMPLE_START.rsplit(":", 1)[0],  # 52 fields
        "bored" + EXAMPLE_START[5:],
        _replace_field(EXAMPLE_START, 6, "1.0"),
        _replace_field(EXAMPLE_START, 6, "+1"),
        _replace_field(EXAMPLE_START, 6, " 1"),
        _replace_field(EXAMPLE_START, 6, ""),
        _replace_field(EXAMPLE_START, 6, "٣"),  # a non-ASCII digit
        _replace_field(EXAMPLE_START, 38, "2"),  # may double is 0 or 1
        _replace_field(EXAMPLE_START, 41, "0"),  # colour is -1 or 1
        _replace_field(EXAMPLE_START, 42, "1"),  # direction contradicts colour
        _replace_field(EXAMPLE_START, 32, "5"),  # turn is -1, 0 or 1
        _replace_field(EXAMPLE_START, 1, ""),
        _replace_field(EXAMPLE_START, 6, "3"),  # O checkers on X's bar slot
    ],
)
def test_decode_is_strict(line: str) -> None:
    with pytest.raises(BoardLineError):
        BoardLine.decode(line)


# --- generated positions ---------------------------------------------------------------


@st.composite
def two_sides(draw: st.DrawFn) -> tuple[Checkers, Checkers, Colour]:
    """Checkers of a player of some colour and of the opponent, no point shared."""
    colour = draw(st.sampled_from(Colour))
    occupied: dict[int, Colour] = {}
    sides = []
    for side in (colour, colour.opponent):
        counts = [0] * 24
        bar = draw(st.integers(0, 3))
        remaining = 15 - bar
        for _ in range(draw(st.integers(0, 8))):
            own_point = draw(st.integers(1, 24))
            slot = side.absolute_point(own_point)
            if occupied.get(slot, side) is not side or remaining == 0:
                continue
            count = draw(st.integers(1, remaining))
            occupied[slot] = side
            counts[own_point - 1] += count
            remaining -= count
        sides.append(Checkers(points=tuple(counts), bar=bar, off=remaining))
    return sides[0], sides[1], colour


names = st.text(string.ascii_letters + "_", min_size=1, max_size=20)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def board_lines(draw: st.DrawFn) -> BoardLine:
    player_checkers, opponent_checkers, colour = draw(two_sides())
    rolled = draw(st.sampled_from(["player", "opponent", "nobody"]))
    return build_board_line(
        player=draw(st.one_of(st.just(YOU), names)),
        opponent=draw(names),
        colour=colour,
        player_checkers=player_checkers,
        opponent_checkers=opponent_checkers,
        match_length=draw(st.one_of(st.integers(1, 25), st.just(UNLIMITED_MATCH_LENGTH))),
        player_score=draw(st.integers(0, 30)),
        opponent_score=draw(st.integers(0, 30)),
        turn=draw(st.sampled_from([Colour.X, Colour.O, None])),
        player_dice=draw(dice) if rolled == "player" else (0, 0),
        opponent_dice=draw(dice) if rolled == "opponent" else (0, 0),
        cube=draw(st.sampled_from([1, 2, 4, 8, 64])),
        player_may_double=draw(st.booleans()),
        opponent_may_double=draw(st.booleans()),
        was_doubled=draw(st.booleans()),
        can_move=draw(st.integers(0, 4)),
        no_crawford=draw(st.sampled_from([0, 3])),
        post_crawford=draw(st.booleans()),
        redoubles=draw(st.integers(0, 5)),
    )


@settings(deadline=None)  # timing varies on a shared machine; no per-example deadline
@given(board_lines())
def test_generated_boards_round_trip(board: BoardLine) -> None:
    line = board.encode()
    assert len(line.split(":")) == FIELD_COUNT
    assert BoardLine.decode(line) == board


@settings(deadline=None)  # timing varies on a shared machine; no per-example deadline
@given(two_sides())
def test_build_then_checkers_gives_back_each_side(sides: tuple[Checkers, Checkers, Colour]) -> None:
    player_checkers, opponent_checkers, colour = sides
    board = build_board_line(
        player=YOU, opponent="opp", colour=colour, player_checkers=player_checkers,
        opponent_checkers=opponent_checkers, match_length=5,
    )
    assert board.checkers(colour) == player_checkers
    assert board.checkers(colour.opponent) == opponent_checkers
    assert sum(value for value in board.points if value > 0) == sum(
        (player_checkers if colour is Colour.O else opponent_checkers).points
    ) + board.points[O_BAR_SLOT]
