"""Properties of the legal plays over generated positions and rolls."""

from __future__ import annotations

from hypothesis import given, settings

from fibsd.rules.movegen import Play, legal_plays, moves_required, single_moves
from fibsd.rules.position import BAR, CHECKERS, OFF, Position

from .generators import dice, positions
from .reference import apply_move, can_move


def replay(position: Position, play: Play, roll: tuple[int, int]) -> Position:
    """Step through the play's moves with the reference rules, asserting each is legal
    with some unused die, and return where it leads."""
    me, opp = list(position.me), list(position.opp)
    left = [roll[0]] * 4 if roll[0] == roll[1] else list(roll)
    for move in play.moves:
        fitting = [
            d
            for d in sorted(set(left))
            if max(move.from_point - d, OFF) == move.to_point
            and can_move(me, opp, move.from_point, d)
        ]
        assert fitting, f"{move} is not a legal step with {left} in {me}"
        hit_before = opp[BAR]
        me, opp = apply_move(me, opp, move.from_point, fitting[0])
        assert move.hit == (opp[BAR] == hit_before + 1)
        left.remove(fitting[0])
    return Position(tuple(me), tuple(opp))


@settings(max_examples=200)
@given(positions, dice)
def test_checkers_are_conserved_and_results_valid(
    position: Position, roll: tuple[int, int]
) -> None:
    for play in legal_plays(position, roll):
        play.result.check()  # 15 a side, counts in range, no shared point
        assert sum(play.result.me) == sum(play.result.opp) == CHECKERS
        # the mover's checkers only move forward: pips never grow
        assert play.result.pip_count()[0] <= position.pip_count()[0]


@settings(max_examples=200)
@given(positions, dice)
def test_every_play_replays_step_by_step(
    position: Position, roll: tuple[int, int]
) -> None:
    plays = legal_plays(position, roll)
    assert len({p.result for p in plays}) == len(plays)  # distinct results
    for play in plays:
        assert replay(position, play, roll) == play.result


@settings(max_examples=200)
@given(positions, dice)
def test_maximum_dice_rule(position: Position, roll: tuple[int, int]) -> None:
    """All plays use the same, largest possible number of dice: after a play that used
    fewer than all dice, none of the unused dice can be played any more."""
    required = moves_required(position, roll)
    n_dice = 4 if roll[0] == roll[1] else 2
    for play in legal_plays(position, roll):
        assert len(play.moves) == required
        if required == n_dice or play.result.me[OFF] == CHECKERS:
            continue
        if roll[0] == roll[1]:
            assert single_moves(play.result, roll[0]) == []
        elif required == 0:
            assert (
                single_moves(position, roll[0]) == single_moves(position, roll[1]) == []
            )
        else:
            (m,) = play.moves
            # the dice that could have made the one move; the other must be unplayable
            makers = [
                d
                for d in roll
                if m.from_point - d == m.to_point
                or (m.to_point == OFF and d >= m.from_point)
            ]
            others = [roll[1] if d == roll[0] else roll[0] for d in makers]
            assert any(single_moves(play.result, d) == [] for d in others), play


@settings(max_examples=200)
@given(positions, dice)
def test_larger_die_rule(position: Position, roll: tuple[int, int]) -> None:
    small, large = sorted(roll)
    if small == large or moves_required(position, roll) != 1:
        return
    large_results = set()
    for m in single_moves(position, large):
        large_results.add(
            Position(
                *map(
                    tuple,
                    apply_move(
                        list(position.me), list(position.opp), m.from_point, large
                    ),
                )
            )
        )
    got = {p.result for p in legal_plays(position, roll)}
    if large_results:
        assert got == large_results  # the larger die must be played
    else:
        small_results = {
            Position(
                *map(
                    tuple,
                    apply_move(
                        list(position.me), list(position.opp), m.from_point, small
                    ),
                )
            )
            for m in single_moves(position, small)
        }
        assert got == small_results


@settings(max_examples=200)
@given(positions, dice)
def test_doubles_move_the_die_size_up_to_four_times(
    position: Position, roll: tuple[int, int]
) -> None:
    d = roll[0]
    roll = (d, d)
    for play in legal_plays(position, roll):
        assert len(play.moves) <= 4
        for m in play.moves:
            assert m.from_point - m.to_point == d or (
                m.to_point == OFF and m.from_point < d
            )


@settings(max_examples=200)
@given(positions, dice)
def test_bar_first(position: Position, roll: tuple[int, int]) -> None:
    on_bar = position.me[BAR]
    for play in legal_plays(position, roll):
        sources = [m.from_point for m in play.moves]
        entered = sources[: min(on_bar, len(sources))]
        assert entered == [BAR] * len(entered)
        if on_bar > len(sources):
            assert play.result.me[BAR] == on_bar - len(sources)
        # a checker that did not enter may not move
        assert BAR not in sources[len(entered) :]


@settings(max_examples=200)
@given(positions, dice)
def test_bear_off_only_when_all_home(position: Position, roll: tuple[int, int]) -> None:
    for play in legal_plays(position, roll):
        me = list(position.me)
        for m in play.moves:
            if m.to_point == OFF:
                assert sum(me[7:]) == 0, play
                assert m.from_point <= 6
            me[m.from_point] -= 1
            me[m.to_point] += 1
