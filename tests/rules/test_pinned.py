"""One pinned case per rule, positions written out by hand.

Helper `pos(mover, opponent)`: {own point: count} per side, the rest borne off. The
opponent's point q is the mover's point 25 - q, so the opponent "holds the mover's
point p" with two checkers on its own point 25 - p.
"""

from __future__ import annotations

import pytest

from fibsd.rules.errors import IllegalPlay, PlayReason
from fibsd.rules.movegen import (
    Move,
    forced_play,
    greedy_bearoff,
    has_legal_play,
    legal_plays,
    moves_required,
)
from fibsd.rules.position import BAR, OFF, Position
from fibsd.rules.validate import validate_play

from .helpers import pos, results, side


def test_opening_3_1_has_exactly_16_distinct_plays() -> None:
    plays = legal_plays(Position.opening(), (3, 1))
    assert len(plays) == 16
    # the best-known one, making the 5-point, is among them
    made_5 = validate_play(Position.opening(), (3, 1), [(8, 5), (6, 5)]).result
    assert made_5 in results(plays)
    assert made_5.me[5] == 2


def test_only_the_larger_die_can_be_played() -> None:
    # one runner on 24, the rest dead on the 1-point; the mover's 13 is blocked, so
    # 6-5 can play either die alone (24-18 or 24-19) but not both: the 6 it must be
    p = pos({24: 1, 1: 14}, {12: 2, 2: 7, 3: 6})
    (play,) = legal_plays(p, (6, 5))
    assert play.moves == (Move(24, 18),)
    assert moves_required(p, (6, 5)) == 1
    assert forced_play(p, (5, 6)) == play
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (6, 5), [(24, 19)])
    assert err.value.reason is PlayReason.MUST_USE_LARGER


def test_only_the_smaller_die_when_the_larger_cannot_move() -> None:
    p = pos({24: 1, 1: 14}, {7: 2, 12: 2, 2: 5, 3: 6})  # 18 and 13 blocked
    (play,) = legal_plays(p, (6, 5))
    assert play.moves == (Move(24, 19),)


@pytest.mark.parametrize(
    "blocked_at, expected_moves",
    [
        (12, 2),  # 24-20-16, then 12 is held
        (8, 3),  # 24-20-16-12, then 8 is held
    ],
)
def test_double_with_only_some_of_four_moves(
    blocked_at: int, expected_moves: int
) -> None:
    p = pos({24: 1, 1: 14}, {25 - blocked_at: 2, 2: 7, 3: 6})
    plays = legal_plays(p, (4, 4))
    assert moves_required(p, (4, 4)) == expected_moves
    (play,) = plays
    assert [m.from_point for m in play.moves] == [24, 20, 16, 12][:expected_moves]
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (4, 4), [(24, 20)])
    assert err.value.reason is PlayReason.TOO_FEW_MOVES
    assert err.value.required == expected_moves


def test_entry_with_one_die_blocked() -> None:
    # the opponent holds its 6-point (the mover's 19): a 6 cannot enter, a 3 can
    p = pos({BAR: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    plays = legal_plays(p, (6, 3))
    assert plays and all(play.moves[0] == Move(BAR, 22) for play in plays)
    assert all(len(play.moves) == 2 for play in plays)  # the 6 is then played normally
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (6, 3), [(BAR, 19), (13, 10)])
    assert err.value.reason is PlayReason.BLOCKED
    assert (err.value.move_index, err.value.point) == (1, 19)


def test_blocked_entry_forfeits_the_rest_of_the_turn() -> None:
    # two on the bar, only the 3 enters: the second checker stays, nothing else moves
    p = pos({BAR: 2, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 24: 2})
    (play,) = legal_plays(p, (6, 3))
    assert play.moves == (Move(BAR, 22),)
    assert play.result.me[BAR] == 1


def test_closed_board_means_no_legal_play() -> None:
    p = pos({BAR: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3})
    plays = legal_plays(p, (6, 6))
    assert plays == [type(plays[0])((), p)]
    assert moves_required(p, (5, 2)) == 0
    assert not has_legal_play(p, (5, 2))
    assert forced_play(p, (5, 2)) is None
    assert validate_play(p, (5, 2), []).result == p


def test_bear_off_where_both_dice_must_bear_off() -> None:
    # the mover's 1-point is held, so the 5 cannot be played 6-1: both checkers go off
    p = pos({6: 1, 5: 1}, {24: 2, 12: 13})
    (play,) = legal_plays(p, (6, 5))
    assert play.result.me[OFF] == 15
    assert sorted(play.moves) == [Move(5, OFF), Move(6, OFF)]
    assert greedy_bearoff(p, (6, 5)) == play


def test_bear_off_roll_may_be_played_inside_the_home_board() -> None:
    # 4-2 with checkers on 4 and 2 (x2): 4-off 2-off leaves a blot, 4-2 2-off does not
    p = pos({4: 1, 2: 2}, {BAR: 1, 20: 14})
    got = results(legal_plays(p, (4, 2)))
    no_blot = validate_play(p, (4, 2), [(4, 2), (2, OFF)]).result
    assert no_blot.me == side({2: 2})
    assert no_blot in got
    blot = validate_play(p, (4, 2), [(4, OFF), (2, OFF)]).result
    assert blot.me == side({2: 1})
    assert blot in got
    greedy = greedy_bearoff(p, (4, 2))
    assert greedy is not None and all(m.to_point == OFF for m in greedy.moves)


def test_6_4_where_the_6_bears_off_from_the_5_and_the_4_is_lost() -> None:
    # two on the 5-point, the mover's 1-point held: the 6 bears one off (5 is the highest
    # point), the 4 can neither move 5-1 nor bear off from the 5
    p = pos({5: 2}, {24: 2, 12: 13})
    (play,) = legal_plays(p, (6, 4))
    assert play.moves == (Move(5, OFF),)
    assert moves_required(p, (6, 4)) == 1
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (6, 4), [(5, OFF), (5, 1)])
    assert err.value.reason is PlayReason.TOO_MANY_MOVES
    assert err.value.required == 1


def test_6_4_where_the_6_may_not_bear_off_from_the_6_point() -> None:
    # 6-off would leave the 4 unplayable (5-1 is held); 6-2 then 5-off uses both dice
    p = pos({6: 1, 5: 1}, {24: 2, 12: 13})
    (play,) = legal_plays(p, (6, 4))
    assert play.moves == (Move(6, 2), Move(5, OFF))
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (6, 4), [(6, OFF)])
    assert err.value.reason is PlayReason.TOO_FEW_MOVES
    assert err.value.required == 2
    # typed in the other order, the same play is accepted
    assert validate_play(p, (6, 4), [(5, OFF), (6, 2)]).result == play.result


def test_hit_on_the_intermediate_point() -> None:
    # one checker plays 6-1 from 13: a blot on 12 or 7 is hit on the way
    p = pos({13: 1, 6: 14}, {13: 1, 18: 1, 1: 13})  # blots on the mover's 12 and 7
    via_12 = validate_play(p, (6, 1), [(13, 12), (12, 6)])
    assert via_12.moves[0].hit and via_12.result.opp[BAR] == 1
    via_7 = validate_play(p, (6, 1), [(13, 7), (7, 6)])
    assert via_7.moves[0].hit and via_7.result.opp[BAR] == 1
    assert via_12.result != via_7.result


def test_hit_checker_during_bear_off_must_come_home_first() -> None:
    # a mover's checker on the bar during a bear-off: it enters, then must come home
    p = pos({BAR: 1, 3: 4, 2: 5}, {6: 2, 1: 5})
    for play in legal_plays(p, (6, 5)):
        assert play.moves[0].from_point == BAR
        assert all(m.to_point != OFF for m in play.moves)  # not all home yet
    with pytest.raises(IllegalPlay) as err:
        validate_play(p, (6, 5), [(BAR, 20), (3, OFF)])
    assert err.value.reason is PlayReason.CANNOT_BEAR_OFF_YET


def test_a_checker_entering_may_go_on_with_the_other_die() -> None:
    p = pos({BAR: 1, 6: 14}, {1: 15})
    assert Move(BAR, 22) in [
        m for play in legal_plays(p, (3, 5)) for m in play.moves[:1]
    ]
    assert validate_play(p, (3, 5), [(BAR, 22), (22, 17)]).result.me[17] == 1
