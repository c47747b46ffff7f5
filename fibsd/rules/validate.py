"""Validation of a play as a user typed it: one (from, to) step per die.

Owns `validate_play`. It simulates the submitted steps directly (in the user's order,
then in other orders, since the same moves in another order are the same play) and only
falls back to the full search when fewer moves than dice were given, so the common case
costs a few microseconds. Knows nothing of the protocol's text: the reasons and details
in `IllegalPlay` let the server word FIBS's errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from .errors import IllegalPlay, PlayReason
from .movegen import Move, Play, build_play, legal_plays, moves_required
from .position import BAR, OFF, Position


class _StepError(Exception):
    """Internal: a simulated step failed (carries the IllegalPlay to raise)."""

    def __init__(self, error: IllegalPlay) -> None:
        super().__init__()
        self.error = error


def _dice_for(
    me: list[int], opp: list[int], dice: list[int], f: int, t: int, index: int
) -> list[int]:
    """The dice (distinct values) that could play the step f->t now; raise otherwise."""
    if not (OFF <= f <= BAR) or f == OFF:
        raise _StepError(IllegalPlay(PlayReason.NO_CHECKER, move_index=index, point=f))
    if not (OFF <= t < BAR):
        raise _StepError(IllegalPlay(PlayReason.BLOCKED, move_index=index, point=t))
    if me[BAR] and f != BAR:
        raise _StepError(IllegalPlay(PlayReason.BAR_FIRST, move_index=index, point=f))
    if not me[f]:
        raise _StepError(IllegalPlay(PlayReason.NO_CHECKER, move_index=index, point=f))
    if t == OFF:
        if sum(me[7:]):
            raise _StepError(
                IllegalPlay(PlayReason.CANNOT_BEAR_OFF_YET, move_index=index, point=f)
            )
        if f in dice:
            return [f]
        larger = sorted({d for d in dice if d > f})
        if not larger:
            raise _StepError(
                IllegalPlay(PlayReason.NO_SUCH_DIE, move_index=index, distance=f)
            )
        if any(me[f + 1 : 7]):
            raise _StepError(
                IllegalPlay(PlayReason.NOT_HIGHEST, move_index=index, point=f)
            )
        return larger
    dist = f - t
    if dist <= 0:
        raise _StepError(
            IllegalPlay(PlayReason.WRONG_DIRECTION, move_index=index, distance=-dist)
        )
    if dist not in dice:
        raise _StepError(
            IllegalPlay(PlayReason.NO_SUCH_DIE, move_index=index, distance=dist)
        )
    if opp[25 - t] >= 2:
        raise _StepError(IllegalPlay(PlayReason.BLOCKED, move_index=index, point=t))
    return [dist]


def _simulate(
    me: list[int],
    opp: list[int],
    dice: list[int],
    steps: Sequence[tuple[int, tuple[int, int]]],
    done: list[Move],
) -> bool:
    """Play `steps` (user index, (from, to)) in order, trying each fitting die; on
    success `done` holds the moves and me/opp the result; on failure raise the error of
    the first step that no choice of dice could play."""
    if not steps:
        return True
    index, (f, t) = steps[0]
    candidates = _dice_for(me, opp, dice, f, t, index)
    first_error: _StepError | None = None
    for d in candidates:
        me2 = me.copy()
        opp2 = opp.copy()
        me2[f] -= 1
        me2[t] += 1
        hit = False
        if t != OFF and opp2[25 - t] == 1:
            opp2[25 - t] = 0
            opp2[BAR] += 1
            hit = True
        rest = dice.copy()
        rest.remove(d)
        done.append(Move(f, t, hit))
        try:
            _simulate(me2, opp2, rest, steps[1:], done)
        except _StepError as exc:
            done.pop()
            if first_error is None:
                first_error = exc
            continue
        me[:] = me2
        opp[:] = opp2
        return True
    assert first_error is not None
    raise first_error


def _straight(
    position: Position, dice: list[int], moves: Sequence[tuple[int, int]]
) -> Play | None:
    """The play when the steps work in the order typed, each with exactly one die that
    fits (nearly every typed play); None to let the thorough search decide."""
    me = list(position.me)
    opp = list(position.opp)
    left = dice.copy()
    done: list[tuple[int, int, bool]] = []
    outside = sum(me[7:])
    for f, t in moves:
        if not (0 < f <= BAR and 0 <= t < f) or not me[f] or (me[BAR] and f != BAR):
            return None
        if t == OFF:
            # only the exact die; larger dice and their conditions go the long way
            if outside or f not in left:
                return None
            left.remove(f)
        else:
            d = f - t
            if d not in left or opp[25 - t] >= 2:
                return None
            left.remove(d)
        me[f] -= 1
        me[t] += 1
        if f > 6 >= t:
            outside -= 1
        hit = False
        if t != OFF and opp[25 - t] == 1:
            opp[25 - t] = 0
            opp[BAR] += 1
            hit = True
        done.append((f, t, hit))
    return build_play(tuple(done), tuple(me), tuple(opp))


def _try_orders(
    position: Position, dice: list[int], moves: Sequence[tuple[int, int]]
) -> tuple[Play | None, IllegalPlay | None]:
    """The play from the user's order, or from another order of the same steps; else
    the error found in the user's order."""
    steps = list(enumerate(moves, start=1))
    user_error: IllegalPlay | None = None
    seen: set[tuple[tuple[int, int], ...]] = set()
    for order in permutations(steps) if len(steps) > 1 else [tuple(steps)]:
        key = tuple(m for _, m in order)
        if key in seen:
            continue
        seen.add(key)
        me = list(position.me)
        opp = list(position.opp)
        done: list[Move] = []
        try:
            _simulate(me, opp, dice, order, done)
        except _StepError as exc:
            if user_error is None:
                user_error = exc.error
            continue
        return Play(tuple(done), Position(tuple(me), tuple(opp))), None
    return None, user_error


def validate_play(
    position: Position, dice: tuple[int, int], moves: Sequence[tuple[int, int]]
) -> Play:
    """The legal play the user's steps make, or raise `IllegalPlay` saying why not.

    `moves` are (from, to) pairs in the mover's perspective (BAR/OFF for bar and off),
    one per die, in the order typed. Any order of the same steps that is playable counts.
    """
    d1, d2 = dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be 1..6: {dice}")
    all_dice = [d1, d2] if d1 != d2 else [d1] * 4
    moves = [(int(f), int(t)) for f, t in moves]
    if len(moves) > len(all_dice):
        raise IllegalPlay(
            PlayReason.TOO_MANY_MOVES, required=moves_required(position, dice)
        )
    play = _straight(position, all_dice, moves)
    if play is None and len(moves) > 1:
        # the usual other orders first: highest source first (always workable for
        # doubles, which are played that way), and for two moves the other one
        play = _straight(position, all_dice, sorted(moves, reverse=True))
        if play is None and len(moves) == 2:
            play = _straight(position, all_dice, moves[::-1])
    error = None
    if play is None:
        play, error = _try_orders(position, all_dice, moves)
    if play is not None and len(moves) == len(all_dice):
        return play  # the whole roll is used: nothing can be more maximal
    required = moves_required(position, dice)
    if len(moves) < required:
        raise IllegalPlay(PlayReason.TOO_FEW_MOVES, required=required)
    if len(moves) > required:
        raise IllegalPlay(PlayReason.TOO_MANY_MOVES, required=required)
    if play is None:
        assert error is not None
        error.required = required
        raise error
    # fewer moves than dice, and as many as possible: only the larger-die rule is left
    for legal in legal_plays(position, dice):
        if legal.result == play.result:
            return Play(play.moves, legal.result)
    if d1 != d2 and required == 1:
        raise IllegalPlay(
            PlayReason.MUST_USE_LARGER, move_index=1, distance=min(d1, d2), required=1
        )
    raise IllegalPlay(PlayReason.NOT_MAXIMAL, required=required)
