"""Validation of typed plays: every reason, its details, and order independence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fibsd.rules.errors import IllegalPlay, PlayReason, RuleError
from fibsd.rules.movegen import legal_plays, moves_required
from fibsd.rules.position import BAR, OFF, Position
from fibsd.rules.validate import validate_play

from .generators import dice, positions
from .helpers import pos

OPENING = Position.opening()


def reject(
    p: Position, roll: tuple[int, int], steps: list[tuple[int, int]]
) -> IllegalPlay:
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, roll, steps)
    assert isinstance(err.value, RuleError)
    return err.value


def test_accepts_a_legal_play_and_reports_hits() -> None:
    p = pos(
        {13: 5, 8: 3, 6: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 22: 1, 23: 1}
    )  # blots on 3 and 2
    play = validate_play(p, (5, 3), [(8, 3), (6, 3)])
    assert play.moves[0].hit and not play.moves[1].hit
    assert play.result.me[3] == 2 and play.result.opp[BAR] == 1


def test_too_few_moves() -> None:
    err = reject(OPENING, (3, 1), [(8, 5)])
    assert (err.reason, err.required) == (PlayReason.TOO_FEW_MOVES, 2)


def test_too_many_moves() -> None:
    err = reject(OPENING, (3, 1), [(8, 5), (6, 5), (6, 5)])
    assert (err.reason, err.required) == (PlayReason.TOO_MANY_MOVES, 2)


def test_no_checker_on_the_source_point() -> None:
    err = reject(OPENING, (3, 1), [(7, 4), (6, 5)])
    assert (err.reason, err.move_index, err.point) == (PlayReason.NO_CHECKER, 1, 7)


def test_no_such_die() -> None:
    err = reject(OPENING, (3, 1), [(8, 5), (6, 1)])
    assert (err.reason, err.move_index, err.distance) == (PlayReason.NO_SUCH_DIE, 2, 5)


def test_the_same_die_twice_is_no_such_die() -> None:
    err = reject(OPENING, (3, 1), [(8, 5), (6, 3)])
    assert (err.reason, err.move_index, err.distance) == (PlayReason.NO_SUCH_DIE, 2, 3)


def test_backwards_is_wrong_direction() -> None:
    err = reject(OPENING, (3, 1), [(8, 11), (6, 5)])
    assert (err.reason, err.move_index, err.distance) == (
        PlayReason.WRONG_DIRECTION,
        1,
        3,
    )


def test_blocked_point() -> None:
    err = reject(OPENING, (5, 2), [(24, 19), (13, 11)])
    assert (err.reason, err.move_index, err.point) == (PlayReason.BLOCKED, 1, 19)


def test_bar_first() -> None:
    p = pos({BAR: 2, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 24: 2})
    err = reject(p, (3, 1), [(BAR, 22), (13, 12)])
    assert (err.reason, err.move_index) == (PlayReason.BAR_FIRST, 2)


def test_bar_entry_typed_second_is_the_same_play() -> None:
    p = pos({BAR: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    a = validate_play(p, (3, 1), [(8, 7), (BAR, 22)])
    b = validate_play(p, (3, 1), [(BAR, 22), (8, 7)])
    assert a.result == b.result and a.moves[0].from_point == BAR


def test_cannot_bear_off_yet() -> None:
    err = reject(OPENING, (6, 5), [(6, OFF), (13, 8)])
    assert (err.reason, err.move_index, err.point) == (
        PlayReason.CANNOT_BEAR_OFF_YET,
        1,
        6,
    )


def test_cannot_remove_a_checker_that_is_not_the_highest() -> None:
    p = pos({6: 2, 3: 1}, {24: 1, 12: 14})
    err = reject(p, (5, 4), [(3, OFF), (6, 2)])
    assert (err.reason, err.move_index, err.point) == (PlayReason.NOT_HIGHEST, 1, 3)


def test_bear_off_with_a_larger_die_picks_a_workable_die() -> None:
    # 3 is the highest point; 6-5 bears off 3 and 2 whichever die goes with which
    p = pos({3: 1, 2: 1, 1: 1}, {12: 15})
    play = validate_play(p, (6, 5), [(3, OFF), (2, OFF)])
    assert play.result.me[OFF] == 14


def test_must_use_larger_carries_the_smaller_die() -> None:
    p = pos({24: 1, 1: 14}, {12: 2, 2: 7, 3: 6})
    err = reject(p, (6, 5), [(24, 19)])
    assert (err.reason, err.required, err.distance) == (
        PlayReason.MUST_USE_LARGER,
        1,
        5,
    )


def test_count_errors_come_before_move_errors() -> None:
    # FIBS first says how many moves it wants
    err = reject(OPENING, (3, 1), [(7, 4)])
    assert err.reason is PlayReason.TOO_FEW_MOVES


def test_a_move_error_knows_the_required_count() -> None:
    err = reject(OPENING, (4, 4), [(24, 20), (24, 20), (13, 9), (7, 3)])
    assert (err.reason, err.move_index, err.required) == (PlayReason.NO_CHECKER, 4, 4)


def test_bad_dice_are_a_programming_error() -> None:
    with pytest.raises(ValueError):
        validate_play(OPENING, (0, 7), [])


@settings(max_examples=200)
@given(positions, dice, st.randoms(use_true_random=False))
def test_every_legal_play_in_any_order_is_accepted(
    p: Position, roll: tuple[int, int], rng: object
) -> None:
    for play in legal_plays(p, roll):
        steps = [(m.from_point, m.to_point) for m in play.moves]
        rng.shuffle(steps)  # type: ignore[attr-defined]
        assert validate_play(p, roll, steps).result == play.result


@settings(max_examples=300)
@given(
    positions,
    dice,
    st.lists(st.tuples(st.integers(0, 25), st.integers(0, 25)), max_size=5),
)
def test_arbitrary_steps_are_accepted_exactly_when_legal(
    p: Position, roll: tuple[int, int], steps: list[tuple[int, int]]
) -> None:
    legal = {play.result for play in legal_plays(p, roll)}
    try:
        play = validate_play(p, roll, steps)
    except IllegalPlay as err:
        assert err.reason in PlayReason
        if err.reason in (PlayReason.TOO_FEW_MOVES, PlayReason.TOO_MANY_MOVES):
            assert err.required == moves_required(p, roll)
            assert len(steps) != err.required
        if err.move_index is not None:
            assert 1 <= err.move_index <= len(steps)
    else:
        assert play.result in legal
        assert len(steps) == moves_required(p, roll)
