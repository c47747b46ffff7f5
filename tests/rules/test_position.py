"""Positions: the opening, the hex form, checks, perspective and FIBS numbering."""

from __future__ import annotations

import pytest
from hypothesis import given

from fibsd.rules.position import (
    BAR,
    DIRECTION_O,
    DIRECTION_X,
    OFF,
    InvalidPosition,
    Position,
    from_absolute,
    pip_count,
    to_absolute,
)

from .generators import positions
from .helpers import pos


def test_named_points() -> None:
    assert (BAR, OFF) == (25, 0)


def test_opening_position() -> None:
    opening = Position.opening()
    assert opening.me == opening.opp
    assert {p: n for p, n in enumerate(opening.me) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert opening.pip_count() == (167, 167)
    assert opening.to_hex() == ("00000050300005000000000020",) * 2


def test_hex_round_trip_and_52_digit_form() -> None:
    p = pos({25: 1, 6: 4, 1: 2}, {23: 2, 18: 3})
    assert Position.from_hex(*p.to_hex()) == p
    assert Position.from_hex52(p.to_hex52()) == p
    assert p.to_hex52()[:26] == p.to_hex()[0]


@pytest.mark.parametrize(
    "me, opp",
    [
        ("0000005030000500000000002", "00000050300005000000000020"),  # 25 digits
        ("00000050300005000000000021", "00000050300005000000000020"),  # 16 checkers
        ("0000005030000500000000002g", "00000050300005000000000020"),  # not hex
        # both sides on the mover's point 24 (the opponent's point 1)
        ("00000050300005000000000020", "02000050300005000000000000"),
    ],
)
def test_invalid_positions_are_refused(me: str, opp: str) -> None:
    with pytest.raises(InvalidPosition):
        Position.from_hex(me, opp)


def test_pip_count_counts_the_bar_as_25() -> None:
    assert pip_count(pos({25: 1}, {}).me) == 25
    assert pip_count(pos({}, {}).me) == 0


@given(positions)
def test_swapped_twice_is_identity_and_hashable(p: Position) -> None:
    assert p.swapped().swapped() == p
    assert p.swapped().me == p.opp
    assert hash(p) == hash(Position(tuple(p.me), tuple(p.opp)))


def test_fibs_absolute_numbering() -> None:
    # O moves 24 -> 1 on the absolute board, X moves 1 -> 24
    assert to_absolute(24, DIRECTION_O) == 24
    assert to_absolute(24, DIRECTION_X) == 1
    assert to_absolute(6, DIRECTION_X) == 19
    assert to_absolute(BAR, DIRECTION_X) == BAR
    assert to_absolute(OFF, DIRECTION_O) == OFF
    for d in (DIRECTION_O, DIRECTION_X):
        for p in range(26):
            assert from_absolute(to_absolute(p, d), d) == p
    with pytest.raises(ValueError):
        to_absolute(3, 0)
    with pytest.raises(ValueError):
        to_absolute(26, DIRECTION_O)
